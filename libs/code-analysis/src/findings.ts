/**
 * Collects what an analyser proves about one file, whatever its language: capabilities and issues,
 * each with its line and the code that proves it, listed without repeats and capped, and the one
 * fact every language combines the same way (credentials or the whole environment read, and the
 * network used, in one file is exfiltration). What the constant shell command lines of a Python
 * or JavaScript file do is merged in with its own locations.
 */
import {
  MAX_ISSUES_PER_FILE,
  MAX_USES_PER_CAPABILITY,
  type CapabilityKind,
  type CapabilityUse,
  type CodeIssue,
  type IssueKind,
  type ShellCommandAnalysis,
} from './analysis.types';
import { evidenceText } from './evidence';

/** Longest source read to make an evidence string (a minified bundle's one call can be a megabyte long). */
const EVIDENCE_SOURCE_MAX = 1_000;

/**
 * Where the proof of a finding is in the source the collector was given, as offsets: the syntax
 * tree can be freed before the report is written, and evidence is cut out only for what is listed.
 */
export interface SourceSpan {
  start: number;
  end: number;
}

/** The code that proves a finding: a span of the file's source, or the text itself (code nested in a string). */
export type Proof = SourceSpan | string;

/** Where a finding's proof is (a text proof after every span on its line), and when it was recorded. */
interface Place {
  /** The line, 0 for an issue about the whole file. */
  line: number;
  start: number;
  end: number;
  /** Evidence already shown (a text proof), or null for a span. */
  text: string | null;
  order: number;
}

/** Issues by line, as they were found: the first found on a line says what the line does. */
const byLine = (a: Place, b: Place): number => a.line - b.line || a.order - b.order;

/**
 * Uses by line and, on a line, the preferred proof first: spans of the file's own code, the one
 * that starts first and reaches widest (the call before the shell command inside it), then texts
 * as they were recorded.
 */
const byProof = (a: Place, b: Place): number =>
  a.line - b.line || a.start - b.start || b.end - a.end || a.order - b.order;

interface Use {
  capability: CapabilityKind;
  at: Place;
}

interface Issue {
  kind: IssueKind;
  line: number | null;
  message: string;
  at: Place;
}

export class Findings {
  /** The preferred proof of each capability on each line. */
  private readonly uses = new Map<string, Use>();
  /** The first issue of each kind on each line. */
  private readonly issues = new Map<string, Issue>();
  private environmentRead: Place | null = null;
  private recorded = 0;

  constructor(
    private readonly file: string,
    /** The file's source, which span proofs point into. */
    private readonly source = '',
  ) {}

  /** Records a use: one a line is kept, and the first MAX_USES_PER_CAPABILITY lines of each capability are listed. */
  capability(capability: CapabilityKind, line: number, proof: Proof): void {
    const key = `${capability}\0${line}`;
    const at = this.place(line, proof);
    const kept = this.uses.get(key);
    if (!kept || byProof(at, kept.at) < 0) this.uses.set(key, { capability, at });
  }

  /** Records an issue (`line` null: about the whole file); the first MAX_ISSUES_PER_FILE by line are listed. */
  issue(kind: IssueKind, line: number | null, message: string, proof: Proof): void {
    const key = `${kind}\0${line}`;
    if (!this.issues.has(key)) this.issues.set(key, { kind, line, message, at: this.place(line ?? 0, proof) });
  }

  /** The whole environment is read (dumped, copied out, iterated, serialised). */
  wholeEnvironmentRead(line: number, proof: Proof): void {
    const at = this.place(line, proof);
    if (!this.environmentRead || byProof(at, this.environmentRead) < 0) this.environmentRead = at;
  }

  /** Adds what another analysis (a constant shell command line) found; its locations are kept. */
  merge(analysis: ShellCommandAnalysis): void {
    for (const use of analysis.capabilities) this.capability(use.capability, use.line, use.evidence);
    for (const issue of analysis.issues) this.issue(issue.kind, issue.line, issue.message, issue.evidence);
  }

  result(): ShellCommandAnalysis {
    this.exfiltration();
    const uses = firstOfEach([...this.uses.values()], MAX_USES_PER_CAPABILITY);
    const issues = [...this.issues.values()].sort((a, b) => byLine(a.at, b.at)).slice(0, MAX_ISSUES_PER_FILE);
    return {
      ...(this.environmentRead ? { environmentRead: this.environmentRead.line } : {}),
      capabilities: uses.map(({ capability, at }): CapabilityUse => ({
        capability,
        file: this.file,
        line: at.line,
        evidence: this.evidence(at),
      })),
      issues: issues.map(({ kind, line, message, at }): CodeIssue => ({
        kind,
        file: this.file,
        line,
        message,
        evidence: this.evidence(at),
      })),
    };
  }

  /**
   * The file-level rule: credentials (a credentials-access issue) or the whole environment read, and
   * the network used, in the same file. Reported at the first network use, unless an exfiltration
   * shape is already reported.
   */
  private exfiltration(): void {
    const issues = [...this.issues.values()];
    if (issues.some((issue) => issue.kind === 'exfiltration')) return;
    const network = [...this.uses.values()]
      .filter((use) => use.capability === 'network' || use.capability === 'network_inbound')
      .map((use) => use.at)
      .sort(byProof)[0];
    const credentials = issues
      .filter((issue) => issue.kind === 'credentials-access')
      .map((issue) => issue.at)
      .sort(byLine)[0];
    const read = credentials ?? this.environmentRead;
    if (!network || !read) return;
    const what = credentials ? 'credentials' : 'the whole environment';
    const message = `Reads ${what} (line ${read.line}) and sends data over the network.`;
    this.issues.set(`exfiltration\0${network.line}`, {
      kind: 'exfiltration',
      line: network.line,
      message,
      at: network,
    });
  }

  private place(line: number, proof: Proof): Place {
    const order = this.recorded++;
    return typeof proof === 'string'
      ? { line, start: Number.MAX_SAFE_INTEGER, end: 0, text: evidenceText(proof.slice(0, EVIDENCE_SOURCE_MAX)), order }
      : { line, start: proof.start, end: proof.end, text: null, order };
  }

  private evidence(at: Place): string {
    if (at.text !== null) return at.text;
    if (at.start >= this.source.length) return '';
    return evidenceText(this.source.slice(at.start, Math.min(at.end, at.start + EVIDENCE_SOURCE_MAX)));
  }
}

/** The first `most` uses of each capability, all of them by line. */
function firstOfEach(uses: Use[], most: number): Use[] {
  const counts = new Map<CapabilityKind, number>();
  return uses
    .sort((a, b) => byProof(a.at, b.at))
    .filter(({ capability }) => {
      const count = counts.get(capability) ?? 0;
      counts.set(capability, count + 1);
      return count < most;
    });
}
