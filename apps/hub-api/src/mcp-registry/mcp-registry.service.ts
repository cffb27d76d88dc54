/**
 * The MCP Registry's read API over the servers certified skills run (docs/mcp-registry.md). The
 * entries are built in memory from the certificates that hold now and kept until that set changes:
 * the database's generation of certifications moves (a certification, a revocation), or its clock
 * passes the earliest expiry among them. So every answer is as fresh as the database and costs one
 * single-row read, whatever the catalogue's size; a certificate never changes, so each is decoded
 * once per process.
 */
import { Inject, Injectable } from '@nestjs/common';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { McpServerRepository } from '@skillhub/database';
import { DEFAULT_PAGE_SIZE } from '@skillhub/search';
import type { CertifiedServer } from '@skillhub/signing';
import type { ListServersQueryDto } from './dto/list-servers.request.dto';
import type { ServerListDto, ServerResponseDto } from './dto/server-list.response.dto';
import { InvalidServerCursorError, ServerNotFoundError } from './mcp-registry.errors';
import {
  byPublication,
  groupEntries,
  keyedUses,
  toServerResponse,
  type EntryKey,
  type EntryLinks,
  type KeyedUse,
  type RegistryEntry,
  type ServerUse,
} from './server-entries';

interface Snapshot {
  generation: string;
  /** The earliest expiry among the certificates it holds: past it, the set has changed. */
  expires: Date | null;
  /** In list order: name, then version. */
  entries: RegistryEntry[];
  byName: Map<string, RegistryEntry[]>;
}

/** Certificates decoded per query: bounded, so no parameter list grows with the hub. */
const DECODE_BATCH = 1000;
const MAX_CURSOR_LENGTH = 512;

@Injectable()
export class McpRegistryService {
  private snapshot: Snapshot | null = null;
  /** Builds run one after another, so the decoded certificates are never changed under a build. */
  private builds: Promise<unknown> = Promise.resolve();
  /** Certificate id → what it certifies: a certificate never changes, so each is read once. */
  private readonly known = new Map<string, KeyedUse[]>();

  constructor(
    private readonly sources: McpServerRepository,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  async list(query: ListServersQueryDto, origin: string): Promise<ServerListDto> {
    const after = query.cursor === undefined ? null : decodeServerCursor(query.cursor);
    const { entries } = await this.current();
    const needle = query.search?.toLowerCase();
    const since = query.updated_since === undefined ? null : Date.parse(query.updated_since);
    const wanted = (entry: RegistryEntry): boolean =>
      (needle === undefined || entry.name.toLowerCase().includes(needle)) &&
      (since === null || entry.updatedAt.getTime() >= since) &&
      (query.version === undefined || (query.version === 'latest' ? entry.isLatest : entry.version === query.version));
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const page: RegistryEntry[] = [];
    let i = after ? firstAfter(entries, after) : 0;
    for (; i < entries.length && page.length < limit; i++) if (wanted(entries[i]!)) page.push(entries[i]!);
    let more = false;
    for (; i < entries.length && !more; i++) more = wanted(entries[i]!);
    const last = page[page.length - 1];
    return {
      servers: page.map((entry) => toServerResponse(entry, this.links(origin))),
      metadata: { count: page.length, ...(more && last ? { nextCursor: encodeServerCursor(last) } : {}) },
    };
  }

  async versions(name: string, origin: string): Promise<ServerListDto> {
    const versions = (await this.current()).byName.get(name);
    if (!versions) throw new ServerNotFoundError('Server not found', name);
    const servers = byPublication(versions).map((entry) => toServerResponse(entry, this.links(origin)));
    return { servers, metadata: { count: servers.length } };
  }

  /** One version, or the latest with `latest`. */
  async version(name: string, version: string, origin: string): Promise<ServerResponseDto> {
    const versions = (await this.current()).byName.get(name);
    if (!versions) throw new ServerNotFoundError('Server not found', name);
    const entry = versions.find((e) => (version === 'latest' ? e.isLatest : e.version === version));
    if (!entry) throw new ServerNotFoundError('Server version not found', `${name} at version ${version}`);
    return toServerResponse(entry, this.links(origin));
  }

  private links(origin: string): EntryLinks {
    return {
      origin,
      npmRegistryUrl: this.config.PUBLIC_NPM_REGISTRY_URL,
      pypiRegistryUrl: this.config.PUBLIC_PYPI_REGISTRY_URL,
    };
  }

  /**
   * The entries as of this request or later: the generation is read first, and a build reads its
   * certificates after it, so a revocation committed before the request is never served.
   */
  private async current(): Promise<Snapshot> {
    const { generation, now } = await this.sources.changes();
    const holds = (snapshot: Snapshot | null): snapshot is Snapshot =>
      snapshot?.generation === generation && (snapshot.expires === null || snapshot.expires > now);
    if (holds(this.snapshot)) return this.snapshot;
    const built = this.builds.then(() => (holds(this.snapshot) ? this.snapshot : this.build(generation)));
    this.builds = built.catch(() => undefined);
    return built;
  }

  private async build(generation: string): Promise<Snapshot> {
    const holdingNow = await this.sources.holdingNow();
    const ids = holdingNow.map((c) => c.id);
    const holding = new Set(ids);
    for (const id of this.known.keys()) if (!holding.has(id)) this.known.delete(id);
    const missing = ids.filter((id) => !this.known.has(id));
    for (let i = 0; i < missing.length; i += DECODE_BATCH) {
      const read = await this.sources.certificates(missing.slice(i, i + DECODE_BATCH));
      for (const c of read) {
        // Fields spelt out, not spread: the build reads every one of these objects (bench/README.md).
        const use = (server: CertifiedServer): ServerUse => ({
          skill: c.skill,
          version: c.version,
          level: c.level,
          logIndex: c.logIndex,
          issuedAt: c.issuedAt,
          expiresAt: c.expiresAt,
          server,
        });
        this.known.set(c.certificateId, keyedUses(c.servers.map(use)));
      }
    }
    const entries = groupEntries([...this.known.values()].flat());
    const byName = new Map<string, RegistryEntry[]>();
    for (const entry of entries) {
      const versions = byName.get(entry.name);
      if (versions) versions.push(entry);
      else byName.set(entry.name, [entry]);
    }
    let expires: Date | null = null;
    for (const { expiresAt } of holdingNow) if (expiresAt && (!expires || expiresAt < expires)) expires = expiresAt;
    this.snapshot = { generation, expires, entries, byName };
    return this.snapshot;
  }
}

/** Opaque to clients: the last entry's name and version, base64url JSON. */
function encodeServerCursor(entry: EntryKey): string {
  return Buffer.from(JSON.stringify([entry.name, entry.version]), 'utf8').toString('base64url');
}

function decodeServerCursor(cursor: string): EntryKey {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new InvalidServerCursorError();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidServerCursorError();
  }
  if (!Array.isArray(value) || value.length !== 2 || !value.every((v) => typeof v === 'string')) {
    throw new InvalidServerCursorError();
  }
  return { name: value[0] as string, version: value[1] as string };
}

/** The index of the first entry after `key` in list order; the entry itself may be gone since. */
function firstAfter(entries: readonly RegistryEntry[], key: EntryKey): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const e = entries[mid]!;
    const after = e.name > key.name || (e.name === key.name && e.version > key.version);
    if (after) high = mid;
    else low = mid + 1;
  }
  return low;
}
