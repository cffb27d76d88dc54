/**
 * A search whose client goes away stops: its statement is cancelled in PostgreSQL, not left to run
 * (or wait) for nobody. The search is held on a table lock so it is surely still running when the
 * client closes its connection.
 */
import { request } from 'node:http';
import { waitFor } from './support/private-redis';
import { startTestHub, type TestHub } from './support/test-hub';

describe('a request whose client goes away', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startTestHub();
  });
  afterAll(() => hub?.close());

  const waitingOnLock = async (): Promise<number> => {
    const [row] = await hub.dataSource.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%search%'`,
    );
    return row.n;
  };

  it('has its search statement cancelled in the database', async () => {
    const lock = hub.dataSource.createQueryRunner();
    await lock.connect();
    await lock.startTransaction();
    try {
      await lock.query('LOCK TABLE "skills" IN ACCESS EXCLUSIVE MODE');
      const req = request(`${hub.baseUrl}/api/v1/skills?q=weather`);
      req.on('error', () => undefined);
      req.end();
      await waitFor(async () => (await waitingOnLock()) > 0, 30_000, 'the search to wait on the lock');

      req.destroy();
      await waitFor(async () => (await waitingOnLock()) === 0, 30_000, 'the search to be cancelled');
    } finally {
      await lock.rollbackTransaction();
      await lock.release();
    }
    // The hub goes on answering searches.
    expect((await hub.http.get('/api/v1/skills?q=weather')).status).toBe(200);
  });
});
