/**
 * C9: does the package point back at the skill or its publisher? Any one of its back-references
 * is enough: the MCP server name it claims (npm `mcpName`, PyPI README `mcp-name:`) or its
 * repository link.
 */
import type { ReleaseFacts } from './registry-client';

export interface OwnershipExpectation {
  /** The skill's ref, `namespace/name`: an `mcpName` equal to it points back at the skill. */
  skillRef?: string;
  /** The publisher's namespace: an `mcpName` under it (`namespace/…`) points back at the publisher. */
  publisher?: string;
  /** The skill's repository URLs, compared after normalization. */
  repositoryUrls?: readonly string[];
}

export interface Ownership {
  /** The back-reference that matched or, when none did, the first one the package has. */
  backReference: 'mcpName' | 'mcp-name' | 'repository' | null;
  matches: boolean;
}

/** `git@github.com:owner/repo`: scp syntax, which `URL` cannot read; the host needs a dot, unlike a URL scheme. */
const SCP_LIKE = /^([\w.-]+@)?([\w-]+(?:\.[\w-]+)+):(.+)$/;
const REPOSITORY_PROTOCOLS = new Set(['https:', 'http:', 'git:', 'ssh:']);

export function checkOwnership(release: ReleaseFacts | null, expected: OwnershipExpectation = {}): Ownership {
  if (release === null) return { backReference: null, matches: false };
  const claim = release.mcpName;
  if (claim !== null && claimMatches(claim.value, expected)) return { backReference: claim.kind, matches: true };
  const expectedRepositories = new Set((expected.repositoryUrls ?? []).map(normalizeRepositoryUrl));
  expectedRepositories.delete(null);
  if (release.repositoryUrls.some((url) => expectedRepositories.has(normalizeRepositoryUrl(url)))) {
    return { backReference: 'repository', matches: true };
  }
  const present = claim?.kind ?? (release.repositoryUrls.length > 0 ? 'repository' : null);
  return { backReference: present, matches: false };
}

/** Names compare case-insensitively, as namespaces are lower-case slugs on the hub. */
function claimMatches(claim: string, expected: OwnershipExpectation): boolean {
  const value = claim.toLowerCase();
  if (expected.skillRef && value === expected.skillRef.toLowerCase()) return true;
  const namespace = value.slice(0, value.indexOf('/'));
  return Boolean(expected.publisher) && namespace !== '' && namespace === expected.publisher?.toLowerCase();
}

/**
 * One spelling per repository, so `git+https://GitHub.com/a/b.git/`, `git@github.com:a/b.git` and
 * `https://github.com/a/b` compare equal: no `git+`, credentials, query, fragment, `.git` or trailing
 * slash, a lower-case host, and https. Null when it is not a URL of a repository.
 */
export function normalizeRepositoryUrl(raw: string): string | null {
  let text = raw.trim();
  if (text.length === 0 || text.length > 2048) return null;
  if (text.startsWith('git+')) text = text.slice(4);
  const scp = SCP_LIKE.exec(text);
  if (scp && !text.includes('://')) text = `ssh://${scp[1] ?? ''}${scp[2]}/${scp[3]}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (!REPOSITORY_PROTOCOLS.has(url.protocol) || !url.hostname) return null;
  const path = url.pathname
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '');
  return `https://${url.hostname.toLowerCase()}${path}`;
}
