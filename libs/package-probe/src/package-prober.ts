/**
 * C8 and C9 for one package a skill names: is that exact version published on the registry the
 * skill says, and what does the registry say about where it comes from? Only the two configured
 * registry base URLs are ever contacted.
 */
import type { PackageRef } from '@skillhub/skill-formats';
import { EtagCache } from './etag-cache';
import { HostSemaphore } from './host-semaphore';
import { NpmRegistryClient } from './npm-registry.client';
import { PackageProbeConfigError } from './package-probe.errors';
import type { ProbeOutcome, ProbeResult } from './probe-result';
import { PypiRegistryClient } from './pypi-registry.client';
import { RegistryBase } from './registry-base';
import type { Registry, RegistryClient, ReleaseFacts } from './registry-client';
import { lookUp, type Lookup } from './registry-lookup';
import { normalizeRepositoryUrl } from './repository-url';
import { RetryingFetch, type RequestTrace } from './retrying-fetch';

export interface PackageProberOptions {
  npmBaseUrl?: string;
  pypiBaseUrl?: string;
  /** Per attempt, answer body included. */
  timeoutMs?: number;
  /** Tries per request, the first included. */
  maxAttempts?: number;
  /** Backoff before retry n (from 0) is uniform in [0, min(maxDelayMs, baseDelayMs · 2^n)). */
  baseDelayMs?: number;
  /** A longer `Retry-After` ends the retries: the package stays inconclusive. */
  maxDelayMs?: number;
  perHostConcurrency?: number;
  /** How long an answer is used without asking; after it, it is revalidated by ETag. 0 disables the cache. */
  cacheTtlMs?: number;
  cacheMaxEntries?: number;
  cacheMaxBytes?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Uniform in [0, 1), like Math.random. */
  random?: () => number;
}

type Settings = Required<Omit<PackageProberOptions, 'now' | 'sleep' | 'random'>>;

export const PACKAGE_PROBER_DEFAULTS: Readonly<Settings> = {
  npmBaseUrl: 'https://registry.npmjs.org',
  pypiBaseUrl: 'https://pypi.org',
  timeoutMs: 10_000,
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  perHostConcurrency: 4,
  cacheTtlMs: 5 * 60_000,
  cacheMaxEntries: 5_000,
  cacheMaxBytes: 64 * 1_048_576,
};

interface Finding {
  outcome: ProbeOutcome;
  /** The release the finding is about, for deprecation, integrity and provenance. */
  release: ReleaseFacts | null;
  detail: string;
  fixHint: string;
  /** The skill named no version, and the hub pinned this release (npm's latest) at certification. */
  pinnedByHub?: boolean;
}

/** Long or odd text from a manifest, quoted for a sentence. */
const quote = (text: string): string => JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);

export class PackageProber {
  private readonly clients: Readonly<Record<Registry, RegistryClient>>;
  private readonly http: RetryingFetch;

  constructor(options: PackageProberOptions = {}) {
    const settings = { ...PACKAGE_PROBER_DEFAULTS, ...withoutUndefined(options) };
    checkSettings(settings);
    const npmBase = new RegistryBase(settings.npmBaseUrl, 'npmBaseUrl');
    const pypiBase = new RegistryBase(settings.pypiBaseUrl, 'pypiBaseUrl');
    const now = options.now ?? Date.now;
    this.clients = { npm: new NpmRegistryClient(npmBase), pypi: new PypiRegistryClient(pypiBase) };
    this.http = new RetryingFetch({
      ...settings,
      bases: [npmBase, pypiBase],
      semaphore: new HostSemaphore(settings.perHostConcurrency),
      cache: new EtagCache({
        ttlMs: settings.cacheTtlMs,
        maxEntries: settings.cacheMaxEntries,
        maxBytes: settings.cacheMaxBytes,
        now,
      }),
      now,
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      random: options.random ?? Math.random,
    });
  }

  async probe(ref: PackageRef): Promise<ProbeResult> {
    const client = this.clients[ref.registry];
    const trace: RequestTrace = { attempts: 0 };
    const name = client.canonicalName(ref.name);
    const finding = name === null ? invalidName(client, ref.name) : await this.judge(client, name, ref, trace);
    const { outcome, release } = finding;
    // Integrity and provenance describe the release the skill would run: never a placeholder or a yanked one.
    const found = outcome === 'found' ? release : null;
    return {
      registry: ref.registry,
      name: name ?? ref.name,
      version: finding.pinnedByHub && found ? found.version : ref.version,
      pinnedByHub: finding.pinnedByHub === true && found !== null,
      outcome,
      deprecated: release?.deprecated ?? null,
      integrity: found?.integrity ?? null,
      provenance: { repository: firstRepository(found), attestation: found?.attestation ?? null },
      attempts: trace.attempts,
      detail: finding.detail,
      fixHint: finding.fixHint,
    };
  }

  private async judge(client: RegistryClient, name: string, ref: PackageRef, trace: RequestTrace): Promise<Finding> {
    const exact = ref.version !== null && client.isExactVersion(ref.version) ? ref.version : null;
    const lookup = await lookUp(client, this.http, name, exact, trace);
    const what = exact === null ? name : client.spec(name, exact);
    const { label } = client;
    switch (lookup.kind) {
      case 'release':
        return withdrawnOrFound(client, name, what, lookup.release, lookup.url);
      case 'package': {
        if (lookup.latest?.withdrawn) return withdrawnOrFound(client, name, what, lookup.latest, lookup.url);
        // `npx -y pkg` runs npm's latest release: the certificate is the lock, pinning that one by its integrity.
        if (client.registry === 'npm' && ref.version === null && lookup.latest?.integrity) {
          const release = lookup.latest;
          return {
            outcome: 'found',
            release,
            pinnedByHub: true,
            detail: `${label} package ${name} is named with no version (in ${quote(ref.source)}); the hub pinned its latest release, ${client.spec(name, release.version)}, at certification, and the runtime runs only that one — ${lookup.url}`,
            fixHint: '',
          };
        }
        const pinned =
          ref.version === null ? 'the skill pins no version' : `${quote(ref.version)} is not an exact version`;
        const latest = lookup.latest?.version ?? null;
        return {
          outcome: 'no_exact_version',
          release: lookup.latest,
          detail: `${label} package ${name} exists, but ${pinned} (in ${quote(ref.source)}), so no exact release can be certified — ${lookup.url}`,
          fixHint:
            latest === null
              ? `Pin an exact version of ${name}.`
              : `Pin an exact version, e.g. \`${client.runCommand(name, latest)}\`.`,
        };
      }
      case 'missing_package':
        return this.missingPackage(client, name, lookup.url, trace);
      case 'missing_version':
        return {
          outcome: 'not_found',
          release: null,
          detail: `${label} package ${name} has no version ${exact}: ${lookup.url} answered 404${lookup.latestVersion ? `; its latest is ${lookup.latestVersion}` : ''}.`,
          fixHint: `Pin a published version${lookup.latestVersion ? `, e.g. \`${client.runCommand(name, lookup.latestVersion)}\`` : ''}.`,
        };
      case 'unpublished':
        return {
          outcome: 'unpublished',
          release: null,
          detail: `${label} package ${lookup.what === 'package' ? name : what} was unpublished by its owner${lookup.at ? ` on ${lookup.at}` : ''} — ${lookup.url}`,
          fixHint: `Use a ${lookup.what} that is still published: an unpublished name can be claimed by someone else.`,
        };
      case 'inconclusive':
        return inconclusive(client, what, lookup);
    }
  }

  /** Not on this registry: the SwarmKit mistake is naming a package of the other one (docs/kazma.md). */
  private async missingPackage(
    client: RegistryClient,
    name: string,
    url: string,
    trace: RequestTrace,
  ): Promise<Finding> {
    const other = this.clients[client.registry === 'npm' ? 'pypi' : 'npm'];
    const otherName = other.canonicalName(name);
    const there = otherName === null ? null : await lookUp(other, this.http, otherName, null, trace);
    if (otherName !== null && there?.kind === 'package') {
      const latest = there.latest?.withdrawn ? null : (there.latest?.version ?? null);
      return {
        outcome: 'wrong_registry',
        release: null,
        detail: `${name} is not on ${client.label} (${url} answered 404); it is ${other.aLabel} package (${there.url}) — use \`${other.runCommand(otherName, null)}\`.`,
        fixHint: `Run it from ${other.label}, pinned: \`${other.runCommand(otherName, latest ?? '<version>')}\`.`,
      };
    }
    return {
      outcome: 'not_found',
      release: null,
      detail: `${client.label} package ${name} does not exist: ${url} answered 404.`,
      fixHint: `Name a package that exists on ${client.label} (check its spelling and scope), or remove the server that runs it.`,
    };
  }
}

function withdrawnOrFound(
  client: RegistryClient,
  name: string,
  what: string,
  release: ReleaseFacts,
  url: string,
): Finding {
  const { label } = client;
  switch (release.withdrawn?.outcome) {
    case 'yanked':
      return {
        outcome: 'yanked',
        release,
        detail: `${label} release ${what} is yanked (${release.withdrawn.reason}) — ${url}`,
        fixHint: `Pin a release of ${name} that is not yanked.`,
      };
    case 'security_placeholder':
      return {
        outcome: 'security_placeholder',
        release,
        detail: `${label} package ${name} was taken down: ${release.withdrawn.reason} — ${url}`,
        fixHint: `Remove ${name}: the registry took it down, and any copy of it is suspect.`,
      };
    case undefined:
      return {
        outcome: 'found',
        release,
        detail: `${label} package ${what} is published${release.deprecated ? `, but deprecated: ${quote(release.deprecated)}` : ''} — ${url}`,
        fixHint: release.deprecated
          ? `Move to a release of ${name} that is not deprecated, or to its replacement.`
          : '',
      };
  }
}

function invalidName(client: RegistryClient, name: string): Finding {
  return {
    outcome: 'not_found',
    release: null,
    detail: `${quote(name)} cannot be ${client.aLabel} package name, so no registry was asked.`,
    fixHint: `Name the ${client.label} package exactly as the registry spells it.`,
  };
}

/** The first repository link that reads as a repository URL. */
function firstRepository(release: ReleaseFacts | null): string | null {
  for (const url of release?.repositoryUrls ?? []) {
    const repository = normalizeRepositoryUrl(url);
    if (repository !== null) return repository;
  }
  return null;
}

function inconclusive(
  client: RegistryClient,
  what: string,
  lookup: Extract<Lookup, { kind: 'inconclusive' }>,
): Finding {
  return {
    outcome: 'inconclusive',
    release: null,
    detail: `No definite answer from ${client.label} about ${what}: ${lookup.reason} — ${lookup.url}. It stays uncertified and is probed again later.`,
    fixHint: '',
  };
}

function withoutUndefined(options: PackageProberOptions): Partial<Settings> {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined && typeof value !== 'function'),
  );
}

/** Fails at construction, naming the option, rather than on the first probe. */
function checkSettings(settings: Settings): void {
  const rules: ReadonlyArray<
    [Exclude<keyof Settings, 'npmBaseUrl' | 'pypiBaseUrl'>, (value: number) => boolean, string]
  > = [
    ['timeoutMs', (value) => value > 0, 'a positive number'],
    ['maxAttempts', (value) => Number.isInteger(value) && value >= 1, 'an integer of at least 1'],
    ['baseDelayMs', (value) => value >= 0, 'a number of at least 0'],
    ['maxDelayMs', (value) => value >= 0, 'a number of at least 0'],
    ['perHostConcurrency', (value) => Number.isInteger(value) && value >= 1, 'an integer of at least 1'],
    ['cacheTtlMs', (value) => value >= 0, 'a number of at least 0'],
    ['cacheMaxEntries', (value) => Number.isInteger(value) && value >= 0, 'an integer of at least 0'],
    ['cacheMaxBytes', (value) => value >= 0, 'a number of at least 0'],
  ];
  for (const [key, valid, expectation] of rules) {
    const value = settings[key];
    if (!Number.isFinite(value) || !valid(value)) {
      throw new PackageProbeConfigError(`${key} must be ${expectation}, got ${String(value)}`);
    }
  }
}
