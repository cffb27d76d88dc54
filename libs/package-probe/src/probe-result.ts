/** What one probe of one package found: the certifier records it and turns it into findings. */
import type { Registry } from './registry-client';

/**
 * - `found`: the exact version is published and installable.
 * - `not_found`: the package, or that version of it, does not exist (or the name cannot be one).
 * - `unpublished`: the package (or version) was published once and removed by its owner.
 * - `security_placeholder`: npm replaced the package with `0.0.1-security` (removed as malware).
 * - `yanked`: the PyPI release is yanked.
 * - `no_exact_version`: the package exists but the skill pins no exact version.
 * - `wrong_registry`: not on the registry the skill names, but on the other one.
 * - `inconclusive`: no definite answer (timeouts, 429, 5xx, malformed answers); never a pass:
 *   the version stays uncertified and is probed again later.
 */
export type ProbeOutcome =
  | 'found'
  | 'not_found'
  | 'unpublished'
  | 'security_placeholder'
  | 'yanked'
  | 'no_exact_version'
  | 'wrong_registry'
  | 'inconclusive';

export interface ProbeResult {
  registry: Registry;
  /** The name as probed: npm's as written, PyPI's normalized per PEP 503. */
  name: string;
  /**
   * The version the skill names, as written (`no_exact_version` when it is not exact), or null; for
   * an npm package named with no version, the latest release the hub pinned (`pinnedByHub`).
   */
  version: string | null;
  /** The skill named no version and the hub pinned `version`, the registry's latest, at certification. */
  pinnedByHub: boolean;
  outcome: ProbeOutcome;
  /** The registry's deprecation message for the release (npm `deprecated`, PyPI "Inactive" classifier). */
  deprecated: string | null;
  /** npm `dist.integrity`, or the PyPI sdist's (else first wheel's) digest as `sha256-<hex>`; only for `found`. */
  integrity: string | null;
  /**
   * Where the release says it comes from (C9): its first repository link, normalised, and the
   * predicate type of the provenance attestation the registry lists; both null unless `found`.
   * Evidence only: a skill's author cannot change a third-party package.
   */
  provenance: { repository: string | null; attestation: string | null };
  /** HTTP requests sent for this probe, retries and redirects included; 0 when answered from the cache. */
  attempts: number;
  /** What was found, naming the package and the URL that told. */
  detail: string;
  /** What the skill's author should change; empty when nothing. */
  fixHint: string;
}
