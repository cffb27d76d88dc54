/**
 * The level rule (also served as LEVEL_RULE; a spec keeps the two texts equal):
 *
 * Hub certification levels. At least as strict as Kazma's `hub check-certification`, whose
 * basic is "3 of its 6 requirements and score >= 80" and standard "all 6 and score >= 90".
 *
 * Status. A version with a failing check (a critical or high finding, or a check that could not
 * complete) is failed, level none. Else, when a registry gave no definite answer or only a
 * manifest was submitted (no bundle), it is inconclusive, level none. Else it is certified at
 * the level below, or failed when it reaches none. A certificate is issued at `now` and expires
 * `certificateLifetimeDays` later.
 *
 * basic: manifest_valid, paths_safe, namespace_owned, packages_exist, no_hidden_text,
 * no_critical_vulnerabilities, security_lint_pass, license_present and entry_point_exists all
 * met, and a Kazma score of at least 80.
 *
 * standard: basic, and description_complete, packages_pinned, packages_point_back and
 * no_review_findings met; for Kazma skills also checksum_valid and signature_valid; a Kazma
 * score of at least 90; and no finding of medium severity or above.
 *
 * Requirements. One whose check was skipped or could not complete is unmet.
 * - entry_point_exists: a Kazma skill's declared entry_point names a file of the bundle; one
 *   that declares none meets it, as in Kazma, but is unsigned (nothing to checksum), so it
 *   reaches basic at most. SwarmKit skills and Agent Skills have no entry point: the manifest an
 *   agent loads stands in for it, so the requirement holds when that file is in the bundle.
 * - checksum_valid, signature_valid: Kazma v1 signing; the checksum matches the entry point (C3)
 *   and the HMAC verifies with the namespace's registered secret or the hub's (C4). SwarmKit and
 *   Agent Skills have no such fields, so both are reported unmet, and standard does not ask them
 *   of these formats: their integrity and origin come from the hub, as every file's SHA-256 (C5)
 *   and the authenticated namespace owner (C7), both bound into the hub certificate, which is the
 *   only signature these formats can carry.
 * - license_present: a license in the manifest, or a LICENSE or COPYING file at the bundle's
 *   root (SwarmKit has no license field).
 * - security_lint_pass: a Kazma score of at least 80 and no critical or high C11 finding.
 * - no_critical_vulnerabilities: a Kazma score of at least 50, no critical finding anywhere, and
 *   the code was scanned.
 */
import type { CertificateLevel } from '@skillhub/signing';
import type { SkillFormat } from '@skillhub/skill-formats';
import { isMediumOrWorse, type Finding } from './finding';
import { SCORE_FOR_BASIC, SCORE_FOR_STANDARD } from './kazma-score';
import type { CertificationStatus, RequirementName } from './report';

export const LEVEL_RULE = `Hub certification levels. At least as strict as Kazma's \`hub check-certification\`, whose
basic is "3 of its 6 requirements and score >= 80" and standard "all 6 and score >= 90".

Status. A version with a failing check (a critical or high finding, or a check that could not
complete) is failed, level none. Else, when a registry gave no definite answer or only a
manifest was submitted (no bundle), it is inconclusive, level none. Else it is certified at
the level below, or failed when it reaches none. A certificate is issued at \`now\` and expires
\`certificateLifetimeDays\` later.

basic: manifest_valid, paths_safe, namespace_owned, packages_exist, no_hidden_text,
no_critical_vulnerabilities, security_lint_pass, license_present and entry_point_exists all
met, and a Kazma score of at least 80.

standard: basic, and description_complete, packages_pinned, packages_point_back and
no_review_findings met; for Kazma skills also checksum_valid and signature_valid; a Kazma
score of at least 90; and no finding of medium severity or above.

Requirements. One whose check was skipped or could not complete is unmet.
- entry_point_exists: a Kazma skill's declared entry_point names a file of the bundle; one
  that declares none meets it, as in Kazma, but is unsigned (nothing to checksum), so it
  reaches basic at most. SwarmKit skills and Agent Skills have no entry point: the manifest an
  agent loads stands in for it, so the requirement holds when that file is in the bundle.
- checksum_valid, signature_valid: Kazma v1 signing; the checksum matches the entry point (C3)
  and the HMAC verifies with the namespace's registered secret or the hub's (C4). SwarmKit and
  Agent Skills have no such fields, so both are reported unmet, and standard does not ask them
  of these formats: their integrity and origin come from the hub, as every file's SHA-256 (C5)
  and the authenticated namespace owner (C7), both bound into the hub certificate, which is the
  only signature these formats can carry.
- license_present: a license in the manifest, or a LICENSE or COPYING file at the bundle's
  root (SwarmKit has no license field).
- security_lint_pass: a Kazma score of at least 80 and no critical or high C11 finding.
- no_critical_vulnerabilities: a Kazma score of at least 50, no critical finding anywhere, and
  the code was scanned.`;

export const BASIC_REQUIREMENTS: readonly RequirementName[] = [
  'manifest_valid',
  'paths_safe',
  'namespace_owned',
  'packages_exist',
  'no_hidden_text',
  'no_critical_vulnerabilities',
  'security_lint_pass',
  'license_present',
  'entry_point_exists',
];

export const STANDARD_REQUIREMENTS: readonly RequirementName[] = [
  ...BASIC_REQUIREMENTS,
  'description_complete',
  'packages_pinned',
  'packages_point_back',
  'no_review_findings',
];

/** Asked at standard only of the format that can carry them. */
export const KAZMA_SIGNING_REQUIREMENTS: readonly RequirementName[] = ['checksum_valid', 'signature_valid'];

export interface LevelFacts {
  requirements: Readonly<Record<RequirementName, boolean>>;
  score: number;
  /** Null when the manifest did not parse: treated as Kazma, the format asked the most. */
  format: SkillFormat | null;
  findings: readonly Finding[];
}

export function decideLevel({ requirements, score, format, findings }: LevelFacts): CertificateLevel {
  const met = (names: readonly RequirementName[]): boolean => names.every((name) => requirements[name]);
  if (!met(BASIC_REQUIREMENTS) || score < SCORE_FOR_BASIC) return 'none';
  const signing = format !== null && format !== 'kazma' ? [] : KAZMA_SIGNING_REQUIREMENTS;
  const standard =
    met(STANDARD_REQUIREMENTS) && met(signing) && score >= SCORE_FOR_STANDARD && !findings.some(isMediumOrWorse);
  return standard ? 'standard' : 'basic';
}

export interface StatusFacts {
  /** A check failed or could not complete. */
  failed: boolean;
  /** A registry gave no definite answer, or only a manifest was submitted. */
  undecided: boolean;
  level: CertificateLevel;
}

export function decideStatus({ failed, undecided, level }: StatusFacts): CertificationStatus {
  if (failed) return 'failed';
  if (undecided) return 'inconclusive';
  return level === 'none' ? 'failed' : 'certified';
}
