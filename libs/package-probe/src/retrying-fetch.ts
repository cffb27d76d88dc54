/**
 * GETs a JSON document from a registry the way C8 needs it: only under the configured bases,
 * at most N requests in flight per host, answers cached by ETag, bodies capped, and 429 / 5xx /
 * timeouts / network errors / malformed JSON retried by `@skillhub/retry` (its one Retry-After
 * rule included). What stays unanswered is reported as inconclusive, never guessed.
 */
import {
  describeFailure,
  describeStop,
  formatBytes,
  parseRetryAfterMs,
  readCapped,
  retry,
  type RetryLimits,
} from '@skillhub/retry';
import type { CachedAnswer, EtagCache } from './etag-cache';
import type { HostSemaphore } from './host-semaphore';
import type { RegistryBase } from './registry-base';

/** Counts the HTTP requests one probe sends (cache hits send none). */
export interface RequestTrace {
  attempts: number;
}

export type JsonAnswer =
  | { kind: 'ok'; url: string; body: unknown }
  | { kind: 'not_found'; url: string }
  | { kind: 'inconclusive'; url: string; reason: string };

export interface RetryingFetchOptions extends Pick<RetryLimits, 'maxAttempts' | 'baseDelayMs' | 'maxDelayMs'> {
  timeoutMs: number;
  bases: readonly RegistryBase[];
  semaphore: HostSemaphore;
  cache: EtagCache;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

type AttemptResult =
  | { kind: 'ok'; body: unknown; etag: string | null; bytes: number }
  | { kind: 'not_modified' }
  | { kind: 'not_found' }
  | { kind: 'transient'; reason: string; retryAfterMs: number | null }
  | { kind: 'failed'; reason: string };

/** Registries canonicalize names with a redirect (PyPI); more hops than this is a loop. */
const MAX_REDIRECTS = 3;
const RETRYABLE_STATUSES = new Set([408, 429]);

export class RetryingFetch {
  /** Requests under way by URL: concurrent probes of one package share one request. */
  private readonly pending = new Map<string, Promise<JsonAnswer>>();

  constructor(private readonly options: RetryingFetchOptions) {}

  /** The document at `url`; a probe that joins a request under way or hits the cache adds no attempts to `trace`. */
  getJson(url: string, maxBytes: number, trace: RequestTrace): Promise<JsonAnswer> {
    // `url` comes from RegistryBase.url, which only builds URLs under a configured base.
    const cached = this.options.cache.get(url);
    if (cached?.fresh) return Promise.resolve({ kind: 'ok', url, body: cached.body });
    const pending = this.pending.get(url);
    if (pending) return pending;
    const request = this.fetchWithRetries(url, new URL(url).origin, cached, maxBytes, trace).finally(() =>
      this.pending.delete(url),
    );
    this.pending.set(url, request);
    return request;
  }

  private async fetchWithRetries(
    url: string,
    origin: string,
    cached: CachedAnswer | null,
    maxBytes: number,
    trace: RequestTrace,
  ): Promise<JsonAnswer> {
    const { options } = this;
    const end = await retry(
      (attempt) =>
        options.semaphore.run(origin, () => this.attempt(url, cached?.etag ?? null, maxBytes, trace, attempt.signal())),
      {
        ...options,
        attemptTimeoutMs: options.timeoutMs,
        retryable: (result) => result.kind === 'transient',
        retryAfterMs: (result) => (result.kind === 'transient' ? result.retryAfterMs : null),
      },
    );
    const result = end.outcome;
    switch (result.kind) {
      case 'ok':
        options.cache.set(url, result.body, result.etag, result.bytes);
        return { kind: 'ok', url, body: result.body };
      case 'not_modified':
        options.cache.revalidated(url);
        return { kind: 'ok', url, body: cached?.body };
      case 'not_found':
        return { kind: 'not_found', url };
      case 'failed':
        return { kind: 'inconclusive', url, reason: result.reason };
      case 'transient':
        return { kind: 'inconclusive', url, reason: `${result.reason} (${describeStop(end)})` };
    }
  }

  /** One try: a request, plus the same-registry redirects it leads to, within one timeout (`signal`). */
  private async attempt(
    url: string,
    etag: string | null,
    maxBytes: number,
    trace: RequestTrace,
    signal: AbortSignal,
  ): Promise<AttemptResult> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (etag !== null) headers['if-none-match'] = etag;
    let current = url;
    for (let hops = 0; ; hops++) {
      trace.attempts++;
      let response: Response;
      try {
        // Manual redirects: fetch would otherwise follow a registry's Location to any origin.
        response = await fetch(current, { headers, redirect: 'manual', signal });
      } catch (error) {
        return { kind: 'transient', reason: describeFailure({ error }), retryAfterMs: null };
      }
      const { status } = response;
      if (status >= 300 && status < 400 && status !== 304) {
        await response.body?.cancel();
        const next = this.redirectTarget(current, response.headers.get('location'));
        if (typeof next !== 'string') return next;
        if (hops + 1 > MAX_REDIRECTS) return { kind: 'failed', reason: `more than ${MAX_REDIRECTS} redirects` };
        current = next;
        continue;
      }
      if (status === 200) return this.readJson(response, maxBytes);
      await response.body?.cancel();
      if (status === 304 && etag !== null) return { kind: 'not_modified' };
      if (status === 404 || status === 410) return { kind: 'not_found' };
      if (RETRYABLE_STATUSES.has(status) || status >= 500) {
        const retryAfterMs = parseRetryAfterMs(response.headers.get('retry-after'), this.options.now());
        return { kind: 'transient', reason: `the registry answered ${describeFailure({ status })}`, retryAfterMs };
      }
      return { kind: 'failed', reason: `the registry answered ${describeFailure({ status })}` };
    }
  }

  private redirectTarget(from: string, location: string | null): string | AttemptResult {
    if (!location) return { kind: 'failed', reason: 'the registry redirected without a Location' };
    let target: URL;
    try {
      target = new URL(location, from);
    } catch {
      return { kind: 'failed', reason: 'the registry redirected to an unreadable Location' };
    }
    if (!this.isAllowed(target)) {
      return {
        kind: 'failed',
        reason: `the registry redirected outside the configured registries (to ${target.origin})`,
      };
    }
    return target.href;
  }

  private async readJson(response: Response, maxBytes: number): Promise<AttemptResult> {
    let text: string;
    try {
      const bytes = await readCapped(response, maxBytes);
      if (bytes === null) return { kind: 'failed', reason: `the answer is larger than ${formatBytes(maxBytes)}` };
      text = bytes.toString('utf8');
    } catch (error) {
      return { kind: 'transient', reason: describeFailure({ error }), retryAfterMs: null };
    }
    try {
      return { kind: 'ok', body: JSON.parse(text), etag: response.headers.get('etag'), bytes: Buffer.byteLength(text) };
    } catch {
      // A truncated answer from a struggling CDN is transient more often than not: retry it.
      return { kind: 'transient', reason: 'the registry answered HTTP 200 with malformed JSON', retryAfterMs: null };
    }
  }

  private isAllowed(url: URL): boolean {
    return this.options.bases.some((base) => base.contains(url));
  }
}
