/**
 * Named prepared statements for the search repository's statements (docs/search.md, "Prepared
 * statements"). An unnamed statement is parsed and analysed again on every execution; at 100,000
 * skills that was a third of a walked search (about 4 ms of 12). A named one is parsed once per
 * connection; its plan is still made for each execution's values (PLAN_CACHE_MODE, on every
 * connection), because a search's plan settings (SET LOCAL) would not reach a cached generic plan.
 */
import { createHash } from 'node:crypto';
import { type EntityManager, QueryFailedError } from 'typeorm';

/**
 * Texts one connection prepares at most (each holds ~100 KB of the server's memory): a search
 * workload uses a few dozen. Past it, a new text runs unnamed; nothing is evicted (pg keeps no
 * way to forget a statement), and a connection the pool closes when idle takes its statements along.
 */
export const PREPARED_PER_CONNECTION = 64;

/** The part of a pg client this uses. */
interface PgClient {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** Per pg client: the names it has prepared (or is preparing). */
const preparedBy = new WeakMap<PgClient, Set<string>>();

/**
 * Rows of `text` run with `values` as a named prepared statement: on the manager's transaction
 * connection, or on a pooled one outside a transaction. Errors are TypeORM's QueryFailedError,
 * as `manager.query` gives them.
 */
export async function preparedQuery<T>(m: EntityManager, text: string, values: unknown[]): Promise<T[]> {
  const runner = m.queryRunner ?? m.connection.createQueryRunner();
  try {
    const client = (await runner.connect()) as PgClient;
    const name = await nameFor(client, text);
    const { rows } = await client.query({ name, text, values });
    return rows as T[];
  } catch (err) {
    throw err instanceof QueryFailedError ? err : new QueryFailedError(text, values, err as Error);
  } finally {
    if (!m.queryRunner) await runner.release();
  }
}

/**
 * The statement name of `text` on `client`, or undefined (unnamed) once it has prepared
 * PREPARED_PER_CONNECTION others. A client seen the first time forgets every prepared statement
 * first (`DEALLOCATE ALL`): the embedded database is one server session for every connection
 * made to it in turn, so statements a closed connection prepared are still there, under the
 * names a new client would prepare again.
 */
async function nameFor(client: PgClient, text: string): Promise<string | undefined> {
  let names = preparedBy.get(client);
  if (!names) {
    names = new Set();
    preparedBy.set(client, names);
    await client.query({ text: 'DEALLOCATE ALL', values: [] });
  }
  const name = `skillhub_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
  if (names.has(name)) return name;
  if (names.size >= PREPARED_PER_CONNECTION) return undefined;
  names.add(name);
  return name;
}
