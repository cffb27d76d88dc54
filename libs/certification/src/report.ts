/** What `certify` returns: the verdict, every finding behind it, and the evidence a certificate pins. */
import type { CapabilityKind } from '@skillhub/code-analysis';
import type { CertificateLevel, CertifiedServer, PinnedPackage } from '@skillhub/signing';
import type { CheckId } from './check-id';
import type { DetonationResult } from './detonation-result';
import type { Finding } from './finding';

/** `warn`: only medium or low findings; `skipped`: did not apply (an info finding says why). */
export type CheckStatus = 'pass' | 'fail' | 'warn' | 'inconclusive' | 'skipped';

/** Kazma's six (`hub check-certification`) first, then the hub's own; every report lists all of them. */
export const REQUIREMENT_NAMES = [
  'manifest_valid',
  'security_lint_pass',
  'no_critical_vulnerabilities',
  'entry_point_exists',
  'description_complete',
  'license_present',
  'paths_safe',
  'checksum_valid',
  'signature_valid',
  'namespace_owned',
  'packages_exist',
  'packages_pinned',
  'code_analysed',
  'capabilities_declared',
  'no_dangerous_capabilities',
  'launch_specs_pinned',
  'live_tools_recorded',
  'no_hidden_text',
  'no_review_findings',
] as const;
export type RequirementName = (typeof REQUIREMENT_NAMES)[number];

export type CertificationStatus = 'certified' | 'failed' | 'inconclusive';

export interface ReportedFile {
  path: string;
  size: number;
  sha256: string;
}

/** One capability the code was proven to have (C11), with the lines that prove it. */
export interface ReportedCapability {
  capability: CapabilityKind;
  /** The permission that declares it (`process_exec`, `network_outbound`…). */
  permission: string;
  declared: boolean;
  /** The first uses, each with its file and line; `more` counts the rest. */
  uses: { file: string; line: number; evidence: string }[];
  more: number;
}

/** What is known about a package's origin (C9): shown as evidence, never a level. */
export interface PackageProvenance {
  registry: 'npm' | 'pypi';
  name: string;
  version: string;
  /** The source repository the package names, normalised to https, or null. */
  repository: string | null;
  /** The predicate type of the provenance attestation the registry lists for the release, or null. */
  attestation: string | null;
}

/** The undated verdict `certify` returns; `record()` dates it once (`datedReport`). */
export interface CertificationVerdict {
  /** `inconclusive`: nothing failed, but a registry gave no definite answer (or only a manifest was seen). */
  status: CertificationStatus;
  /** 'none' unless certified. */
  level: CertificateLevel;
  /** Kazma's readiness score, 0-100, every deduction explained by an info finding. */
  score: number;
  findings: Finding[];
  requirementsMet: Record<RequirementName, boolean>;
  checks: Record<CheckId, CheckStatus>;
  /** C5: every file of the bundle with its SHA-256. */
  files: ReportedFile[];
  /** C13: declared (native) tool name → `toolDefinitionHash` of its declared definition. */
  toolHashes: Record<string, string>;
  /** C11: every capability the code was proven to have, declared or not. */
  capabilities: ReportedCapability[];
  /** C15 and C13: the servers that may be started, exactly as certified, with their live tool pins. */
  servers: CertifiedServer[];
  /** C9: the origin of each probed package. */
  provenance: PackageProvenance[];
  /** C16: what ran in the sandbox with honeytokens, what it tried and what could not run; null when not detonated. */
  detonation: DetonationResult | null;
  /** C8: packages found at an exact version with their registry integrity. */
  pinnedPackages: PinnedPackage[];
  /** `manifestSha256()` of the parsed manifest (signature fields left out), null when it did not parse. */
  manifestSha256: string | null;
  /** SHA-256 of the entry-point file (Kazma), else null. */
  entryPointChecksum: string | null;
  policyVersion: number;
  /** SHA-256 of the canonical JSON of {status, level, findings, requirementsMet, checks}. */
  resultsSha256: string;
}

/** The verdict as stored: dated once, when it is recorded. */
export interface CertificationReport extends CertificationVerdict {
  /** ISO times, set only when certified. */
  issuedAt: string | null;
  expiresAt: string | null;
}

const DAY_MS = 86_400_000;

/** Dates a verdict at `issuedAt` (only a certified one gets dates). */
export function datedReport(verdict: CertificationVerdict, issuedAt: Date, lifetimeDays: number): CertificationReport {
  const certified = verdict.status === 'certified';
  return {
    ...verdict,
    issuedAt: certified ? issuedAt.toISOString() : null,
    expiresAt: certified ? new Date(issuedAt.getTime() + lifetimeDays * DAY_MS).toISOString() : null,
  };
}
