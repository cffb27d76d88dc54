/**
 * When a failed query means "the database cannot serve now" rather than a bug: the server is down
 * or restarting, every connection is taken, or its disk is full. Callers answer these with 503 and
 * `Retry-After` (hub-api's problem filter); anything else stays a 500.
 */
import { DomainError } from '@skillhub/errors';
import { QueryFailedError } from 'typeorm';

/** Seconds a client should wait before trying again, by cause. */
const RETRY_AFTER = { busy: 1, down: 5, full: 30 } as const;
type Cause = keyof typeof RETRY_AFTER;

/** SQLSTATE classes and codes that are the server's state, not the statement's fault. */
const SQLSTATE_CAUSES: ReadonlyArray<[RegExp, Cause]> = [
  [/^08/, 'down'], // connection exception
  [/^57P0[123]$/, 'down'], // admin shutdown, crash shutdown, cannot connect now
  [/^53100$/, 'full'], // disk full
  [/^53/, 'busy'], // insufficient resources: out of memory, too many connections
  [/^58030$/, 'full'], // I/O error (as a full or failing disk answers)
  [/^40(001|P01)$/, 'busy'], // serialization failure, deadlock: the same request succeeds on a retry
];

/** System errors: a server that is gone or unreachable, and a full disk (the embedded database's own). */
const SYSTEM_CODES = new Map<string, Cause>([
  ...['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'].map(
    (code): [string, Cause] => [code, 'down'],
  ),
  ['ENOSPC', 'full'],
]);

/** What node-postgres says when the pool or a connection gives up (it sets no code). */
const DRIVER_MESSAGES: ReadonlyArray<[RegExp, Cause]> = [
  [/^timeout exceeded when trying to connect$/, 'busy'],
  [/^Connection terminated/, 'down'],
  [/is not queryable$/, 'down'],
];

const DETAIL: Record<Cause, string> = {
  busy: 'The hub has more requests than database connections just now; try again shortly.',
  down: 'The hub cannot reach its database just now; try again shortly.',
  full: 'The hub cannot write to its database just now (its disk is full); try again later.',
};

export class DatabaseUnavailableError extends DomainError {
  constructor(readonly reason: Cause) {
    super('unavailable', 'DATABASE.UNAVAILABLE', DETAIL[reason], [], { retry_after: RETRY_AFTER[reason] });
  }
}

/** `err` as a DatabaseUnavailableError when it means the database cannot serve now; else null. */
export function databaseUnavailable(err: unknown): DatabaseUnavailableError | null {
  const reason = reasonOf(err instanceof QueryFailedError ? err.driverError : err);
  return reason ? new DatabaseUnavailableError(reason) : null;
}

function reasonOf(err: unknown): Cause | null {
  // Read by shape: a socket error comes from Node's own realm, which is not always this one's `Error`.
  if (typeof err !== 'object' || err === null) return null;
  const { code, message, name } = err as { code?: unknown; message?: unknown; name?: unknown };
  // TypeORM releases a query runner whose connection broke; the request's next query (or its
  // commit) on it says so, by one of two names.
  if (name === 'QueryRunnerProviderAlreadyReleasedError' || name === 'QueryRunnerAlreadyReleasedError') return 'down';
  if (typeof code === 'string') {
    const system = SYSTEM_CODES.get(code);
    if (system) return system;
    const sql = SQLSTATE_CAUSES.find(([pattern]) => pattern.test(code));
    if (sql) return sql[1];
  }
  if (typeof message !== 'string') return null;
  return DRIVER_MESSAGES.find(([pattern]) => pattern.test(message))?.[1] ?? null;
}
