/**
 * Per-key limits on writes (publishes per token, validations per client address): a sliding
 * one-minute window kept in Redis, so every hub-api instance counts against the same limit.
 * The window is one sorted set per key, trimmed and counted by one Lua script on Redis's own
 * clock (instances' clocks never disagree about it). While Redis is unreachable, or slower to
 * answer than SHARED_TIMEOUT_MS, each instance falls back to a window in its own memory: writes
 * stay limited (per instance) rather than unlimited, and publishing never waits on Redis. Each
 * fallback is logged, at most once a minute.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { DomainError } from '@skillhub/errors';
import { PRODUCER_REDIS } from '@skillhub/queue';
import { withTimeout } from '@skillhub/retry';

const WINDOW_MS = 60_000;
/** A healthy Redis answers in about a millisecond; past this the local window decides. */
export const SHARED_TIMEOUT_MS = 250;
/** Above this many tracked keys, windows that have ended are swept. */
const SWEEP_THRESHOLD = 10_000;

/**
 * KEYS[1] the window; ARGV: window ms, limit, a unique member. Returns {1, 0} when admitted,
 * else {0, ms until the oldest entry leaves the window}.
 */
const SLIDING_WINDOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return {1, 0}
`;

export class RateLimitedError extends DomainError {
  constructor(what: string, retryAfterSeconds: number) {
    super('rate-limited', 'REQUEST.RATE_LIMITED', `Too many ${what}; try again in ${retryAfterSeconds} s.`, [], {
      retry_after: retryAfterSeconds,
    });
  }
}

@Injectable()
export class WriteRateLimiter {
  private readonly windows = new Map<string, number[]>();
  private readonly logger = new Logger('WriteRateLimiter');
  private lastFallbackLog = 0;

  constructor(
    @Inject(PRODUCER_REDIS) private readonly redis: Redis,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  /** Records one request for `key`; throws RateLimitedError when it would exceed `perMinute`. */
  async consume(key: string, perMinute: number, what: string): Promise<void> {
    let retryAfterMs: number;
    try {
      retryAfterMs = await withTimeout(this.consumeShared(key, perMinute), SHARED_TIMEOUT_MS);
    } catch (error) {
      // Redis is down, slow or failed: this instance's own window decides.
      this.noteFallback(error);
      retryAfterMs = this.consumeLocal(key, perMinute, Date.now());
    }
    if (retryAfterMs > 0) throw new RateLimitedError(what, Math.max(1, Math.ceil(retryAfterMs / 1000)));
  }

  /** 0 when admitted, else ms until a slot frees; throws when Redis cannot answer. */
  private async consumeShared(key: string, perMinute: number): Promise<number> {
    if (this.redis.status !== 'ready') throw new Error('redis not ready');
    const [admitted, retryAfterMs] = (await this.redis.eval(
      SLIDING_WINDOW,
      1,
      `${this.config.REDIS_PREFIX}:ratelimit:${key}`,
      WINDOW_MS,
      perMinute,
      randomUUID(), // members must differ across instances and hosts, or ZADD would merge them
    )) as [number, number];
    return admitted === 1 ? 0 : Math.max(1, retryAfterMs);
  }

  /** The same window in this process's memory: 0 when admitted, else ms until a slot frees. */
  consumeLocal(key: string, perMinute: number, now: number): number {
    if (this.windows.size > SWEEP_THRESHOLD) this.sweep(now);
    const recent = (this.windows.get(key) ?? []).filter((t) => t > now - WINDOW_MS);
    if (recent.length >= perMinute) {
      this.windows.set(key, recent);
      return recent[0]! + WINDOW_MS - now;
    }
    recent.push(now);
    this.windows.set(key, recent);
    return 0;
  }

  private noteFallback(error: unknown): void {
    const now = Date.now();
    if (now - this.lastFallbackLog < WINDOW_MS) return;
    this.lastFallbackLog = now;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn(`write limits counted per instance (Redis: ${reason})`);
  }

  private sweep(now: number): void {
    for (const [key, times] of this.windows) if (times[times.length - 1]! <= now - WINDOW_MS) this.windows.delete(key);
  }
}
