/**
 * The code analyser C11 runs on every code file of a bundle: decodes the source strictly, parses it
 * with the file's grammar and hands the syntax tree to the analyser of its language. Constant shell
 * command lines found in Python or JavaScript (`os.system("…")`, `["sh", "-c", "…"]`, `exec("…")`)
 * are parsed as shell too, so `curl … | sh` fails however the call that runs it is spelt; so are
 * the argument lists a launcher runs without a shell (`[sh, -c, "…"]` in a SwarmKit command pack).
 */
import type { FileAnalysis, Language, ShellCommandAnalysis, SourceLocation } from './analysis.types';
import type { AnalyzerContext } from './analyzer-context';
import { loadGrammars, type Grammars } from './grammars';
import { analyzeJavaScript } from './javascript.analyzer';
import { analyzePython } from './python.analyzer';
import { analyzeArgv, analyzeShell, analyzeShellCommand } from './shell.analyzer';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export class CodeAnalyzer {
  constructor(private readonly grammars: Grammars) {}

  analyzeFile(path: string, content: Buffer, language: Language): FileAnalysis {
    let text: string;
    try {
      text = utf8.decode(content);
    } catch {
      const issue = {
        kind: 'obfuscation' as const,
        file: path,
        line: null,
        message: 'The source is not UTF-8, so what a reader sees is not what the interpreter runs.',
        evidence: '',
      };
      return { path, language, capabilities: [], issues: [issue], comments: [] };
    }
    const context: AnalyzerContext = {
      grammars: this.grammars,
      path,
      shell: (command, line) => this.analyzeShellCommand(command, { file: path, line }),
    };
    const analysis =
      language === 'python'
        ? analyzePython(text, context)
        : language === 'shell'
          ? analyzeShell(text, context)
          : analyzeJavaScript(text, context, language);
    return { path, language, ...analysis };
  }

  /** A constant command line handed to a shell, as the shell reads it. */
  analyzeShellCommand(command: string, at: SourceLocation): ShellCommandAnalysis {
    return analyzeShellCommand(command, this.grammars, at);
  }

  /** What running `argv` without a shell does (a SwarmKit command, an MCP server's launch): see analyzeArgv. */
  analyzeArgv(argv: readonly string[], at: SourceLocation): ShellCommandAnalysis {
    return analyzeArgv(argv, this.grammars, at);
  }
}

/** The process's analyser (its grammars load once). */
export async function loadCodeAnalyzer(): Promise<CodeAnalyzer> {
  return new CodeAnalyzer(await loadGrammars());
}
