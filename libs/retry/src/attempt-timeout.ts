/** How an attempt that ran out of time is told apart from other aborts, and how that reads. */

/** `250 ms`, `30 s`. */
export const formatMs = (ms: number): string =>
  ms >= 1_000 && ms % 1_000 === 0 ? `${ms / 1_000} s` : `${Math.round(ms)} ms`;

export const timeoutText = (timeoutMs: number, atDeadline: boolean): string =>
  `timed out after ${formatMs(timeoutMs)}${atDeadline ? ' (the deadline)' : ''}`;

/** Why an attempt's signal aborted when its time ran out: fetch rejects with it as is. Its text holds numbers only. */
export class AttemptTimeout extends Error {
  override readonly name = 'TimeoutError';

  constructor(
    readonly timeoutMs: number,
    /** Cut by the overall deadline rather than by the attempt's own timeout. */
    readonly atDeadline: boolean,
  ) {
    super(timeoutText(timeoutMs, atDeadline));
  }
}
