/**
 * Per-key limits on writes (publishes per token, validations per client address):
 * a sliding one-minute window kept in this process's memory, so with several hub-api
 * instances each enforces the limit on its own share of the traffic.
 */
import { Injectable } from '@nestjs/common';
import { DomainError } from '@skillhub/errors';

const WINDOW_MS = 60_000;
/** Above this many tracked keys, windows that have ended are swept. */
const SWEEP_THRESHOLD = 10_000;

export class RateLimitedError extends DomainError {
  constructor(what: string, retryAfterSeconds: number) {
    super('REQUEST.RATE_LIMITED', `Too many ${what}; try again in ${retryAfterSeconds} s.`, [], {
      retry_after: retryAfterSeconds,
    });
  }
}

@Injectable()
export class WriteRateLimiter {
  private readonly windows = new Map<string, number[]>();

  /** Records one request for `key`; throws when it would exceed `perMinute`. */
  consume(key: string, perMinute: number, what: string, now = Date.now()): void {
    if (this.windows.size > SWEEP_THRESHOLD) this.sweep(now);
    const recent = (this.windows.get(key) ?? []).filter((t) => t > now - WINDOW_MS);
    if (recent.length >= perMinute) {
      this.windows.set(key, recent);
      throw new RateLimitedError(what, Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - now) / 1000)));
    }
    recent.push(now);
    this.windows.set(key, recent);
  }

  private sweep(now: number): void {
    for (const [key, times] of this.windows) if (times[times.length - 1]! <= now - WINDOW_MS) this.windows.delete(key);
  }
}
