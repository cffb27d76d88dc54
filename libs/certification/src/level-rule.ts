/**
 * The level rule (also served as LEVEL_RULE; a spec keeps the two texts equal):
 *
 * Hub certification levels. The principle: certify only what can be proven. Everything that can
 * run or be read by a model is parsed; what cannot be analysed is unverified, never clean.
 *
 * Status. A version with a failing check (a critical or high finding: a finding proves harm or
 * breaks a rule the author can fix, or a check could not complete) is failed, level none. Else,
 * when a registry gave no definite answer or only a manifest was submitted (no bundle), it is
 * inconclusive, level none. Else it is certified at the level below, or failed when it reaches
 * none. A certificate is dated when the verdict is recorded and expires
 * CERTIFICATE_LIFETIME_DAYS later.
 *
 * basic: nothing harmful was found, but something that runs could not be fully verified (an
 * unpinned or unverifiable server, a server without live tool pins, an undeclared capability) or
 * a dangerous capability (running programs) is declared and used. Requires manifest_valid,
 * paths_safe, namespace_owned, packages_exist, no_hidden_text, no_critical_vulnerabilities,
 * security_lint_pass and entry_point_exists; for Kazma skills also license_present (Kazma's
 * loader requires a license; SwarmKit and Agent Skills have no such rule); and a Kazma score of
 * at least 80.
 *
 * standard: everything that runs was verified. basic, and description_complete,
 * packages_pinned, code_analysed (every file parsed), capabilities_declared,
 * no_dangerous_capabilities, launch_specs_pinned (every server pinned by integrity, or a file of
 * the bundle), live_tools_recorded (every server's live tools hashed in the sandbox) and
 * no_review_findings; for Kazma skills with code also checksum_valid and signature_valid (a
 * Kazma skill of instructions alone has nothing to checksum); a Kazma score of at least 90; and
 * no finding of medium severity or above.
 *
 * Requirements. One whose check was skipped or could not complete is unmet.
 * - entry_point_exists: a Kazma skill's declared entry_point names a file of the bundle; one
 *   that declares none meets it, as in Kazma, but is unsigned (nothing to checksum), so it
 *   reaches basic at most. SwarmKit skills and Agent Skills have no entry point: the manifest an
 *   agent loads stands in for it.
 * - checksum_valid, signature_valid: Kazma v1 signing (C3, C4). SwarmKit and Agent Skills have no
 *   such fields: their integrity and origin are every file's SHA-256 (C5) and the authenticated
 *   namespace owner (C7), both bound into the hub certificate.
 * - license_present: a license in the manifest, or a LICENSE or COPYING file at the bundle's root.
 * - security_lint_pass: a Kazma score of at least 80 and no critical or high C11 finding.
 * - no_critical_vulnerabilities: a Kazma score of at least 50, no critical finding anywhere, and
 *   the code was analysed.
 * - code_analysed, capabilities_declared, no_dangerous_capabilities: C11, from a parse of every
 *   code file; capabilities are process_exec, network_outbound, network_inbound, env_read,
 *   file_read and file_write, each proven by a file and line.
 * - launch_specs_pinned: C15; live_tools_recorded: C13. A remote server can be certified, but
 *   only at basic: the hub can pin neither its code nor its tools.
 */
import type { CertificateLevel } from '@skillhub/signing';
import type { SkillFormat } from '@skillhub/skill-formats';
import { isMediumOrWorse, type Finding } from './finding';
import { SCORE_FOR_BASIC, SCORE_FOR_STANDARD } from './kazma-score';
import type { CertificationStatus, RequirementName } from './report';

export const LEVEL_RULE = `Hub certification levels. The principle: certify only what can be proven. Everything that can
run or be read by a model is parsed; what cannot be analysed is unverified, never clean.

Status. A version with a failing check (a critical or high finding: a finding proves harm or
breaks a rule the author can fix, or a check could not complete) is failed, level none. Else,
when a registry gave no definite answer or only a manifest was submitted (no bundle), it is
inconclusive, level none. Else it is certified at the level below, or failed when it reaches
none. A certificate is dated when the verdict is recorded and expires
CERTIFICATE_LIFETIME_DAYS later.

basic: nothing harmful was found, but something that runs could not be fully verified (an
unpinned or unverifiable server, a server without live tool pins, an undeclared capability) or
a dangerous capability (running programs) is declared and used. Requires manifest_valid,
paths_safe, namespace_owned, packages_exist, no_hidden_text, no_critical_vulnerabilities,
security_lint_pass and entry_point_exists; for Kazma skills also license_present (Kazma's
loader requires a license; SwarmKit and Agent Skills have no such rule); and a Kazma score of
at least 80.

standard: everything that runs was verified. basic, and description_complete,
packages_pinned, code_analysed (every file parsed), capabilities_declared,
no_dangerous_capabilities, launch_specs_pinned (every server pinned by integrity, or a file of
the bundle), live_tools_recorded (every server's live tools hashed in the sandbox) and
no_review_findings; for Kazma skills with code also checksum_valid and signature_valid (a
Kazma skill of instructions alone has nothing to checksum); a Kazma score of at least 90; and
no finding of medium severity or above.

Requirements. One whose check was skipped or could not complete is unmet.
- entry_point_exists: a Kazma skill's declared entry_point names a file of the bundle; one
  that declares none meets it, as in Kazma, but is unsigned (nothing to checksum), so it
  reaches basic at most. SwarmKit skills and Agent Skills have no entry point: the manifest an
  agent loads stands in for it.
- checksum_valid, signature_valid: Kazma v1 signing (C3, C4). SwarmKit and Agent Skills have no
  such fields: their integrity and origin are every file's SHA-256 (C5) and the authenticated
  namespace owner (C7), both bound into the hub certificate.
- license_present: a license in the manifest, or a LICENSE or COPYING file at the bundle's root.
- security_lint_pass: a Kazma score of at least 80 and no critical or high C11 finding.
- no_critical_vulnerabilities: a Kazma score of at least 50, no critical finding anywhere, and
  the code was analysed.
- code_analysed, capabilities_declared, no_dangerous_capabilities: C11, from a parse of every
  code file; capabilities are process_exec, network_outbound, network_inbound, env_read,
  file_read and file_write, each proven by a file and line.
- launch_specs_pinned: C15; live_tools_recorded: C13. A remote server can be certified, but
  only at basic: the hub can pin neither its code nor its tools.`;

export const BASIC_REQUIREMENTS: readonly RequirementName[] = [
  'manifest_valid',
  'paths_safe',
  'namespace_owned',
  'packages_exist',
  'no_hidden_text',
  'no_critical_vulnerabilities',
  'security_lint_pass',
  'entry_point_exists',
];

export const STANDARD_REQUIREMENTS: readonly RequirementName[] = [
  ...BASIC_REQUIREMENTS,
  'description_complete',
  'packages_pinned',
  'code_analysed',
  'capabilities_declared',
  'no_dangerous_capabilities',
  'launch_specs_pinned',
  'live_tools_recorded',
  'no_review_findings',
];

/** Asked only of Kazma skills: Kazma's loader requires a license, and only its format can carry a signature. */
export const KAZMA_BASIC_REQUIREMENTS: readonly RequirementName[] = ['license_present'];
export const KAZMA_SIGNING_REQUIREMENTS: readonly RequirementName[] = ['checksum_valid', 'signature_valid'];

export interface LevelFacts {
  requirements: Readonly<Record<RequirementName, boolean>>;
  score: number;
  /** Null when the manifest did not parse: treated as Kazma, the format asked the most. */
  format: SkillFormat | null;
  findings: readonly Finding[];
  /** The bundle holds code (or names an entry point): Kazma's signature is what binds it to its publisher. */
  hasCode: boolean;
}

export function decideLevel({ requirements, score, format, findings, hasCode }: LevelFacts): CertificateLevel {
  const met = (names: readonly RequirementName[]): boolean => names.every((name) => requirements[name]);
  const kazma = format === null || format === 'kazma';
  if (!met(BASIC_REQUIREMENTS) || (kazma && !met(KAZMA_BASIC_REQUIREMENTS)) || score < SCORE_FOR_BASIC) return 'none';
  const signing = kazma && hasCode ? KAZMA_SIGNING_REQUIREMENTS : [];
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
