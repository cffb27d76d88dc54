/**
 * GETs a JSON document from a registry the way C8 needs it: only under the configured bases,
 * at most N requests in flight per host, answers cached by ETag, bodies capped, and 429 / 5xx /
 * timeouts / network errors / malformed JSON retried with exponential backoff and full jitter
 * (honouring `Retry-After`). What stays unanswered is reported as inconclusive, never guessed.
 */
import { backoffDelayMs, formatBytes, parseRetryAfterMs, readCapped, type RetryPolicy } from '@skillhub/http-retry';
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

export interface RetryingFetchOptions extends RetryPolicy {
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
  | { kind: 'retry'; reason: string; retryAfterMs: number | null }
  | { kind: 'give_up'; reason: string };

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
    let lastReason = '';
    for (let attempt = 0; attempt < this.options.maxAttempts; attempt++) {
      const result = await this.options.semaphore.run(origin, () =>
        this.attempt(url, cached?.etag ?? null, maxBytes, trace),
      );
      switch (result.kind) {
        case 'ok':
          this.options.cache.set(url, result.body, result.etag, result.bytes);
          return { kind: 'ok', url, body: result.body };
        case 'not_modified':
          this.options.cache.revalidated(url);
          return { kind: 'ok', url, body: cached?.body };
        case 'not_found':
          return { kind: 'not_found', url };
        case 'give_up':
          return { kind: 'inconclusive', url, reason: result.reason };
        case 'retry':
          lastReason = result.reason;
          if (attempt + 1 < this.options.maxAttempts) await this.options.sleep(this.delayBeforeRetry(attempt, result));
      }
    }
    const tries = this.options.maxAttempts === 1 ? '1 attempt' : `${this.options.maxAttempts} attempts`;
    return { kind: 'inconclusive', url, reason: `${lastReason} (gave up after ${tries})` };
  }

  private delayBeforeRetry(attempt: number, result: { retryAfterMs: number | null }): number {
    // The registry's own estimate beats a guess, but a worker slot is not held for an hour.
    if (result.retryAfterMs !== null) return Math.min(this.options.maxDelayMs, result.retryAfterMs);
    return backoffDelayMs(attempt, this.options, this.options.random);
  }

  /** One try: a request, plus the same-registry redirects it leads to, within one timeout. */
  private async attempt(
    url: string,
    etag: string | null,
    maxBytes: number,
    trace: RequestTrace,
  ): Promise<AttemptResult> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
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
        return { kind: 'retry', reason: this.describeFailure(error), retryAfterMs: null };
      }
      const { status } = response;
      if (status >= 300 && status < 400 && status !== 304) {
        await response.body?.cancel();
        const next = this.redirectTarget(current, response.headers.get('location'));
        if (typeof next !== 'string') return next;
        if (hops + 1 > MAX_REDIRECTS) return { kind: 'give_up', reason: `more than ${MAX_REDIRECTS} redirects` };
        current = next;
        continue;
      }
      if (status === 200) return this.readJson(response, maxBytes);
      await response.body?.cancel();
      if (status === 304 && etag !== null) return { kind: 'not_modified' };
      if (status === 404 || status === 410) return { kind: 'not_found' };
      if (RETRYABLE_STATUSES.has(status) || status >= 500) {
        const retryAfterMs = parseRetryAfterMs(response.headers.get('retry-after'), this.options.now());
        return { kind: 'retry', reason: `the registry answered HTTP ${status}`, retryAfterMs };
      }
      return { kind: 'give_up', reason: `the registry answered HTTP ${status}` };
    }
  }

  private redirectTarget(from: string, location: string | null): string | AttemptResult {
    if (!location) return { kind: 'give_up', reason: 'the registry redirected without a Location' };
    let target: URL;
    try {
      target = new URL(location, from);
    } catch {
      return { kind: 'give_up', reason: 'the registry redirected to an unreadable Location' };
    }
    if (!this.isAllowed(target)) {
      return {
        kind: 'give_up',
        reason: `the registry redirected outside the configured registries (to ${target.origin})`,
      };
    }
    return target.href;
  }

  private async readJson(response: Response, maxBytes: number): Promise<AttemptResult> {
    let text: string;
    try {
      const bytes = await readCapped(response, maxBytes);
      if (bytes === null) return { kind: 'give_up', reason: `the answer is larger than ${formatBytes(maxBytes)}` };
      text = bytes.toString('utf8');
    } catch (error) {
      return { kind: 'retry', reason: this.describeFailure(error), retryAfterMs: null };
    }
    try {
      return { kind: 'ok', body: JSON.parse(text), etag: response.headers.get('etag'), bytes: Buffer.byteLength(text) };
    } catch {
      // A truncated answer from a struggling CDN is transient more often than not: retry it.
      return { kind: 'retry', reason: 'the registry answered HTTP 200 with malformed JSON', retryAfterMs: null };
    }
  }

  /** Duck-typed: fetch's errors may come from another realm (a test sandbox), where `instanceof Error` fails. */
  private describeFailure(error: unknown): string {
    const { name, cause } = (error ?? {}) as { name?: unknown; cause?: { code?: unknown } };
    if (name === 'TimeoutError' || name === 'AbortError') {
      return `no complete answer within ${this.options.timeoutMs} ms`;
    }
    const code = cause?.code ?? (error as { code?: unknown } | null)?.code;
    return `network error${typeof code === 'string' ? ` (${code})` : ''}`;
  }

  private isAllowed(url: URL): boolean {
    return this.options.bases.some((base) => base.contains(url));
  }
}
