/**
 * What the Python analyser has found in one file: capabilities with the line that proves each,
 * issues, and the facts that only mean something together (a socket and a `dup2` onto stdin, the
 * whole environment read and a network call, a downloaded file and a shell that runs it).
 */
import {
  MAX_USES_PER_CAPABILITY,
  type CapabilityKind,
  type CapabilityUse,
  type CodeIssue,
  type IssueKind,
} from './analysis.types';
import { evidenceText } from './evidence';
import type { SyntaxNode } from './grammars';

/** Issues listed per file; a file with more is refused many times over. */
const MAX_ISSUES = 50;

/** Longest source span read to make an evidence string (it is cut far shorter). */
const EVIDENCE_SOURCE_MAX = 1_000;

/** Where a finding points, kept as offsets so the syntax tree can be freed before the report is written. */
interface Span {
  line: number;
  start: number;
  end: number;
}

const spanOf = (node: SyntaxNode): Span => ({
  line: node.startPosition.row + 1,
  start: node.startIndex,
  end: node.endIndex,
});

export class PythonFindings {
  private readonly uses: (Span & { capability: CapabilityKind })[] = [];
  private readonly shellUses: CapabilityUse[] = [];
  private readonly issues = new Map<string, { kind: IssueKind; span: Span; message: string }>();
  /** Issues already located (by the shell analyser, or about the source text). */
  private readonly shellIssues: CodeIssue[] = [];
  private socket: Span | null = null;
  private readonly wiredShells: { span: Span; message: string }[] = [];
  private wholeEnvironment: Span | null = null;
  private credentials: Span | null = null;
  private readonly networkUses: Span[] = [];
  private readonly downloads = new Set<string>();
  private readonly runs: { key: string; span: Span; what: string }[] = [];

  constructor(
    private readonly path: string,
    private readonly source: string,
  ) {}

  capability(capability: CapabilityKind, node: SyntaxNode): void {
    const span = spanOf(node);
    this.uses.push({ capability, ...span });
    if (capability === 'network' || capability === 'network_inbound') this.networkUses.push(span);
  }

  /** One issue of a kind per line: the first found says what the line does. */
  issue(kind: IssueKind, node: SyntaxNode, message: string): void {
    const span = spanOf(node);
    this.addIssue(kind, span, message);
    if (kind === 'credentials-access' && (!this.credentials || span.start < this.credentials.start))
      this.credentials = span;
  }

  /** An issue about a line of the source before it is parsed (its coding cookie). */
  sourceIssue(kind: IssueKind, line: number, message: string, evidence: string): void {
    this.shellIssues.push({ kind, file: this.path, line, message, evidence: evidenceText(evidence) });
  }

  /** What the shell analyser found in a constant command line run by `call` (already located in this file). */
  shellFindings(call: SyntaxNode, capabilities: readonly CapabilityUse[], issues: readonly CodeIssue[]): void {
    this.shellUses.push(...capabilities);
    this.shellIssues.push(...issues);
    if (capabilities.some((use) => use.capability === 'network' || use.capability === 'network_inbound'))
      this.networkUses.push(spanOf(call));
  }

  /** A socket is created or connected somewhere in the file. */
  socketSeen(node: SyntaxNode): void {
    if (!this.socket) this.socket = spanOf(node);
  }

  /** A shell or standard stream that becomes a reverse shell when the file also has a socket. */
  wiredShell(node: SyntaxNode, message: string): void {
    this.wiredShells.push({ span: spanOf(node), message });
  }

  /** The whole environment is read (copied out, iterated, serialised). */
  wholeEnvironmentRead(node: SyntaxNode): void {
    const span = spanOf(node);
    if (!this.wholeEnvironment || span.start < this.wholeEnvironment.start) this.wholeEnvironment = span;
  }

  /** A file (by path key) is written with downloaded content. */
  downloaded(key: string): void {
    this.downloads.add(key);
  }

  /** A file (by path key) is run as a program, script or code. */
  runsFile(key: string, node: SyntaxNode, what: string): void {
    this.runs.push({ key, span: spanOf(node), what });
  }

  finish(): { capabilities: CapabilityUse[]; issues: CodeIssue[] } {
    this.combineFacts();
    return { capabilities: this.capabilityList(), issues: this.issueList() };
  }

  private combineFacts(): void {
    if (this.socket) for (const { span, message } of this.wiredShells) this.addIssue('reverse-shell', span, message);
    for (const { key, span, what } of this.runs)
      if (this.downloads.has(key)) this.addIssue('download-and-run', span, `Downloads a file and runs it ${what}.`);
    const network = this.networkUses.reduce<Span | null>(
      (first, span) => (!first || span.start < first.start ? span : first),
      null,
    );
    const read = this.credentials ? 'credentials' : this.wholeEnvironment ? 'the whole environment' : null;
    if (network && read) this.addIssue('exfiltration', network, `Reads ${read} and sends data over the network.`);
  }

  private addIssue(kind: IssueKind, span: Span, message: string): void {
    const key = `${kind}\u0000${span.line}`;
    if (!this.issues.has(key)) this.issues.set(key, { kind, span, message });
  }

  /**
   * One use per capability and line (the widest expression that proves it; the call before the
   * shell command inside it), the first MAX_USES_PER_CAPABILITY of each capability.
   */
  private capabilityList(): CapabilityUse[] {
    const candidates = [
      ...this.uses.map((use) => ({ ...use, evidence: () => this.evidence(use) })),
      ...this.shellUses.map((use) => ({
        ...use,
        start: Number.MAX_SAFE_INTEGER,
        end: 0,
        evidence: () => use.evidence,
      })),
    ].sort((a, b) => a.line - b.line || a.start - b.start || b.end - a.end);
    const lines = new Set<string>();
    const counts = new Map<CapabilityKind, number>();
    const kept: CapabilityUse[] = [];
    for (const { capability, line, evidence } of candidates) {
      const key = `${capability}\u0000${line}`;
      const count = counts.get(capability) ?? 0;
      if (lines.has(key) || count >= MAX_USES_PER_CAPABILITY) continue;
      lines.add(key);
      counts.set(capability, count + 1);
      kept.push({ capability, file: this.path, line, evidence: evidence() });
    }
    return kept;
  }

  private issueList(): CodeIssue[] {
    const issues: CodeIssue[] = [...this.issues.values()].map(({ kind, span, message }) => ({
      kind,
      file: this.path,
      line: span.line,
      message,
      evidence: this.evidence(span),
    }));
    return [...issues, ...this.shellIssues].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)).slice(0, MAX_ISSUES);
  }

  private evidence(span: Span): string {
    if (span.start >= this.source.length) return '';
    return evidenceText(this.source.slice(span.start, Math.min(span.end, span.start + EVIDENCE_SOURCE_MAX)));
  }
}
