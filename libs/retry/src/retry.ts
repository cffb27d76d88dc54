/**
 * The one retry of this codebase: exponential backoff with full jitter, a cap on every wait, a
 * number of attempts, an overall deadline, cancellation, and one rule for a server's `Retry-After`.
 * A caller says only what is worth another try (a predicate over an attempt's outcome) and its
 * limits; an attempt reports failure as an outcome, and whatever it throws ends the retries.
 *
 * The Retry-After rule, for every caller: a server's wait is honoured exactly when it fits (at
 * most `maxDelayMs` and not past the deadline); a longer one ends the retries at once, and the
 * last outcome comes back with the wait the server asked for. Coming back earlier than asked is
 * refused again (RFC 9110 §10.2.3: how long the client "ought to wait"), which burns attempts and
 * the server's patience; waiting longer than the caller allows holds a worker slot or a user's
 * terminal. So the caller reports the wait instead of guessing a shorter one.
 *
 * Our own code, not cockatiel: its waits cannot be driven by an injected clock and random source
 * (the specs pin exact waits), and it has no Retry-After rule, which is the part that matters here.
 */
import { setTimeout as wait } from 'node:timers/promises';
import { AttemptTimeout, formatMs } from './attempt-timeout';

export interface RetryLimits {
  /** Tries in all, the first included; one is always made. */
  maxAttempts: number;
  /** The wait before retry n (from 0) is uniform in [0, min(maxDelayMs, baseDelayMs · 2^n)). */
  baseDelayMs: number;
  /** The longest wait between two attempts; a longer `Retry-After` ends the retries. */
  maxDelayMs: number;
  /** Per attempt, from when it starts its clock (`AttemptContext.signal()`); none when absent. */
  attemptTimeoutMs?: number;
  /** Overall, from the call: no wait ends past it, and an attempt under way is cut at it. None when absent. */
  deadlineMs?: number;
}

export interface RetryPolicy<T> extends RetryLimits {
  /** Whether this outcome is worth another attempt; a success never is. */
  retryable: (outcome: T) => boolean;
  /** The wait the server asked for (`Retry-After`), in ms; null when it asked for none. */
  retryAfterMs?: (outcome: T) => number | null;
  /** Cancels the retries: an attempt under way is aborted, and no further one starts. */
  signal?: AbortSignal;
  now?: () => number;
  /** Resolves after `ms`, or sooner once `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Uniform in [0, 1), like Math.random: draws the jitter. */
  random?: () => number;
}

export interface AttemptContext {
  /** 1 for the first try. */
  readonly number: number;
  /**
   * This attempt's signal. Its clock starts at the first call, so time spent queued behind a
   * concurrency limit is not counted. It aborts when the caller's signal does, or with an
   * `AttemptTimeout` after `attemptTimeoutMs` or at the deadline, whichever comes first; it is
   * released when the attempt's promise settles, so read the whole answer inside the attempt.
   */
  signal(): AbortSignal;
}

export type RetryStop =
  /** The outcome is not worth another try: a success, or a failure that would repeat. */
  | { kind: 'final' }
  | { kind: 'attempts' }
  /** The server asked for a longer wait than `maxDelayMs`. */
  | { kind: 'retry_after'; waitMs: number; maxDelayMs: number }
  /** The next wait would end past the deadline (or the deadline cut the last attempt). */
  | { kind: 'deadline'; deadlineMs: number }
  | { kind: 'aborted' };

export interface RetryEnd<T> {
  /** The last attempt's outcome. */
  outcome: T;
  attempts: number;
  stop: RetryStop;
}

/** Full jitter: a uniform delay in [0, min(max, base · 2^retry)), `retry` counting from 0. */
export function backoffDelayMs(
  retry: number,
  limits: Pick<RetryLimits, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  return random() * Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** retry);
}

/** Runs `attempt` until its outcome is final or a limit is reached; resolves to the last outcome and why it stopped. */
export async function retry<T>(
  attempt: (context: AttemptContext) => Promise<T>,
  policy: RetryPolicy<T>,
): Promise<RetryEnd<T>> {
  const now = policy.now ?? Date.now;
  const sleep = policy.sleep ?? pause;
  const deadlineMs = policy.deadlineMs ?? Infinity;
  const deadlineAt = now() + deadlineMs;
  for (let number = 1; ; number++) {
    const context = new Attempt(number, policy.attemptTimeoutMs ?? Infinity, deadlineAt, now, policy.signal);
    let outcome: T;
    try {
      outcome = await attempt(context);
    } finally {
      context.release();
    }
    const end = (stop: RetryStop): RetryEnd<T> => ({ outcome, attempts: number, stop });
    if (!policy.retryable(outcome)) return end({ kind: 'final' });
    if (policy.signal?.aborted) return end({ kind: 'aborted' });
    if (number >= policy.maxAttempts) return end({ kind: 'attempts' });
    const asked = policy.retryAfterMs?.(outcome) ?? null;
    if (asked !== null && asked > policy.maxDelayMs) {
      return end({ kind: 'retry_after', waitMs: asked, maxDelayMs: policy.maxDelayMs });
    }
    const delay = asked ?? backoffDelayMs(number - 1, policy, policy.random);
    if (now() + delay >= deadlineAt) return end({ kind: 'deadline', deadlineMs });
    await sleep(delay, policy.signal);
    if (policy.signal?.aborted) return end({ kind: 'aborted' });
  }
}

/** Why the retries ended, to follow the last failure in a message; null when the outcome was final. */
export function describeStop(end: RetryEnd<unknown>): string | null {
  const tries = end.attempts === 1 ? '1 attempt' : `${end.attempts} attempts`;
  switch (end.stop.kind) {
    case 'final':
      return null;
    case 'attempts':
      return `gave up after ${tries}`;
    case 'retry_after':
      return `asked to wait ${formatMs(end.stop.waitMs)}, more than the ${formatMs(end.stop.maxDelayMs)} allowed`;
    case 'deadline':
      return `gave up after ${tries}, at the ${formatMs(end.stop.deadlineMs)} deadline`;
    case 'aborted':
      return `cancelled after ${tries}`;
  }
}

const pause = (ms: number, signal?: AbortSignal): Promise<void> =>
  // An abort ends the wait early; the loop then sees the signal and stops.
  wait(ms, undefined, { signal }).catch(() => undefined);

/** setTimeout fires at once for a delay beyond this (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

class Attempt implements AttemptContext {
  private controller: AbortController | null = null;
  private timer: NodeJS.Timeout | undefined;
  private readonly onCancel = (): void => this.controller?.abort(this.cancel?.reason);

  constructor(
    readonly number: number,
    private readonly timeoutMs: number,
    private readonly deadlineAt: number,
    private readonly now: () => number,
    private readonly cancel: AbortSignal | undefined,
  ) {}

  signal(): AbortSignal {
    if (this.controller) return this.controller.signal;
    const controller = new AbortController();
    this.controller = controller;
    const leftMs = Math.max(0, this.deadlineAt - this.now());
    const atDeadline = leftMs < this.timeoutMs;
    const ms = Math.min(this.timeoutMs, leftMs);
    if (ms <= MAX_TIMER_MS) this.timer = setTimeout(() => controller.abort(new AttemptTimeout(ms, atDeadline)), ms);
    if (this.cancel?.aborted) controller.abort(this.cancel.reason);
    else this.cancel?.addEventListener('abort', this.onCancel, { once: true });
    return controller.signal;
  }

  release(): void {
    clearTimeout(this.timer);
    this.cancel?.removeEventListener('abort', this.onCancel);
  }
}
