/**
 * What a check is and how one is run fail-closed: a check that throws becomes a critical
 * `<id>.check-error` finding and a failed check, and every requirement it decides is unmet.
 */
import type { PinnedPackage, ServerLock } from '@skillhub/signing';
import type { NormalizedSkill, SkillFormat } from '@skillhub/skill-formats';
import type { BundleCode } from './bundle-code';
import type { CertificationInput } from './certification-input';
import type { CheckId } from './check-id';
import type { DetonationResult } from './detonation-result';
import { isFailing, newFinding, type Finding } from './finding';
import type { ScoreDeduction } from './kazma-score';
import type { LaunchVerdictOf, ServerLaunch } from './launch-spec';
import type { CheckStatus, PackageProvenance, ReportedCapability, ReportedFile, RequirementName } from './report';

/** What checks establish besides findings; the report and the certificate carry it. */
export interface Evidence {
  format: SkillFormat | null;
  files: ReportedFile[];
  toolHashes: Record<string, string>;
  pinnedPackages: PinnedPackage[];
  manifestSha256: string | null;
  entryPointChecksum: string | null;
  capabilities: ReportedCapability[];
  /** C15: each server with the launch spec accepted for it (null: refused). */
  launches: ServerLaunch[];
  /** C13: server name → live tool name → definition hash, for the servers whose tools were listed. */
  liveTools: Record<string, Record<string, string>>;
  /** C13: server name → the wheels a listed PyPI server was installed from. */
  serverLocks: Record<string, ServerLock>;
  provenance: PackageProvenance[];
  /** C16: what the detonation ran and saw; null when the skill was not detonated. */
  detonation: DetonationResult | null;
}

export interface CheckOutcome {
  findings: Finding[];
  /** Values of the requirements in the check's `decides`; one left out counts as unmet. */
  requirements?: Partial<Record<RequirementName, boolean>>;
  deductions?: ScoreDeduction[];
  evidence?: Partial<Evidence>;
  /** No definite answer (a registry did not answer): the skill can be neither failed nor certified by it. */
  inconclusive?: boolean;
}

/** A check that does not apply says why; the reason becomes an info finding. */
export interface Skip {
  skip: string;
  fixHint: string;
}

/** What a check reads: the worker's input and what certify() derived from it once for every check. */
export interface CheckInput extends CertificationInput {
  code: BundleCode;
  /** Each MCP server of the skill read as a launch spec (C15); [] without a parsed skill. */
  launches: LaunchVerdictOf[];
}

export interface Check {
  id: CheckId;
  /** The requirements this check decides: all unmet when it is skipped or throws. */
  decides: readonly RequirementName[];
  /** Whether it can say anything about a manifest alone (a quarantined Kazma submission). */
  appliesToManifestOnly: boolean;
  run(input: CheckInput): CheckOutcome | Skip;
}

export interface CheckRun {
  check: Check;
  state: 'ran' | 'skipped' | 'errored';
  outcome: CheckOutcome;
}

export const skip = (reason: string, fixHint: string): Skip => ({ skip: reason, fixHint });

export const isSkip = <T extends object>(value: T | Skip): value is Skip => 'skip' in value;

/** The skill, or the skip every check that needs a parsed manifest reports without one. */
export function parsedSkill(input: CertificationInput): NormalizedSkill | Skip {
  return (
    input.skill ??
    skip(
      'the manifest did not parse (see the C1 findings)',
      'Fix the C1 findings; this check runs once the manifest parses.',
    )
  );
}

const MANIFEST_ONLY = skip(
  'only the manifest was submitted (`kazma hub submit`), and this check needs the bundle’s files',
  "Publish the skill's bundle to a namespace you own; a manifest alone is never certified.",
);

const ERROR_TEXT_MAX = 300;

export function runCheck(check: Check, input: CheckInput): CheckRun {
  if (input.manifestOnly && !check.appliesToManifestOnly) return skipped(check, MANIFEST_ONLY);
  try {
    const result = check.run(input);
    return isSkip(result) ? skipped(check, result) : { check, state: 'ran', outcome: result };
  } catch (error) {
    const finding = newFinding({
      check: check.id,
      code: 'check-error',
      severity: 'critical',
      message: `The check could not complete (${describeError(error)}), so it cannot vouch for the skill.`,
      fixHint:
        'Nothing in this message proves the skill wrong; correct any malformed content the error names and publish again, or report it to the hub operators.',
    });
    return { check, state: 'errored', outcome: { findings: [finding] } };
  }
}

function skipped(check: Check, reason: Skip): CheckRun {
  const finding = newFinding({
    check: check.id,
    code: 'skipped',
    severity: 'info',
    message: `Skipped: ${reason.skip}.`,
    fixHint: reason.fixHint,
  });
  return { check, state: 'skipped', outcome: { findings: [finding] } };
}

export function checkStatus(run: CheckRun): CheckStatus {
  if (run.state === 'skipped') return 'skipped';
  const { findings, inconclusive } = run.outcome;
  if (run.state === 'errored' || findings.some(isFailing)) return 'fail';
  if (inconclusive) return 'inconclusive';
  return findings.some((finding) => finding.severity === 'medium' || finding.severity === 'low') ? 'warn' : 'pass';
}

/** Whatever was thrown (a hostile input may throw anything, even an object whose toString throws). */
function describeError(error: unknown): string {
  let text: string;
  try {
    text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    text = 'an error that cannot be printed';
  }
  return text.length > ERROR_TEXT_MAX ? `${text.slice(0, ERROR_TEXT_MAX)}…` : text;
}
