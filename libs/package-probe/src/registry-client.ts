/**
 * What the prober needs from a registry, in terms npm and PyPI share. Each client knows its
 * registry's names, URLs and documents; the lookup flow and the findings are written once.
 */
import type { PackageRef } from '@skillhub/skill-formats';

export type Registry = PackageRef['registry'];

/** What a registry says about one release. */
export interface ReleaseFacts {
  version: string;
  /** Set when the registry says the release must not be installed. */
  withdrawn: { outcome: 'yanked' | 'security_placeholder'; reason: string } | null;
  deprecated: string | null;
  /** npm `dist.integrity` (SRI), or a PyPI file's digest as `sha256-<hex>`. */
  integrity: string | null;
  /** Source repository links, as written by the package, the likeliest source first. */
  repositoryUrls: string[];
  /**
   * The predicate type of the provenance attestation the registry lists for the release
   * (`https://slsa.dev/provenance/v1`), or null. Listed, not verified: nothing here checks its signature.
   */
  attestation: string | null;
}

/** What a registry says about a package as a whole. */
export interface PackageFacts {
  /** Set when the whole package was unpublished (npm keeps answering 200 with `time.unpublished`). */
  unpublished: { at: string | null } | null;
  latest: ReleaseFacts | null;
  /** Versions the registry published once and has removed since. */
  removedVersions: ReadonlySet<string>;
}

export interface RegistryClient {
  readonly registry: Registry;
  /** The registry's name as a sentence spells it. */
  readonly label: string;
  /** The label with its article: `an npm`, `a PyPI`. */
  readonly aLabel: string;
  /** The name as the registry indexes it, or null when it cannot be a name there. */
  canonicalName(name: string): string | null;
  /** True for a version that names exactly one release (not a range, a tag or `latest`). */
  isExactVersion(version: string): boolean;
  packageUrl(name: string): string;
  releaseUrl(name: string, version: string): string;
  /** Null when the document does not have the registry's shape. */
  readPackage(document: unknown): PackageFacts | null;
  readRelease(document: unknown): ReleaseFacts | null;
  /** How a reader writes one release: `name@1.2.3`, `name==1.2.3`. */
  spec(name: string, version: string): string;
  /** The command that runs the package, as a skill would write it. */
  runCommand(name: string, version: string | null): string;
}
