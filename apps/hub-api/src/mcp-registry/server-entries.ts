/**
 * The MCP servers certified skills run, as MCP Registry entries (docs/mcp-registry.md): which entry
 * a certified server is (a reverse-DNS name and a version, derived from what its certificate pins),
 * the entries grouped from every certificate that runs them, and each entry as the registry's
 * `ServerResponse`. Pure: the same certificates give the same entries, on every hub instance.
 */
import * as semver from 'semver';
import { sha256Hex } from '@skillhub/bundle';
import { CERTIFICATE_LEVELS, canonicalJson, type CertificateLevel, type CertifiedServer } from '@skillhub/signing';
import { normalizePypiName } from '@skillhub/skill-formats';
import {
  CERTIFICATION_META,
  OFFICIAL_META,
  type CertifiedUseDto,
  type PackageDto,
  type ServerResponseDto,
} from './dto/server-list.response.dto';

/** The registry's rule for a name (`ServerDetail.name` in its OpenAPI document). */
const SERVER_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const MAX_NAME_LENGTH = 200;
const MAX_TEXT_LENGTH = 100;
/** Skills listed under one entry; `skillCount` says how many run it. */
export const MAX_LISTED_SKILLS = 50;
/** The namespace every derived name starts with: Skill Hub's, not the package's publisher's. */
const NAMESPACE = 'dev.skillhub';

/** One certified skill version running one server, as its certificate says. */
export interface ServerUse {
  /** `author/name`. */
  skill: string;
  version: string;
  level: CertificateLevel;
  logIndex: number;
  issuedAt: Date;
  expiresAt: Date;
  server: CertifiedServer;
}

export interface EntryKey {
  name: string;
  version: string;
}

export interface RegistryEntry extends EntryKey {
  /** Every use, the most recently certified first. */
  uses: ServerUse[];
  /** The first and the latest certificate that pin it. */
  publishedAt: Date;
  updatedAt: Date;
  isLatest: boolean;
}

/** Where the certificate links point, and the registries the pins were probed at. */
export interface EntryLinks {
  origin: string;
  npmRegistryUrl: string;
  pypiRegistryUrl: string;
}

/**
 * The entry a certified server is, or null for one a registry client could not start from the
 * entry alone (a file of the skill's bundle) or whose name would break the registry's rule.
 *
 * - npm `pkg` → `dev.skillhub.npm/pkg`, `@scope/pkg` → `dev.skillhub.npm.scope/pkg`;
 * - PyPI `Some_Pkg` → `dev.skillhub.pypi/some-pkg` (PEP 503 normalised);
 * - remote `https://mcp.example.com/v1/sse` → `dev.skillhub.remote.com.example.mcp/v1.sse`, with
 *   `-` and 16 hex digits of the URL's SHA-256 appended whenever the name alone would not give the
 *   URL back (a port, a query, a dot or another character outside the rule), so two URLs never share a name.
 *
 * The version is the pinned package version; a remote server pins no version, only its live tools,
 * so its version is `0.0.0-tools.` and 12 hex digits of their hash (`unrecorded` when none were).
 */
export function entryKey(server: CertifiedServer): EntryKey | null {
  let key: EntryKey | null = null;
  if ((server.launch === 'npm' || server.launch === 'pypi') && server.package) {
    const { registry, name, version } = server.package;
    key = { name: registry === 'npm' ? npmName(name) : `${NAMESPACE}.pypi/${normalizePypiName(name)}`, version };
  } else if (server.launch === 'remote' && server.url) {
    key = { name: remoteName(server.url), version: remoteVersion(server.tools) };
  }
  return key && key.name.length <= MAX_NAME_LENGTH && SERVER_NAME.test(key.name) ? key : null;
}

function npmName(name: string): string {
  const scoped = /^@([^/]+)\/(.+)$/.exec(name);
  return scoped ? `${NAMESPACE}.npm.${scoped[1]}/${scoped[2]}` : `${NAMESPACE}.npm/${name}`;
}

function remoteName(text: string): string {
  const url = new URL(text);
  const host = url.hostname.split('.').reverse().join('.');
  const path = url.pathname.slice(1);
  // The name gives the URL back only for a plain path: no port, query, dots or other characters.
  const plain = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/.test(path) && url.href === `https://${url.hostname}/${path}`;
  const slug = path.replace(/\//g, '.').replace(/[^A-Za-z0-9._-]+/g, '-') || 'mcp';
  return `${NAMESPACE}.remote.${host}/${plain ? slug : `${slug}-${sha256Hex(url.href).slice(0, 16)}`}`;
}

function remoteVersion(tools: Record<string, string> | null): string {
  return `0.0.0-tools.${tools ? sha256Hex(canonicalJson(tools)).slice(0, 12) : 'unrecorded'}`;
}

const byTime = (a: Date, b: Date): number => a.getTime() - b.getTime();
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A use with the entry it belongs to: a certificate never changes, so its keys are worked out once. */
export interface KeyedUse {
  use: ServerUse;
  key: EntryKey;
}

/** The uses that make an entry, each with its key (the others are left out, see `entryKey`). */
export function keyedUses(uses: readonly ServerUse[]): KeyedUse[] {
  return uses.flatMap((use) => {
    const key = entryKey(use.server);
    return key ? [{ use, key }] : [];
  });
}

/** Entries in list order (name, then version, as code units), each with its uses and which is latest. */
export function groupEntries(uses: readonly KeyedUse[]): RegistryEntry[] {
  const groups = new Map<string, RegistryEntry>();
  for (const { use, key } of uses) {
    const id = `${key.name}\n${key.version}`;
    const entry = groups.get(id);
    if (entry) entry.uses.push(use);
    // Fields spelt out: an object spread here cost most of a 10,000-entry build (bench/README.md).
    else {
      const { name, version } = key;
      groups.set(id, {
        name,
        version,
        uses: [use],
        publishedAt: use.issuedAt,
        updatedAt: use.issuedAt,
        isLatest: false,
      });
    }
  }
  const entries = [...groups.values()];
  for (const entry of entries) {
    if (entry.uses.length > 1) {
      entry.uses.sort(
        (a, b) => byTime(b.issuedAt, a.issuedAt) || compareText(a.skill, b.skill) || compareText(a.version, b.version),
      );
    }
    entry.updatedAt = entry.uses[0]!.issuedAt;
    entry.publishedAt = entry.uses[entry.uses.length - 1]!.issuedAt;
  }
  entries.sort((a, b) => compareText(a.name, b.name) || compareText(a.version, b.version));
  let first = 0;
  for (let i = 1; i <= entries.length; i++) {
    if (i === entries.length || entries[i]!.name !== entries[first]!.name) {
      entries.slice(first, i).reduce((best, entry) => (newer(entry, best) ? entry : best)).isLatest = true;
      first = i;
    }
  }
  return entries;
}

/**
 * Latest is the highest package version (semver where both parse), else the most recently
 * published: a remote server's versions are tool hashes, which have no order of their own.
 */
function newer(a: RegistryEntry, b: RegistryEntry): boolean {
  const remote = a.uses[0]!.server.launch === 'remote';
  if (!remote && semver.valid(a.version) && semver.valid(b.version)) return semver.gt(a.version, b.version);
  return byTime(a.publishedAt, b.publishedAt) > 0;
}

/** The versions of one name, newest published first (the registry's order for this list). */
export function byPublication(entries: readonly RegistryEntry[]): RegistryEntry[] {
  return [...entries].sort((a, b) => byTime(b.publishedAt, a.publishedAt) || compareText(b.version, a.version));
}

/** The text cut to the registry's 100 characters (code points, as JSON Schema counts them). */
function clip(text: string): string {
  const chars = Array.from(text);
  return chars.length <= MAX_TEXT_LENGTH ? text : `${chars.slice(0, MAX_TEXT_LENGTH - 1).join('')}…`;
}

const LEVEL_RANK = (level: CertificateLevel): number => CERTIFICATE_LEVELS.indexOf(level);

export function toServerResponse(entry: RegistryEntry, links: EntryLinks): ServerResponseDto {
  const latest = entry.uses[0]!;
  const { server } = latest;
  const pinned = server.package;
  const title = clip(pinned ? pinned.name : new URL(server.url!).host);
  const tools = server.tools ? Object.keys(server.tools).sort() : [];
  const origin = pinned ? (pinned.registry === 'npm' ? 'npm' : 'PyPI') : 'remote';
  const description = clip(
    tools.length ? `${title} (${origin}): ${tools.join(', ')}` : `${title} (${origin}), run by certified skills`,
  );
  const use = (u: ServerUse): CertifiedUseDto => ({
    skill: u.skill,
    version: u.version,
    level: u.level,
    certificate: `${links.origin}/api/v1/skills/${u.skill}/versions/${encodeURIComponent(u.version)}/certificate`,
    logIndex: u.logIndex,
    issuedAt: u.issuedAt.toISOString(),
    expiresAt: u.expiresAt.toISOString(),
    server: u.server.name,
    argv: u.server.argv,
    env: u.server.env,
    tools: u.server.tools,
  });
  const newest = use(latest);
  return {
    server: {
      name: entry.name,
      description,
      title,
      version: entry.version,
      ...(pinned ? { packages: [packageOf(pinned, links)] } : {}),
      ...(server.launch === 'remote'
        ? { remotes: [{ type: server.transport === 'sse' ? 'sse' : 'streamable-http', url: server.url! }] }
        : {}),
    },
    _meta: {
      [OFFICIAL_META]: {
        status: 'active',
        publishedAt: entry.publishedAt.toISOString(),
        updatedAt: entry.updatedAt.toISOString(),
        isLatest: entry.isLatest,
      },
      [CERTIFICATION_META]: {
        status: 'certified',
        level: entry.uses.reduce((best, u) => (LEVEL_RANK(u.level) > LEVEL_RANK(best) ? u.level : best), latest.level),
        certificate: newest.certificate,
        logIndex: newest.logIndex,
        issuedAt: newest.issuedAt,
        expiresAt: newest.expiresAt,
        package: pinned ? { ...pinned } : null,
        url: server.url,
        tools: server.tools,
        skillCount: entry.uses.length,
        skills: entry.uses.slice(0, MAX_LISTED_SKILLS).map(use),
      },
    },
  };
}

function packageOf(pinned: NonNullable<CertifiedServer['package']>, links: EntryLinks): PackageDto {
  const npm = pinned.registry === 'npm';
  return {
    registryType: pinned.registry,
    registryBaseUrl: npm ? links.npmRegistryUrl : links.pypiRegistryUrl,
    identifier: pinned.name,
    version: pinned.version,
    runtimeHint: npm ? 'npx' : 'uvx',
    transport: { type: 'stdio' },
  };
}
