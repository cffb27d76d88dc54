/**
 * What the Python analyser has found in one file, recorded by syntax node in the shared collector
 * (findings.ts), and the facts that only mean something together in Python: a socket and a `dup2`
 * onto stdin, a downloaded file and a shell that runs it.
 */
import type { CapabilityKind, IssueKind, ShellCommandAnalysis } from './analysis.types';
import { Findings, type SourceSpan } from './findings';
import type { SyntaxNode } from './grammars';
import { lineOf } from './syntax';

/** Where a node is, kept as offsets so the syntax tree can be freed before the report is written. */
interface Spot {
  line: number;
  span: SourceSpan;
}

const spotOf = (node: SyntaxNode): Spot => ({
  line: lineOf(node),
  span: { start: node.startIndex, end: node.endIndex },
});

export class PythonFindings {
  private readonly found: Findings;
  private socket = false;
  private readonly wiredShells: (Spot & { message: string })[] = [];
  private readonly downloads = new Set<string>();
  private readonly runs: (Spot & { key: string; what: string })[] = [];

  constructor(path: string, source: string) {
    this.found = new Findings(path, source);
  }

  capability(capability: CapabilityKind, node: SyntaxNode): void {
    const { line, span } = spotOf(node);
    this.found.capability(capability, line, span);
  }

  issue(kind: IssueKind, node: SyntaxNode, message: string): void {
    const { line, span } = spotOf(node);
    this.found.issue(kind, line, message, span);
  }

  /** An issue about a line of the source before it is parsed (its coding cookie, a syntax error). */
  sourceIssue(kind: IssueKind, line: number, message: string, evidence: string): void {
    this.found.issue(kind, line, message, evidence);
  }

  /** What the shell analyser found in a constant command line of this file (already located). */
  shellFindings(analysis: ShellCommandAnalysis): void {
    this.found.merge(analysis);
  }

  /** A socket is created or connected somewhere in the file. */
  socketSeen(): void {
    this.socket = true;
  }

  /** A shell or standard stream that becomes a reverse shell when the file also has a socket. */
  wiredShell(node: SyntaxNode, message: string): void {
    this.wiredShells.push({ ...spotOf(node), message });
  }

  /** The whole environment is read (copied out, iterated, serialised). */
  wholeEnvironmentRead(node: SyntaxNode): void {
    const { line, span } = spotOf(node);
    this.found.wholeEnvironmentRead(line, span);
  }

  /** A file (by path key) is written with downloaded content. */
  downloaded(key: string): void {
    this.downloads.add(key);
  }

  /** A file (by path key) is run as a program, script or code. */
  runsFile(key: string, node: SyntaxNode, what: string): void {
    this.runs.push({ ...spotOf(node), key, what });
  }

  finish(): ShellCommandAnalysis {
    if (this.socket)
      for (const { line, span, message } of this.wiredShells) this.found.issue('reverse-shell', line, message, span);
    for (const { key, line, span, what } of this.runs)
      if (this.downloads.has(key))
        this.found.issue('download-and-run', line, `Downloads a file and runs it ${what}.`, span);
    return this.found.result();
  }
}
