/**
 * What a HubClient call throws: the hub's own refusal (HubApiError, with its problem document),
 * no answer at all (HubUnreachableError), an answer the client cannot use (HubResponseError), or
 * a request the client will not send (HubRequestError). Each message is one line naming the
 * method and path, and none carries the token: no request header goes into an error, and the
 * client redacts the token from whatever the hub sends back before it builds one.
 */
import { DomainError, kindOfHttpStatus, type Problem } from '@skillhub/errors';
import type { ProblemDocument } from './hub-api';

export const HUB_UNREACHABLE = 'HUB.UNREACHABLE';
export const HUB_MALFORMED_RESPONSE = 'HUB.MALFORMED_RESPONSE';
export const HUB_RESPONSE_TOO_LARGE = 'HUB.RESPONSE_TOO_LARGE';
export const HUB_BUNDLE_DIGEST_MISMATCH = 'HUB.BUNDLE_DIGEST_MISMATCH';
export const HUB_INVALID_REQUEST = 'HUB.INVALID_REQUEST';

export type HubResponseErrorCode =
  typeof HUB_MALFORMED_RESPONSE | typeof HUB_RESPONSE_TOO_LARGE | typeof HUB_BUNDLE_DIGEST_MISMATCH;

/** A detail longer than this is cut: a message is read in a terminal, the full text stays on the error. */
const MAX_MESSAGE_DETAIL = 300;

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE_DETAIL ? `${flat.slice(0, MAX_MESSAGE_DETAIL - 1)}…` : flat;
}

export interface HubApiErrorInit {
  method: string;
  /** The path as sent, without the query. */
  path: string;
  /** The HTTP status (authoritative over the body's `status`). */
  status: number;
  problem: ProblemDocument;
  /** From `Retry-After`, when the hub asked for a wait longer than the client would make. */
  retryAfterMs: number | null;
}

/** The hub answered, and refused: a non-2xx status with its RFC 9457 problem document. */
export class HubApiError extends DomainError {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly detail: string;
  readonly title: string;
  readonly type: string;
  readonly instance: string | undefined;
  readonly retryAfterMs: number | null;

  constructor({ method, path, status, problem, retryAfterMs }: HubApiErrorInit) {
    const { type, title, status: _bodyStatus, detail, code, instance, errors = [], ...extras } = problem;
    super(
      kindOfHttpStatus(status),
      code,
      HubApiError.describe(method, path, status, code, detail, errors),
      errors,
      extras,
    );
    this.method = method;
    this.path = path;
    this.status = status;
    this.detail = detail;
    this.title = title;
    this.type = type;
    this.instance = instance;
    this.retryAfterMs = retryAfterMs;
  }

  /** The problem document's `errors` (DomainError calls them `problems`). */
  get errors(): readonly Problem[] {
    return this.problems;
  }

  /** `POST /api/v1/skills → 409 SKILL.VERSION_EXISTS: … (path: message; +2 more)`. */
  private static describe(
    method: string,
    path: string,
    status: number,
    code: string,
    detail: string,
    errors: readonly Problem[],
  ): string {
    const [first] = errors;
    const more = errors.length > 1 ? `; +${errors.length - 1} more` : '';
    const firstError = first ? ` (${first.path ? `${first.path}: ` : ''}${first.message}${more})` : '';
    return oneLine(`${method} ${path} → ${status} ${code}: ${detail}${firstError}`);
  }
}

export interface HubUnreachableErrorInit {
  method: string;
  path: string;
  /** The hub's origin, never its credentials (the client refuses URLs that carry any). */
  origin: string;
  attempts: number;
  /** `timed out after 10000 ms`, `connection refused (ECONNREFUSED)`. */
  reason: string;
  cause: unknown;
}

/** No answer: every attempt failed on the network or ran past the timeout. */
export class HubUnreachableError extends DomainError {
  readonly method: string;
  readonly path: string;
  readonly attempts: number;

  constructor({ method, path, origin, attempts, reason, cause }: HubUnreachableErrorInit) {
    const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
    super('unavailable', HUB_UNREACHABLE, `${method} ${path}: no answer from ${origin} after ${tries} (${reason})`);
    this.method = method;
    this.path = path;
    this.attempts = attempts;
    this.cause = cause;
  }
}

export interface HubResponseErrorInit {
  method: string;
  path: string;
  status: number;
  code: HubResponseErrorCode;
  /** Completes "…, but <reason>": `the body is not JSON (text/html)`. */
  reason: string;
}

/** The hub answered with success, but with a body the client cannot use. */
export class HubResponseError extends DomainError {
  readonly method: string;
  readonly path: string;
  readonly status: number;

  constructor({ method, path, status, code, reason }: HubResponseErrorInit) {
    // The hub's (or a proxy's) fault, not the caller's.
    super('internal', code, oneLine(`${method} ${path} → ${status}, but ${reason}`));
    this.method = method;
    this.path = path;
    this.status = status;
  }
}

/** The client will not send this request (a path segment URL parsing would rewrite, a bad option). */
export class HubRequestError extends DomainError {
  constructor(message: string) {
    super('invalid', HUB_INVALID_REQUEST, message);
  }
}
