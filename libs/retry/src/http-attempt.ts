/**
 * What the HTTP callers of `retry` share about one attempt: reading `Retry-After`, reading a
 * body under a size cap, and saying what a failed attempt was.
 */
import { timeoutText } from './attempt-timeout';

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

/** A failed attempt: what fetch or the body read threw, or a status the caller does not take as an answer. */
export type FailedAttempt = { error: unknown } | { status: number };

/** Node's and undici's codes, by what they mean to someone reading the message. */
const CODE_MEANINGS: ReadonlyArray<[RegExp, string]> = [
  [/^ECONNREFUSED$/, 'connection refused'],
  [/^(ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NONAME|EAI_NODATA)$/, 'DNS lookup failed'],
  [
    /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|EPROTO$)/,
    'TLS failed',
  ],
  [/^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/, 'connection closed before the answer'],
  [/^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT)$/, 'timed out'],
  [/^(EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN)$/, 'host unreachable'],
];

/**
 * What a failed attempt was: `timed out after 10 s`, `connection refused (ECONNREFUSED)`,
 * `DNS lookup failed (ENOTFOUND)`, `TLS failed (CERT_HAS_EXPIRED)`, `HTTP 503`. The text is built
 * from fixed words, numbers and error codes only, never from an error's message, which can quote
 * the URL (credentials and all) or a header. Duck-typed: fetch's errors may come from another
 * realm (a test sandbox), where `instanceof` fails.
 */
export function describeFailure(failure: FailedAttempt): string {
  if ('status' in failure) return `HTTP ${failure.status}`;
  const { name, timeoutMs, atDeadline } = (failure.error ?? {}) as {
    name?: unknown;
    timeoutMs?: unknown;
    atDeadline?: unknown;
  };
  if (name === 'TimeoutError') {
    return typeof timeoutMs === 'number' ? timeoutText(timeoutMs, atDeadline === true) : 'timed out';
  }
  if (name === 'AbortError') return 'cancelled';
  const code = errorCode(failure.error);
  if (code === null) return 'network error';
  const meaning = CODE_MEANINGS.find(([pattern]) => pattern.test(code))?.[1] ?? 'network error';
  return `${meaning} (${code})`;
}

/** The first code on the error or its causes (undici puts the socket's error in `cause`). */
function errorCode(error: unknown): string | null {
  let current = error as { code?: unknown; cause?: unknown; errors?: unknown } | null | undefined;
  for (let depth = 0; depth < 4 && current; depth++) {
    if (typeof current.code === 'string' && /^[A-Z][A-Z0-9_]{1,63}$/.test(current.code)) return current.code;
    // Happy eyeballs: one error per address tried, all of a kind.
    const first: unknown = Array.isArray(current.errors) ? current.errors[0] : undefined;
    current = (current.cause ?? first) as typeof current;
  }
  return null;
}
