/** Everything the certifier needs, gathered by the worker (bundle read, packages probed) beforehand. */
import type { Problem } from '@skillhub/errors';
import type { Bundle } from '@skillhub/bundle';
import type { CodeAnalyzer } from '@skillhub/code-analysis';
import type { TrustedKey } from '@skillhub/signing';
import type { NormalizedSkill, ParseResult } from '@skillhub/skill-formats';
// Not the `@skillhub/package-probe` barrel: that one pulls in the HTTP prober, which a pure lib
// may not depend on; this file holds only the types of a probe's answer (see .dependency-cruiser.js).
import type { ProbeOutcome, ProbeResult } from '../../package-probe/src/probe-result';
import type { DetonationResult } from './detonation-result';
import type { LiveServerProbe } from './live-server';

export type { ProbeOutcome, ProbeResult };

export interface PopularName {
  /** `author/name` of a popular skill, or a package name (`@scope/name`). */
  ref: string;
  /** Its owner's namespace. */
  owner: string;
}

/** A namespace's publisher key; `registeredAt` on the database's clock, as `publishedAt` is. */
export interface RegisteredKey extends TrustedKey {
  registeredAt?: Date;
}

export interface CertificationInput {
  bundle: Bundle;
  /** Null when parsing failed. */
  skill: NormalizedSkill | null;
  /** Everything `parseSkill` reported, errors and warnings. */
  parseProblems: Problem[];
  namespace: {
    /** The namespace the version is published under. */
    slug: string;
    /** The publisher owns that namespace (C7). */
    ownerMatches: boolean;
  };
  /** Plaintext Kazma secrets to verify a signature with: the namespace's registered one and the hub's own. */
  kazmaSecrets: string[];
  /** The Ed25519 keys the namespace registered for publisher signatures (C14); a registered key makes them required. */
  publisherKeys: RegisteredKey[];
  /**
   * When the version was published: C14 requires a signature only when a key was active then
   * (a key registered later does not fail versions published before it, when they are judged again).
   */
  publishedAt: Date;
  /** One per package of `skill.mcpServers[].packages`, in that order. */
  probes: ProbeResult[];
  /** What each of the skill's MCP servers listed when started in the sandbox (C13), one per server probed. */
  liveServers: LiveServerProbe[];
  /** Non-public `address:port` destinations the operator lets remote servers use (see `readLaunchSpecs`). */
  internalAddresses?: readonly string[];
  /** Parses the bundle's code (C11); load it once per process with `loadCodeAnalyzer()`. */
  analyzer: CodeAnalyzer;
  /** For C10 squatting. */
  popularNames: PopularName[];
  policyVersion: number;
  /** When the judgment is made (which publisher keys are active); the certificate is dated by `record()`. */
  now: Date;
  /**
   * A quarantined `kazma hub submit`: only the manifest is known. Checks that need files are
   * skipped and the result is never certified.
   */
  manifestOnly?: true;
  /** What the skill did when run in the sandbox with honeytokens (C16); absent: not detonated. */
  detonation?: DetonationResult;
}

/**
 * What the certifier is told beside a bundle and its parse. Lists left out are empty: nothing
 * was probed or started, the namespace registered no secret or key, no name is popular.
 */
export interface CertificationContext {
  namespace: CertificationInput['namespace'];
  analyzer: CodeAnalyzer;
  policyVersion: number;
  now: Date;
  /** Defaults to `now`: a version judged as it is published. */
  publishedAt?: Date;
  kazmaSecrets?: string[];
  publisherKeys?: RegisteredKey[];
  probes?: ProbeResult[];
  liveServers?: LiveServerProbe[];
  popularNames?: PopularName[];
  manifestOnly?: true;
  detonation?: DetonationResult;
}

/**
 * The one way a CertificationInput is made, by the hub's judge, the CLI's local check and the
 * test fixtures alike, so a field added to the input is given (or defaulted) in one place.
 */
export function certificationInputFor(
  bundle: Bundle,
  parsed: ParseResult,
  context: CertificationContext,
): CertificationInput {
  return {
    bundle,
    skill: parsed.skill,
    parseProblems: parsed.problems,
    namespace: context.namespace,
    kazmaSecrets: context.kazmaSecrets ?? [],
    publisherKeys: context.publisherKeys ?? [],
    publishedAt: context.publishedAt ?? context.now,
    probes: context.probes ?? [],
    liveServers: context.liveServers ?? [],
    analyzer: context.analyzer,
    popularNames: context.popularNames ?? [],
    policyVersion: context.policyVersion,
    now: context.now,
    ...(context.manifestOnly ? { manifestOnly: true as const } : {}),
    ...(context.detonation ? { detonation: context.detonation } : {}),
  };
}
