/** npm's names, URLs and documents: packuments (`GET /<name>`) and version documents (`GET /<name>/<version>`). */
import { valid as validSemver } from 'semver';
import { field, isRecord, recordField, stringField, type JsonRecord } from './json-field.reader';
import { escapeSegment, type RegistryBase } from './registry-base';
import type { PackageFacts, RegistryClient, ReleaseFacts } from './registry-client';

/** npm's rule for package names (old names may hold capitals); the length caps the regex's input. */
const NPM_NAME = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/i;
const NPM_NAME_MAX = 214;
const VERSION_MAX = 256;
/** The version npm publishes in place of a package it removed for security reasons (usually malware). */
const NPM_SECURITY_PLACEHOLDER = '0.0.1-security';
/** `time` keys that are not versions. */
const TIME_META_KEYS = new Set(['created', 'modified', 'unpublished']);
const SRI = /^sha(?:1|256|384|512)-[A-Za-z0-9+/]+={0,2}(?: sha(?:1|256|384|512)-[A-Za-z0-9+/]+={0,2})*$/;
const SHA1_HEX = /^[0-9a-f]{40}$/i;
/** A predicate type is a URI; the registry's text reaches a finding, so only a short printable one is taken. */
const PREDICATE_TYPE = /^https:\/\/[\x21-\x7e]{1,200}$/;
/** `github:user/repo`, `gitlab:…`, `bitbucket:…`, and the bare `user/repo` npm reads as GitHub. */
const REPOSITORY_SHORTHAND = /^(?:(github|gitlab|bitbucket):)?([\w.-]+\/[\w.-]+)$/;
const SHORTHAND_HOSTS: Readonly<Record<string, string>> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
};

export class NpmRegistryClient implements RegistryClient {
  readonly registry = 'npm';
  readonly label = 'npm';
  readonly aLabel = 'an npm';

  constructor(private readonly base: RegistryBase) {}

  canonicalName(name: string): string | null {
    return name.length <= NPM_NAME_MAX && NPM_NAME.test(name) ? name : null;
  }

  isExactVersion(version: string): boolean {
    return version.length <= VERSION_MAX && validSemver(version) === version;
  }

  packageUrl(name: string): string {
    return this.base.url([npmPackageSegment(name)]);
  }

  releaseUrl(name: string, version: string): string {
    return this.base.url([npmPackageSegment(name), escapeSegment(version)]);
  }

  readPackage(document: unknown): PackageFacts | null {
    if (!isRecord(document)) return null;
    const time = recordField(document, 'time');
    const unpublished = field(time, 'unpublished');
    if (unpublished !== undefined) {
      return {
        unpublished: { at: stringField(recordField(time, 'unpublished'), 'time') },
        latest: null,
        removedVersions: new Set(),
      };
    }
    const versions = recordField(document, 'versions');
    if (versions === null) return null;
    const latestVersion = stringField(recordField(document, 'dist-tags'), 'latest');
    const removed = Object.keys(time ?? {}).filter(
      (key) => !TIME_META_KEYS.has(key) && field(versions, key) === undefined,
    );
    return {
      unpublished: null,
      latest: latestVersion === null ? null : this.readRelease(field(versions, latestVersion)),
      removedVersions: new Set(removed),
    };
  }

  readRelease(document: unknown): ReleaseFacts | null {
    if (!isRecord(document)) return null;
    const version = stringField(document, 'version');
    if (version === null) return null;
    const dist = recordField(document, 'dist');
    return {
      version,
      withdrawn:
        version === NPM_SECURITY_PLACEHOLDER
          ? {
              outcome: 'security_placeholder',
              reason: `npm replaced it with its security placeholder ${NPM_SECURITY_PLACEHOLDER}, as it does when it removes malware`,
            }
          : null,
      deprecated: deprecation(field(document, 'deprecated')),
      integrity: integrity(dist),
      repositoryUrls: repositoryUrls(field(document, 'repository')),
      attestation: provenanceAttestation(dist),
    };
  }

  spec(name: string, version: string): string {
    return `${name}@${version}`;
  }

  runCommand(name: string, version: string | null): string {
    return `npx -y ${version === null ? name : this.spec(name, version)}`;
  }
}

/** `@scope/name` → `@scope%2fname` (the form npm documents); each part escaped on its own. */
export function npmPackageSegment(name: string): string {
  const slash = name.indexOf('/');
  if (!name.startsWith('@') || slash === -1) return escapeSegment(name);
  return `@${escapeSegment(name.slice(1, slash))}%2f${escapeSegment(name.slice(slash + 1))}`;
}

/** npm writes a deprecation as its message; `true` or an empty message still means deprecated. */
function deprecation(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() || 'deprecated';
  return value === true ? 'deprecated' : null;
}

/** `dist.integrity`, or for packages older than it the SHA-1 `dist.shasum`, in the SRI form npm itself derives. */
function integrity(dist: JsonRecord | null): string | null {
  const sri = stringField(dist, 'integrity');
  if (sri !== null && sri.length <= 1024 && SRI.test(sri)) return sri;
  const shasum = stringField(dist, 'shasum');
  return shasum !== null && SHA1_HEX.test(shasum) ? `sha1-${Buffer.from(shasum, 'hex').toString('base64')}` : null;
}

/**
 * npm lists a release's attestations as `dist.attestations = { url, provenance: { predicateType } }`
 * (the bundles themselves are at `url`); a release published without provenance lists none.
 */
function provenanceAttestation(dist: JsonRecord | null): string | null {
  const type = stringField(recordField(recordField(dist, 'attestations'), 'provenance'), 'predicateType');
  return type !== null && PREDICATE_TYPE.test(type) ? type : null;
}

/** `repository` is a URL, a shorthand (`github:user/repo`, `user/repo`) or `{ type, url }`. */
function repositoryUrls(repository: unknown): string[] {
  const raw = isRecord(repository)
    ? stringField(repository, 'url')
    : typeof repository === 'string'
      ? repository
      : null;
  if (raw === null || raw.length > 2048) return [];
  const shorthand = REPOSITORY_SHORTHAND.exec(raw);
  if (!shorthand) return [raw];
  return [`https://${SHORTHAND_HOSTS[shorthand[1] ?? 'github']}/${shorthand[2]}`];
}
