/**
 * How a skill's tool call runs, from SwarmKit's `constraints` (timeout_seconds, retry, on_failure):
 *   - `timeout_seconds`: a call still running then is cancelled and answered with an error; without
 *     it the runtime's own call timeout applies.
 *   - `retry.attempts`: how many times a failed call is tried again (0, the default: never), after
 *     a delay by `retry.backoff`: exponential (1 s, 2 s, 4 s, … at most 30 s), linear (1 s, 2 s,
 *     3 s, …) or none (at once). A failure is a timeout, an error from the server or the
 *     connection, a result marked `isError`, or a decision result that breaks its schema.
 *   - `on_failure`, once the tries are spent: `fail` (the default) answers with the failure;
 *     `retry` tries once more even without `retry.attempts`, then fails; `escalate_to_human` asks
 *     the client's human whether to try again (and fails when nobody can be asked or they say
 *     no); `fallback` fails too, saying so: SwarmKit's schema names no fallback to run.
 * Pure: the constraints are read defensively, as the manifest gives them.
 */
export const ON_FAILURE = Object.freeze(['fail', 'retry', 'escalate_to_human', 'fallback'] as const);
export type OnFailure = (typeof ON_FAILURE)[number];
export const BACKOFFS = Object.freeze(['exponential', 'linear', 'none'] as const);
export type Backoff = (typeof BACKOFFS)[number];

export const RETRY_BASE_DELAY_MS = 1_000;
export const MAX_RETRY_DELAY_MS = 30_000;
/** More tries than any real skill asks for: a manifest cannot keep a call going for ever. */
export const MAX_RETRIES = 10;
/** An hour: the longest a skill may let one call run. */
export const MAX_TIMEOUT_SECONDS = 3_600;

export interface CallPolicy {
  timeoutMs: number;
  /** `constraints.timeout_seconds` set it (else the runtime's default did). */
  timeoutFromSkill: boolean;
  /** Tries after the first. */
  retries: number;
  backoff: Backoff;
  onFailure: OnFailure;
}

/** `constraints` as the skill writes it (anything unreadable falls back to the defaults). */
export function readCallPolicy(constraints: unknown, defaultTimeoutMs: number): CallPolicy {
  const given = record(constraints);
  const retry = record(given.retry);
  const seconds = given.timeout_seconds;
  const timeoutFromSkill = Number.isInteger(seconds) && (seconds as number) >= 1;
  const onFailure = oneOf(given.on_failure, ON_FAILURE, 'fail');
  const attempts = Number.isInteger(retry.attempts) ? Math.max(0, retry.attempts as number) : 0;
  return {
    timeoutMs: timeoutFromSkill ? Math.min(seconds as number, MAX_TIMEOUT_SECONDS) * 1000 : defaultTimeoutMs,
    timeoutFromSkill,
    retries: Math.min(onFailure === 'retry' ? Math.max(attempts, 1) : attempts, MAX_RETRIES),
    backoff: oneOf(retry.backoff, BACKOFFS, 'exponential'),
    onFailure,
  };
}

/** The wait before try number `retry` (1: the first retry). */
export function retryDelayMs(policy: Pick<CallPolicy, 'backoff'>, retry: number): number {
  const delay =
    policy.backoff === 'none'
      ? 0
      : policy.backoff === 'linear'
        ? RETRY_BASE_DELAY_MS * retry
        : RETRY_BASE_DELAY_MS * 2 ** (retry - 1);
  return Math.min(delay, MAX_RETRY_DELAY_MS);
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const oneOf = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  (allowed as readonly unknown[]).includes(value) ? (value as T) : fallback;
