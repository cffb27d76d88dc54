/**
 * One explained observation of the certifier. Severity is also what a finding does to the level,
 * so a reader can tell from the severity alone why a skill got the level it got:
 * - critical / high: the check fails, and the skill is not certified at all;
 * - medium: blocks 'standard' (an unmet hub requirement, or something a reviewer must look at);
 * - low: advisory, blocks nothing;
 * - info: a record (a skipped check and its reason, a Kazma score deduction).
 */
import type { CheckId } from './check-id';

export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info';

export interface Finding {
  /** `<check>.<code>`, e.g. `C3.checksum-mismatch`; stable, clients may switch on it. */
  rule: string;
  check: CheckId;
  severity: Severity;
  /** Path inside the bundle, or null when the finding is not about one file. */
  file: string | null;
  /** 1-based line in `file`, or null. */
  line: number | null;
  message: string;
  /** What the publisher should change; never empty. */
  fixHint: string;
}

export interface FindingSpec {
  check: CheckId;
  /** The part of the rule id after the check, e.g. `checksum-mismatch`. */
  code: string;
  severity: Severity;
  file?: string | null;
  line?: number | null;
  message: string;
  fixHint: string;
}

/** The one way findings are made, so every rule id is spelled `<check>.<code>`. */
export function newFinding(spec: FindingSpec): Finding {
  return {
    rule: `${spec.check}.${spec.code}`,
    check: spec.check,
    severity: spec.severity,
    file: spec.file ?? null,
    line: spec.line ?? null,
    message: spec.message,
    fixHint: spec.fixHint,
  };
}

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };

/** critical and high findings fail their check. */
export const isFailing = (finding: Finding): boolean => SEVERITY_RANK[finding.severity] <= SEVERITY_RANK.high;

/** medium and above: nothing at or above it may remain at 'standard'. */
export const isMediumOrWorse = (finding: Finding): boolean => SEVERITY_RANK[finding.severity] <= SEVERITY_RANK.medium;

/** Check number (C2 before C10), severity (worst first), file, line, rule, then message: a total order. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    checkNumber(a.check) - checkNumber(b.check) ||
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    compareNullable(a.file, b.file, compareText) ||
    compareNullable(a.line, b.line, (x, y) => x - y) ||
    compareText(a.rule, b.rule) ||
    compareText(a.message, b.message)
  );
}

const checkNumber = (check: CheckId): number => Number(check.slice(1));

/** Byte order of UTF-8, the same on every machine (unlike `localeCompare`). */
const compareText = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/** Nulls (findings about no file or line) sort first. */
function compareNullable<T>(a: T | null, b: T | null, compare: (x: T, y: T) => number): number {
  if (a === null || b === null) return (a === null ? 0 : 1) - (b === null ? 0 : 1);
  return compare(a, b);
}
