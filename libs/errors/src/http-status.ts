/**
 * Each kind of error as an HTTP status, and back: the hub answers a domain error with the status
 * of its kind (apps/hub-api/src/common/problem.filter.ts), and a client reads the kind of the
 * hub's refusal from the status it got. One table, so the two directions cannot drift apart.
 */
import type { ErrorKind } from './domain-error';

const STATUS_OF_KIND: Readonly<Record<ErrorKind, number>> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  gone: 410,
  'too-large': 413,
  'unsupported-media-type': 415,
  unprocessable: 422,
  'rate-limited': 429,
  unavailable: 503,
  internal: 500,
};

const KIND_OF_STATUS = new Map(Object.entries(STATUS_OF_KIND).map(([kind, status]) => [status, kind as ErrorKind]));

export const httpStatusOf = (kind: ErrorKind): number => STATUS_OF_KIND[kind];

/** A status no kind answers with is read as the closest: another 4xx as `invalid`, anything else as `internal`. */
export function kindOfHttpStatus(status: number): ErrorKind {
  return KIND_OF_STATUS.get(status) ?? (status >= 400 && status < 500 ? 'invalid' : 'internal');
}
