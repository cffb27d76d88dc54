/**
 * Sends one HubClient request: a timeout per attempt, a cap on the answer's size, and retries
 * by `@skillhub/retry` (backoff, and its one Retry-After rule: a wait longer than `maxDelayMs`
 * ends the retries, and the wait goes on the error) only where sending the request again cannot
 * do its work twice.
 *
 * Which failures are retried, and why:
 * - GET, PUT and DELETE are idempotent (RFC 9110 §9.2.2): sending one twice has the effect of
 *   sending it once, so they are retried on 429, 502, 503, 504, network errors and timeouts.
 * - POST and PATCH are retried on 429 only. A 429 comes from the hub's rate limiter (or a proxy's)
 *   before any work is done, so nothing happened. A 502/503/504 or a timeout may come after the
 *   hub did the work (a gateway gave up while the publish was being written), and repeating it
 *   could create a second token, a second submission or a second revocation attempt.
 * - A 500 is the hub failing on this request; the same request would fail the same way.
 */
import { describeFailure, formatBytes, parseRetryAfterMs, readCapped, retry, type RetryLimits } from '@skillhub/retry';
import { HUB_RESPONSE_TOO_LARGE, HubResponseError, HubUnreachableError } from './hub-client.errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface TransportOptions extends Pick<RetryLimits, 'maxAttempts' | 'baseDelayMs' | 'maxDelayMs'> {
  /** The hub's origin and path prefix, without a trailing slash: `https://hub.example.com/skills`. */
  base: string;
  /** For messages: the origin alone. */
  origin: string;
  timeoutMs: number;
  fetch: typeof fetch;
  /** Absent: a real wait. */
  sleep?: (ms: number) => Promise<void>;
  random: () => number;
  now: () => number;
}

export interface HubRequest {
  method: HttpMethod;
  /** Escaped, from the hub's root: `/api/v1/skills/acme/weather`. */
  path: string;
  query?: URLSearchParams;
  headers: Record<string, string>;
  body?: Uint8Array | string;
  maxResponseBytes: number;
  /** Statuses besides 2xx that are answers, not failures (readiness answers 503 with its report). */
  answerStatuses?: readonly number[];
}

export interface HubResponse {
  status: number;
  headers: Headers;
  /** An error's body past the size cap is dropped (empty); its status still says what happened. */
  body: Buffer;
  /** `Retry-After` in milliseconds; null when absent or unreadable. */
  retryAfterMs: number | null;
}

const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT', 'DELETE']);
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);
const TOO_MANY_REQUESTS = 429;

export const isAnswer = (request: HubRequest, status: number): boolean =>
  (status >= 200 && status < 300) || (request.answerStatuses?.includes(status) ?? false);

type AttemptResult = { kind: 'answered'; response: HubResponse } | { kind: 'failed'; reason: string; error: unknown };

function isRetryable(request: HubRequest, result: AttemptResult): boolean {
  if (result.kind === 'failed') return IDEMPOTENT_METHODS.has(request.method);
  const { status } = result.response;
  if (isAnswer(request, status)) return false;
  return status === TOO_MANY_REQUESTS || (IDEMPOTENT_METHODS.has(request.method) && GATEWAY_STATUSES.has(status));
}

/** The final response (any status: the caller decides what a refusal means), after the retries allowed. */
export async function sendWithRetries(options: TransportOptions, request: HubRequest): Promise<HubResponse> {
  const query = request.query?.toString();
  const url = `${options.base}${request.path}${query ? `?${query}` : ''}`;
  const end = await retry((attempt) => attemptOnce(options, request, url, attempt.signal()), {
    ...options,
    attemptTimeoutMs: options.timeoutMs,
    retryable: (result) => isRetryable(request, result),
    retryAfterMs: (result) => (result.kind === 'answered' ? result.response.retryAfterMs : null),
  });
  const result = end.outcome;
  if (result.kind === 'answered') return result.response;
  throw new HubUnreachableError({
    method: request.method,
    path: request.path,
    origin: options.origin,
    attempts: end.attempts,
    reason: result.reason,
    cause: result.error,
  });
}

/** One try within one timeout, which covers reading the body as well as the headers. */
async function attemptOnce(
  options: TransportOptions,
  request: HubRequest,
  url: string,
  signal: AbortSignal,
): Promise<AttemptResult> {
  let response: Response;
  let body: Buffer | null;
  try {
    response = await options.fetch(url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      // A redirect is reported, never followed: the token must not travel to wherever a Location points.
      redirect: 'manual',
      signal,
    });
    body = await readCapped(response, request.maxResponseBytes);
  } catch (error) {
    return { kind: 'failed', reason: describeFailure({ error }), error };
  }
  if (body === null && isAnswer(request, response.status)) {
    throw new HubResponseError({
      method: request.method,
      path: request.path,
      status: response.status,
      code: HUB_RESPONSE_TOO_LARGE,
      reason: `the body is larger than ${formatBytes(request.maxResponseBytes)}`,
    });
  }
  return {
    kind: 'answered',
    response: {
      status: response.status,
      headers: response.headers,
      body: body ?? Buffer.alloc(0),
      retryAfterMs: parseRetryAfterMs(response.headers.get('retry-after'), options.now()),
    },
  };
}
