/**
 * The shell analyser: scripts in a bundle (`scripts/setup.sh`) and the constant command lines that
 * Python and JavaScript hand to a shell. Both are parsed with tree-sitter-bash and read by the same
 * rules (shell-inspector.ts); comments are text for the text checks, never code.
 */
import type { CodeText, ShellCommandAnalysis, SourceLocation } from './analysis.types';
import type { AnalyzerContext, LanguageAnalysis } from './analyzer-context';
import type { Grammars } from './grammars';
import { Findings } from './findings';
import { ShellInspector, lines } from './shell-inspector';
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
      new ShellInspector(context.grammars, findings).inspect(tree.rootNode, lines(null), 0, comments);
    }
  } finally {
    tree.delete();
  }
  return { ...findings.result(), comments };
}

export function analyzeShellCommand(command: string, grammars: Grammars, at: SourceLocation): ShellCommandAnalysis {
  const findings = new Findings(at.file);
  const tree = grammars.parse('shell', command);
  try {
    if (firstSyntaxError(tree.rootNode)) {
      findings.issue('unparsable', at.line, unparsable('command line'), command);
    } else {
      new ShellInspector(grammars, findings).inspect(tree.rootNode, lines(at.line), 0);
    }
  } finally {
    tree.delete();
  }
  return findings.result();
}

const unparsable = (what: string): string => `The ${what} does not parse as shell, so nothing about it can be proven.`;
