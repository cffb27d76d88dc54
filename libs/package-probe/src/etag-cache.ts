/**
 * Registry answers by URL, with their `ETag`: fresh for a TTL, then revalidated with
 * `If-None-Match` (a 304 costs the registry almost nothing). Bounded by entry count and by
 * the bytes of the answers, evicting the least recently used first, because one worker
 * probes thousands of packages and a packument can weigh megabytes.
 */
export interface CachedAnswer {
  /** The parsed JSON document. Shared between callers: never mutate it. */
  readonly body: unknown;
  readonly etag: string | null;
  /** True while the answer is younger than the TTL and may be used without asking the registry. */
  readonly fresh: boolean;
}

export interface EtagCacheOptions {
  ttlMs: number;
  maxEntries: number;
  maxBytes: number;
  now: () => number;
}

interface Entry {
  body: unknown;
  etag: string | null;
  bytes: number;
  storedAt: number;
}

export class EtagCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly options: EtagCacheOptions) {}

  get size(): number {
    return this.entries.size;
  }

  get(url: string): CachedAnswer | null {
    const entry = this.entries.get(url);
    if (!entry) return null;
    // Re-inserting moves the entry to the end of the Map's order: the most recently used.
    this.entries.delete(url);
    this.entries.set(url, entry);
    const fresh = this.options.now() - entry.storedAt < this.options.ttlMs;
    // Without an ETag a stale answer cannot be revalidated, so it is of no further use.
    if (!fresh && entry.etag === null) {
      this.remove(url);
      return null;
    }
    return { body: entry.body, etag: entry.etag, fresh };
  }

  /** Stores a 200 answer; `bytes` is the size of its body as received. */
  set(url: string, body: unknown, etag: string | null, bytes: number): void {
    this.remove(url);
    if (this.options.ttlMs <= 0 || bytes > this.options.maxBytes) return;
    this.entries.set(url, { body, etag, bytes, storedAt: this.options.now() });
    this.bytes += bytes;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.options.maxEntries && this.bytes <= this.options.maxBytes) break;
      this.remove(oldest);
    }
  }

  /** A 304 said the stored answer still holds: it is fresh for another TTL. */
  revalidated(url: string): void {
    const entry = this.entries.get(url);
    if (entry) entry.storedAt = this.options.now();
  }

  private remove(url: string): void {
    const entry = this.entries.get(url);
    if (!entry) return;
    this.bytes -= entry.bytes;
    this.entries.delete(url);
  }
}
