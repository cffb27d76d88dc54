/**
 * The pg client of the hub's connection pools: pg's own, but for the promise form of `query`,
 * which is answered through its callback form. A result read through pg's promise form stayed
 * alive through the next young-generation collection of V8, so every query's rows were moved to
 * the old generation and the full collections that pause requests came about once a second under
 * a search load; through the callback form nothing is kept (docs/architecture.md, "The HTTP
 * server and the garbage collector").
 */
import { Client } from 'pg';

type Callback = (err: Error | null, result: unknown) => void;

const isFunction = (value: unknown): value is Callback => typeof value === 'function';

export class HubPgClient extends Client {}

/** pg's own `query`, every form of it. */
const pgQuery = Client.prototype.query as unknown as (this: Client, ...args: unknown[]) => unknown;

function queryThroughCallback(this: Client, config: unknown, values?: unknown, callback?: unknown): unknown {
  // A callback given (as the values, the callback, or the config's), a submittable (a cursor, a
  // stream), or no query at all (pg throws): pg answers those as it always does.
  const given = config as { submit?: unknown; callback?: unknown } | null | undefined;
  if (
    given == null ||
    isFunction(values) ||
    isFunction(callback) ||
    isFunction(given.submit) ||
    isFunction(given.callback)
  ) {
    return pgQuery.call(this, config, values, callback);
  }
  return new Promise((resolve, reject) =>
    pgQuery.call(this, config, values, (err: Error | null, result: unknown) => (err ? reject(err) : resolve(result))),
  );
}

// On the prototype: pg's many overloads of `query` cannot be restated by an override in TypeScript.
HubPgClient.prototype.query = queryThroughCallback as unknown as Client['query'];
