/**
 * Work on one connection that stops when its caller goes away: hub-api aborts a request's signal
 * when the client closes the connection before the answer (request-context.ts). Nothing starts for
 * a caller already gone (a request that waited for a pooled connection behind others), and the
 * statement running when it goes is cancelled on the server, so a burst of abandoned searches
 * leaves no backlog behind it. The connection goes back to the pool once the server has taken the
 * cancel (a cancel still on its way could stop another request's statement), or is closed if that
 * is not known.
 */
import type { EntityManager } from 'typeorm';
import { AbandonedError } from '@skillhub/errors';
import type { HubPgClient } from './pg-client';

/** Runs `work` in the transaction of `m`, stopped when `signal` aborts. */
export async function unlessAbandoned<T>(
  m: EntityManager,
  signal: AbortSignal | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (!signal) return work();
  if (signal.aborted) throw new AbandonedError();
  const client = (await m.queryRunner!.connect()) as HubPgClient;
  let cancelled: Promise<boolean> | null = null;
  const cancel = (): void => void (cancelled = client.cancelRunning());
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const result = await work();
    if (signal.aborted) throw new AbandonedError();
    return result;
  } catch (err) {
    throw signal.aborted ? new AbandonedError() : err;
  } finally {
    signal.removeEventListener('abort', cancel);
    if (cancelled && !(await cancelled)) await client.end().catch(() => undefined);
  }
}
