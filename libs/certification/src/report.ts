/** What `certify` returns: the verdict, every finding behind it, and the evidence a certificate pins. */
import type { CertificateLevel, PinnedPackage } from '@skillhub/signing';
import type { CheckId } from './check-id';
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
  'packages_point_back',
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

export interface CertificationReport {
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
  /** C13: tool name → `toolDefinitionHash` of its declared definition. */
  toolHashes: Record<string, string>;
  /** C8: packages found at an exact version with their registry integrity. */
  pinnedPackages: PinnedPackage[];
  /** `manifestSha256()` of the parsed manifest (signature fields left out), null when it did not parse. */
  manifestSha256: string | null;
  /** SHA-256 of the entry-point file (Kazma), else null. */
  entryPointChecksum: string | null;
  /** ISO times, set only when certified. */
  issuedAt: string | null;
  expiresAt: string | null;
  policyVersion: number;
  /** SHA-256 of the canonical JSON of {status, level, findings, requirementsMet, checks}. */
  resultsSha256: string;
}
