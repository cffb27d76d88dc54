/**
 * Collects what an analyser proves about one file: capabilities capped per kind, issues without
 * repeats, both located and with evidence as written. The shell and JavaScript analysers share it
 * (JavaScript merges what the constant shell command lines it finds do).
 */
import {
  MAX_USES_PER_CAPABILITY,
  type CapabilityKind,
  type CapabilityUse,
  type CodeIssue,
  type IssueKind,
  type ShellCommandAnalysis,
} from './analysis.types';
import { evidenceText } from './evidence';

/** Issues listed per kind and file: ten proofs of the same shape tell a reviewer all there is to know. */
const MAX_ISSUES_PER_KIND = 10;

/** Source read to make an evidence string (a minified bundle's one call can be a megabyte long). */
const EVIDENCE_SOURCE_MAX = 1_000;

const shownEvidence = (source: string): string => evidenceText(source.slice(0, EVIDENCE_SOURCE_MAX));

export class Findings {
  private readonly capabilities: CapabilityUse[] = [];
  private readonly issues: CodeIssue[] = [];
  private readonly capabilityCounts = new Map<CapabilityKind, number>();
  private readonly issueCounts = new Map<IssueKind, number>();
  private readonly seen = new Set<string>();

  constructor(private readonly file: string) {}

  /** Records a use; beyond MAX_USES_PER_CAPABILITY per kind the use is known (`has`) but not listed. */
  capability(capability: CapabilityKind, line: number, evidence: string): void {
    const count = this.capabilityCounts.get(capability) ?? 0;
    if (count >= MAX_USES_PER_CAPABILITY) return;
    const shown = shownEvidence(evidence);
    const key = `c\0${capability}\0${line}\0${shown}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.capabilityCounts.set(capability, count + 1);
    this.capabilities.push({ capability, file: this.file, line, evidence: shown });
  }

  issue(kind: IssueKind, line: number | null, message: string, evidence: string): void {
    const count = this.issueCounts.get(kind) ?? 0;
    if (count >= MAX_ISSUES_PER_KIND) return;
    const shown = shownEvidence(evidence);
    const key = `i\0${kind}\0${line}\0${message}\0${shown}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.issueCounts.set(kind, count + 1);
    this.issues.push({ kind, file: this.file, line, message, evidence: shown });
  }

  /** Adds what another analysis (a constant shell command line) found; its locations are kept. */
  merge(analysis: ShellCommandAnalysis): void {
    for (const use of analysis.capabilities) this.capability(use.capability, use.line, use.evidence);
    for (const issue of analysis.issues) this.issue(issue.kind, issue.line, issue.message, issue.evidence);
  }

  hasCapability(capability: CapabilityKind): boolean {
    return this.capabilityCounts.has(capability);
  }

  hasIssue(kind: IssueKind): boolean {
    return this.issueCounts.has(kind);
  }

  /** The first recorded use of a capability, to point at in a message that combines two facts. */
  firstUse(capability: CapabilityKind): CapabilityUse | undefined {
    return this.capabilities.find((use) => use.capability === capability);
  }

  result(): ShellCommandAnalysis {
    const byLine = <T extends { line: number | null }>(a: T, b: T): number => (a.line ?? 0) - (b.line ?? 0);
    return { capabilities: [...this.capabilities].sort(byLine), issues: [...this.issues].sort(byLine) };
  }
}
