import type { Problem } from './problem';

/**
 * What kind of failure an error is, in terms every caller understands. The kind alone decides
 * the HTTP status (`httpStatusOf`, and back with `kindOfHttpStatus`); the code only names the error.
 */
export type ErrorKind =
  /** The input is malformed or out of range (400). */
  | 'invalid'
  /** No credentials, or credentials the hub does not accept (401). */
  | 'unauthorized'
  /** Credentials that may not do this (403). */
  | 'forbidden'
  /** What the input names does not exist (404). */
  | 'not-found'
  /** It exists already, or is in a state that refuses this (409). */
  | 'conflict'
  /** It existed and is gone for good (410). */
  | 'gone'
  /** Larger than allowed (413). */
  | 'too-large'
  /** Sent in a form this route does not read (415). */
  | 'unsupported-media-type'
  /** Well-formed, and refused for what it says: a skill with manifest problems (422). */
  | 'unprocessable'
  /** Too many requests from this caller; `details.retry_after` says when to try again (429). */
  | 'rate-limited'
  /** Cannot be done now, through no fault of the input; worth retrying (503). */
  | 'unavailable'
  /** The failure is the program's own, or its operator's: nothing the caller can fix (500). */
  | 'internal';

/**
 * Base of every error a library throws on purpose. `kind` says what went wrong; `code` is stable
 * and specific (clients may switch on it); `problems` lists every fault found, not just the first.
 */
export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly problems: readonly Problem[] = [],
    /** Extra fields for the problem body (never secrets, never driver messages). */
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * The caller went away before its answer (it closed the connection), so the work for it was stopped.
 * Nobody reads what is sent back; it is not the hub's failure and not logged as one.
 */
export class AbandonedError extends DomainError {
  constructor() {
    super('unavailable', 'REQUEST.ABANDONED', 'The client closed the connection before the answer.');
  }
}
