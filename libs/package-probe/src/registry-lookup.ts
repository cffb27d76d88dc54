/**
 * The lookup flow shared by both registries: ask for the exact release; when it is missing,
 * read the package document to say why (never published, unpublished, replaced by a security
 * placeholder, or just not that version).
 */
import type { PackageFacts, RegistryClient, ReleaseFacts } from './registry-client';
import type { RequestTrace, RetryingFetch } from './retrying-fetch';

/** A whole package's document (an npm packument, PyPI's project JSON with every release's files). */
export const MAX_PACKAGE_DOCUMENT_BYTES = 10 * 1_048_576;
/** One release's document. */
export const MAX_RELEASE_DOCUMENT_BYTES = 2 * 1_048_576;

export type Lookup =
  /** The registry answered for the release; `release.version` differs from the one asked only for a placeholder. */
  | { kind: 'release'; url: string; release: ReleaseFacts }
  /** The package exists and no exact version was asked for. */
  | { kind: 'package'; url: string; latest: ReleaseFacts | null }
  | { kind: 'missing_package'; url: string }
  | { kind: 'missing_version'; url: string; latestVersion: string | null }
  | { kind: 'unpublished'; url: string; what: 'package' | 'version'; at: string | null }
  | { kind: 'inconclusive'; url: string; reason: string };

/** Looks up `version` of `name` (both as the client spells them), or the package when `version` is null. */
export async function lookUp(
  client: RegistryClient,
  http: RetryingFetch,
  name: string,
  version: string | null,
  trace: RequestTrace,
): Promise<Lookup> {
  if (version === null) return lookUpPackage(client, http, name, trace);
  const answer = await http.getJson(client.releaseUrl(name, version), MAX_RELEASE_DOCUMENT_BYTES, trace);
  if (answer.kind === 'inconclusive') return answer;
  if (answer.kind === 'ok') {
    const release = client.readRelease(answer.body);
    return release ? { kind: 'release', url: answer.url, release } : unexpectedShape(answer.url, client);
  }
  const explained = await readPackage(client, http, name, trace);
  // The release's 404 is already a definite answer; an unreachable package document only loses the why.
  if (explained.kind === 'inconclusive') return { kind: 'missing_version', url: answer.url, latestVersion: null };
  if (explained.kind !== 'facts') return explained;
  const { facts, url } = explained;
  if (facts.unpublished) return { kind: 'unpublished', url, what: 'package', at: facts.unpublished.at };
  if (facts.latest?.withdrawn?.outcome === 'security_placeholder') {
    return { kind: 'release', url, release: facts.latest };
  }
  if (facts.removedVersions.has(version)) return { kind: 'unpublished', url: answer.url, what: 'version', at: null };
  return { kind: 'missing_version', url: answer.url, latestVersion: facts.latest?.version ?? null };
}

async function lookUpPackage(
  client: RegistryClient,
  http: RetryingFetch,
  name: string,
  trace: RequestTrace,
): Promise<Lookup> {
  const read = await readPackage(client, http, name, trace);
  if (read.kind !== 'facts') return read;
  const { facts, url } = read;
  if (facts.unpublished) return { kind: 'unpublished', url, what: 'package', at: facts.unpublished.at };
  return { kind: 'package', url, latest: facts.latest };
}

type PackageRead =
  { kind: 'facts'; url: string; facts: PackageFacts } | Extract<Lookup, { kind: 'missing_package' | 'inconclusive' }>;

async function readPackage(
  client: RegistryClient,
  http: RetryingFetch,
  name: string,
  trace: RequestTrace,
): Promise<PackageRead> {
  const answer = await http.getJson(client.packageUrl(name), MAX_PACKAGE_DOCUMENT_BYTES, trace);
  if (answer.kind === 'inconclusive') return answer;
  if (answer.kind === 'not_found') return { kind: 'missing_package', url: answer.url };
  const facts = client.readPackage(answer.body);
  return facts ? { kind: 'facts', url: answer.url, facts } : unexpectedShape(answer.url, client);
}

const unexpectedShape = (url: string, client: RegistryClient): Extract<Lookup, { kind: 'inconclusive' }> => ({
  kind: 'inconclusive',
  url,
  reason: `the answer is JSON but not ${client.aLabel} document`,
});
