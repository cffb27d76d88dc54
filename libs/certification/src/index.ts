export { certify } from './certify';
export { CERTIFICATION_POLICY_VERSION } from './policy-version';
export {
  certificationInputFor,
  type CertificationContext,
  type CertificationInput,
  type PopularName,
  type ProbeResult,
  type RegisteredKey,
} from './certification-input';
export { CERTIFICATION_INVALID_INPUT, InvalidCertificationInputError } from './certification.errors';
export { CHECK_IDS, type CheckId } from './check-id';
export type { Finding, Severity } from './finding';
export { KAZMA_PENALTIES, SCORE_FOR_BASIC, SCORE_FOR_NO_CRITICAL, SCORE_FOR_STANDARD } from './kazma-score';
export {
  BASIC_REQUIREMENTS,
  KAZMA_BASIC_REQUIREMENTS,
  KAZMA_SIGNING_REQUIREMENTS,
  LEVEL_RULE,
  STANDARD_REQUIREMENTS,
} from './level-rule';
export {
  DETONATION_EVENT_KINDS,
  type DetonationEvent,
  type DetonationEventKind,
  type DetonationNotRun,
  type DetonationOutput,
  type DetonationResult,
  type DetonationRun,
} from './detonation-result';
export { detonationFindings } from './checks/detonation.check';
export type { LiveProbeOutcome, LivePrompt, LiveResource, LiveServerProbe, LiveTool } from './live-server';
export {
  datedReport,
  REQUIREMENT_NAMES,
  type CertificationReport,
  type CertificationVerdict,
  type PackageProvenance,
  type ReportedCapability,
  type CertificationStatus,
  type CheckStatus,
  type ReportedFile,
  type RequirementName,
} from './report';
export { MAX_SCANNED_BYTES } from './scanned-text';
export {
  pinnedByHub,
  readLaunchSpecs,
  unsafeUrl,
  type LaunchSpec,
  type LaunchVerdictOf,
  type ServerLaunch,
} from './launch-spec';
