/**
 * Work stopped when its caller goes away, on real PostgreSQL: nothing starts for a caller already
 * gone, the running statement is cancelled on the server (not left to run to its end), and the
 * connection it ran on goes back to the pool, idle, once the server has taken the cancel.
 */
import { AbandonedError } from '@skillhub/errors';
import { unlessAbandoned } from './abandonable';
import { openTestDatabase, type OpenDatabase } from './testing/database-fixtures';

const SLEEP = 'SELECT pg_sleep(600) /* abandonable-spec */';
const running = async (db: OpenDatabase): Promise<number> => {
  const [row] = await db.ds.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = $1 AND state = 'active'`,
    [SLEEP],
  );
  return row.n;
};

describe('unlessAbandoned on PostgreSQL', () => {
  let db: OpenDatabase;
  beforeAll(async () => {
    db = await openTestDatabase(3);
  });
  afterAll(() => db.close());

  it('cancels the statement running when the caller goes, and keeps its connection', async () => {
    const gone = new AbortController();
    let pid = 0;
    const work = db.ds.transaction((m) =>
      unlessAbandoned(m, gone.signal, async () => {
        [{ pid }] = await m.query('SELECT pg_backend_pid() AS pid');
        return m.query(SLEEP);
      }),
    );
    const settled = work.catch((err: unknown) => err);
    for (let i = 0; i < 600 && (await running(db)) === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await running(db)).toBe(1);

    gone.abort();
    expect(await settled).toBeInstanceOf(AbandonedError);
    expect(await running(db)).toBe(0);
    // Its connection is kept (the one that answers this, or idle in the pool).
    const [backend] = await db.ds.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1', [pid]);
    expect(backend.n).toBe(1);
    // Statements that follow on the pool's connections run to their end: the cancel was spent.
    for (let i = 0; i < 6; i++)
      expect(await db.ds.query('SELECT pg_sleep(0.05), 1 AS one')).toEqual([{ pg_sleep: '', one: 1 }]);
  });

  it('starts nothing for a caller already gone', async () => {
    const gone = new AbortController();
    gone.abort();
    let ran = false;
    const result = db.ds.transaction((m) =>
      unlessAbandoned(m, gone.signal, async () => {
        ran = true;
      }),
    );
    await expect(result).rejects.toBeInstanceOf(AbandonedError);
    expect(ran).toBe(false);
  });

  it('returns what the work gives while its caller waits', async () => {
    const waiting = new AbortController();
    const rows = await db.ds.transaction((m) => unlessAbandoned(m, waiting.signal, () => m.query('SELECT 2 AS two')));
    expect(rows).toEqual([{ two: 2 }]);
  });
});
