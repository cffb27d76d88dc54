/**
 * The code analyser C11 runs on every code file of a bundle: decodes the source strictly, parses it
 * with the file's grammar and hands the syntax tree to the analyser of its language. Constant shell
 * command lines found in Python or JavaScript (`os.system("…")`, `["sh", "-c", "…"]`, `exec("…")`)
 * are parsed as shell too, so `curl … | sh` fails however the call that runs it is spelt; so are
 * the argument lists a launcher runs without a shell (`[sh, -c, "…"]` in a SwarmKit command pack).
 */
import type { FileAnalysis, Language, ShellCommandAnalysis, SourceLocation } from './analysis.types';
import type { AnalyzerContext } from './analyzer-context';
import type { EmbeddedCode } from './embedded-code';
import { powershellIssues } from './powershell-lines';
import { loadGrammars, type Grammars } from './grammars';
import { analyzeJavaScript } from './javascript.analyzer';
import { collectLocalModules, type LocalModules } from './javascript-modules';
import { analyzePython } from './python.analyzer';
import { analyzeArgv, analyzeShell, analyzeShellCommand } from './shell.analyzer';
import type { NestedCode } from './shell-inspector';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export class CodeAnalyzer {
  constructor(private readonly grammars: Grammars) {}

  /** `localModules`: what the bundle's JavaScript modules export to each other (see localModules below). */
  analyzeFile(path: string, content: Buffer, language: Language, localModules?: LocalModules): FileAnalysis {
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
    return this.analyzeText(path, text, language, localModules);
  }

  /**
   * Code embedded in a file that is not code (see embedded-code.ts), as its language's analyser
   * reads it, located in the host file. Instructions are run by the agent, not the skill: only
   * refused shapes count, and a block that does not parse is read a line at a time (prose, output
   * and a command line the agent would run sit side by side in a document's blocks).
   */
  analyzeEmbedded(path: string, piece: EmbeddedCode): FileAnalysis {
    if (piece.language === 'powershell') {
      const issues = powershellIssues(piece.code, path, piece.line);
      return { path, language: 'shell', capabilities: [], issues, comments: [] };
    }
    const language = piece.language;
    const at = { file: path, line: piece.line };
    const whole = (): FileAnalysis => shifted(this.analyzeText(path, piece.code, language), piece.line - 1);
    let analysis: FileAnalysis | ShellCommandAnalysis =
      piece.shape === 'line' ? this.analyzeShellCommand(piece.code, at) : whole();
    if (language === 'shell' && analysis.issues.some((issue) => issue.kind === 'unparsable')) {
      const lines = piece.shape === 'line' ? [piece.code] : piece.code.split('\n');
      const each = lines.map((line, index) => this.analyzeShellCommand(line, { file: path, line: piece.line + index }));
      analysis = { capabilities: each.flatMap((one) => one.capabilities), issues: each.flatMap((one) => one.issues) };
    }
    return {
      path,
      language,
      capabilities: piece.role === 'runs' ? analysis.capabilities : [],
      // What does not parse as its language was prose, output or an example, not a program.
      issues: analysis.issues.filter((issue) => issue.kind !== 'unparsable'),
      comments: [],
    };
  }

  private analyzeText(path: string, text: string, language: Language, localModules?: LocalModules): FileAnalysis {
    const context: AnalyzerContext = {
      grammars: this.grammars,
      path,
      shell: (command, line) => this.analyzeShellCommand(command, { file: path, line }),
      code: this.nestedCode(path),
      localModules,
    };
    const analysis =
      language === 'python'
        ? analyzePython(text, context)
        : language === 'shell'
          ? analyzeShell(text, context)
          : analyzeJavaScript(text, context, language);
    return { path, language, ...analysis };
  }

  /**
   * What the JavaScript and TypeScript files of a bundle export to each other, computed once per
   * bundle and handed to analyzeFile for each file, so that a sink exported by `./util.js` is
   * judged where another file calls it. Files that are not UTF-8 are left out.
   */
  localModules(files: readonly { path: string; content: Buffer; language: Language }[]): LocalModules {
    return collectLocalModules(
      this.grammars,
      files.flatMap(({ path, content, language }) => {
        if (language !== 'javascript' && language !== 'typescript' && language !== 'tsx') return [];
        try {
          return [{ path, text: utf8.decode(content), language }];
        } catch {
          return [];
        }
      }),
    );
  }

  /** A constant command line handed to a shell, as the shell reads it. */
  analyzeShellCommand(command: string, at: SourceLocation): ShellCommandAnalysis {
    return analyzeShellCommand(command, this.grammars, at, this.nestedCode(at.file));
  }

  /** Python or JavaScript a shell command of `path` runs inline, analysed as a file of its own. */
  private nestedCode(path: string): NestedCode {
    return (language, code) => this.analyzeText(path, code, language);
  }

  /** What running `argv` without a shell does (a SwarmKit command, an MCP server's launch): see analyzeArgv. */
  analyzeArgv(argv: readonly string[], at: SourceLocation): ShellCommandAnalysis {
    return analyzeArgv(argv, this.grammars, at, this.nestedCode(at.file));
  }
}

/** An analysis of code that starts `by` lines below the top of its file. */
function shifted(analysis: FileAnalysis, by: number): FileAnalysis {
  return {
    ...analysis,
    capabilities: analysis.capabilities.map((use) => ({ ...use, line: use.line + by })),
    issues: analysis.issues.map((issue) => ({ ...issue, line: issue.line === null ? null : issue.line + by })),
    comments: analysis.comments.map((comment) => ({ ...comment, line: comment.line + by })),
  };
}

/** The process's analyser (its grammars load once). */
export async function loadCodeAnalyzer(): Promise<CodeAnalyzer> {
  return new CodeAnalyzer(await loadGrammars());
}
