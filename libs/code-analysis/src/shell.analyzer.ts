/**
 * The shell analyser: scripts in a bundle (`scripts/setup.sh`), the constant command lines that
 * Python and JavaScript hand to a shell, and argument lists a launcher runs without a shell
 * (SwarmKit command packs, MCP server commands). All are parsed with tree-sitter-bash and read by
 * the same rules (shell-inspector.ts); comments are text for the text checks, never code.
 */
import type { CodeText, ShellCommandAnalysis, SourceLocation } from './analysis.types';
import type { AnalyzerContext, LanguageAnalysis } from './analyzer-context';
import type { Grammars } from './grammars';
import { evidenceText } from './evidence';
import { Findings } from './findings';
import { ShellInspector, lines, type NestedCode } from './shell-inspector';
import { firstSyntaxError, lineOf, walk } from './syntax';

export function analyzeShell(text: string, context: AnalyzerContext): LanguageAnalysis {
  const findings = new Findings(context.path);
  const comments: CodeText[] = [];
  const tree = context.grammars.parse('shell', text);
  try {
    const error = firstSyntaxError(tree.rootNode);
    if (error) {
      walk(
        tree.rootNode,
        (node) => void (node.type === 'comment' && comments.push({ line: lineOf(node), text: node.text })),
      );
      const line = lineOf(error);
      findings.issue('unparsable', line, unparsable('script'), text.split('\n')[line - 1] ?? '');
    } else {
      new ShellInspector(context.grammars, findings, context.code).inspect(tree.rootNode, lines(null), 0, comments);
    }
  } finally {
    tree.delete();
  }
  return { ...findings.result(), comments };
}

export function analyzeShellCommand(
  command: string,
  grammars: Grammars,
  at: SourceLocation,
  nested?: NestedCode,
): ShellCommandAnalysis {
  const findings = new Findings(at.file);
  const tree = grammars.parse('shell', command);
  try {
    if (firstSyntaxError(tree.rootNode)) {
      findings.issue('unparsable', at.line, unparsable('command line'), command);
    } else {
      new ShellInspector(grammars, findings, nested).inspect(tree.rootNode, lines(at.line), 0);
    }
  } finally {
    tree.delete();
  }
  return findings.result();
}

/**
 * What running `argv` without a shell does (execve): the program always runs (process_exec, the
 * argv as evidence), and the rules read it as they read a command line whose words are exactly
 * these, so `sh -c <line>` has its line parsed as shell, `python -c <code>` as Python and
 * a URL handed to a shell is download-and-run. A `{name}` placeholder (SwarmKit fills it with a
 * value at run time, inside its one element) is input: a shell line or a program that holds one
 * is built from input. `${VAR}` is left to the program: no launcher expands it in argv.
 */
export function analyzeArgv(
  argv: readonly string[],
  grammars: Grammars,
  at: SourceLocation,
  nested?: NestedCode,
): ShellCommandAnalysis {
  const findings = new Findings(at.file);
  if (argv.length === 0) return findings.result();
  // execve reads each argument up to its first NUL: what follows is never seen by the program.
  const args = argv.map((arg) => arg.split('\0', 1)[0] as string);
  const evidence = evidenceText(JSON.stringify(args));
  findings.capability('process_exec', at.line, evidence);
  const line = commandLine(args);
  const shown = evidenceText(line);
  const analysis = analyzeShellCommand(line, grammars, at, nested);
  // The line is the hub's spelling of the argv: findings about the whole of it show the argv as written.
  const proof = (text: string): string => (text === shown ? evidence : text);
  for (const use of analysis.capabilities) findings.capability(use.capability, use.line, proof(use.evidence));
  for (const issue of analysis.issues) findings.issue(issue.kind, issue.line, issue.message, proof(issue.evidence));
  return findings.result();
}

/** SwarmKit's argv placeholder (`{filter}`, `{file}`); `{credential.x}` is refused before it gets here. */
const PLACEHOLDER = /\{[A-Za-z_][A-Za-z0-9_.]*\}/g;

/**
 * A shell command line whose words are exactly `args`: each one quoted whole, so no word splits,
 * globs or reads as syntax, and each placeholder a positional parameter (input the line does not set).
 */
function commandLine(args: readonly string[]): string {
  const parameters = new Map<string, number>();
  const parameter = (name: string): string => {
    const index = parameters.get(name) ?? parameters.size + 1;
    parameters.set(name, index);
    return `"\${${index}}"`;
  };
  return args
    .map((arg) => {
      const names = arg.match(PLACEHOLDER) ?? [];
      if (names.length === 0) return quoted(arg);
      // Empty pieces are left out: `''"$1"''` would read as a word spelt in pieces to hide it.
      return arg
        .split(PLACEHOLDER)
        .flatMap((piece, i) => [
          ...(piece === '' ? [] : [quoted(piece)]),
          ...(i < names.length ? [parameter(names[i] as string)] : []),
        ])
        .join('');
    })
    .join(' ');
}

/** `'text'`; text holding a single quote is double-quoted, backslash, `"`, `$` and backtick escaped (one string, not pieces). */
const quoted = (text: string): string =>
  text.includes("'") ? `"${text.replace(/[\\"$`]/g, (char) => `\\${char}`)}"` : `'${text}'`;

const unparsable = (what: string): string => `The ${what} does not parse as shell, so nothing about it can be proven.`;
