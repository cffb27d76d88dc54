/** What the hub client and the package prober share about retrying HTTP: backoff, Retry-After, capped bodies. */

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Full jitter: a uniform delay in [0, min(max, base · 2^retry)), `retry` counting from 0. */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number): number {
  return random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
}

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfterMs(header: string | null, now: number): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d{1,10}$/.test(value)) return Number(value) * 1000;
  // Every HTTP-date form starts with a day name; Date.parse alone would read `1.5` as a date.
  if (!/^[A-Za-z]{3}/.test(value)) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The body, or null as soon as it exceeds `maxBytes` (the rest is never read). */
export async function readCapped(response: Response, maxBytes: number): Promise<Buffer | null> {
  if (response.body === null) return Buffer.alloc(0);
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body.cancel();
    return null;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
}

export const formatBytes = (bytes: number): string =>
  bytes % 1_048_576 === 0 ? `${bytes / 1_048_576} MiB` : `${bytes} bytes`;
