/**
 * The pg client of the hub's connection pools: pg's own, but for the promise form of `query`,
 * which is answered through its callback form, and with `cancelRunning`. A result read through pg's promise form stayed
 * alive through the next young-generation collection of V8, so every query's rows were moved to
 * the old generation and the full collections that pause requests came about once a second under
 * a search load; through the callback form nothing is kept (docs/architecture.md, "The HTTP
 * server and the garbage collector").
 */
import { connect } from 'node:net';
import { Client } from 'pg';

type Callback = (err: Error | null, result: unknown) => void;

const isFunction = (value: unknown): value is Callback => typeof value === 'function';

/** PostgreSQL's CancelRequest: its length, then the code that says what it is. */
const CANCEL_REQUEST = { length: 16, code: 80877102 };

export class HubPgClient extends Client {
  /**
   * Asks the server to stop the statement this connection runs now (PostgreSQL's CancelRequest, sent
   * on a short connection of its own, as psql's Ctrl-C does); the statement then fails with 57014.
   * Resolves `true` once the server has closed that connection: it has then signalled the backend,
   * which drops a cancel that finds it idle before it reads its next command, so the connection is
   * safe to use again. `false` if that is not known (no answer within 5 s): the caller must then not
   * hand the connection to anyone else. The embedded database ignores the request.
   */
  cancelRunning(): Promise<boolean> {
    const { processID, secretKey } = this as unknown as { processID: number | null; secretKey: number | null };
    if (processID === null || secretKey === null) return Promise.resolve(false);
    const packet = Buffer.alloc(CANCEL_REQUEST.length);
    packet.writeInt32BE(CANCEL_REQUEST.length, 0);
    packet.writeInt32BE(CANCEL_REQUEST.code, 4);
    packet.writeInt32BE(processID, 8);
    packet.writeInt32BE(secretKey, 12);
    const socket = this.host.startsWith('/')
      ? connect(`${this.host}/.s.PGSQL.${this.port}`)
      : connect(this.port, this.host);
    return new Promise((done) => {
      let failed = false;
      socket.on('error', () => (failed = true));
      socket.setTimeout(5_000, () => {
        failed = true;
        socket.destroy();
      });
      socket.on('connect', () => socket.end(packet));
      socket.on('close', () => done(!failed));
    });
  }
}

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
