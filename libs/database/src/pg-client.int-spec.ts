/**
 * The hub's pg client on real PostgreSQL: every form of `query` answers as pg's own does, the
 * hub's pools use it, and the results of its promise form are not moved to V8's old generation,
 * where pg's own promise form moves nearly all of them (pg-client.ts).
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client, DatabaseError } from 'pg';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@skillhub/testing';
import { buildDataSourceOptions } from './data-source';
import { HubPgClient } from './pg-client';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
const oldGenerationUsed = (): number =>
  getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;

/** 2,000 rows of ~100 bytes each on the heap: a result of ~200 KB, 20 MB over the 100 queries. */
const ROWS = "SELECT g, repeat('x', 40) AS pad FROM generate_series(1, 2000) g";

describe('HubPgClient on PostgreSQL', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  async function withClient<T>(ClientClass: typeof Client, work: (client: Client) => Promise<T>): Promise<T> {
    const client = new ClientClass({ connectionString: db.url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  it('answers the promise form with the result, and rejects with pg’s own error', async () => {
    await withClient(HubPgClient, async (client) => {
      const { rows } = await client.query<{ n: number }>('SELECT $1::int + 1 AS n', [41]);
      expect(rows).toEqual([{ n: 42 }]);
      const named = await client.query({ name: 'add-one', text: 'SELECT $1::int + 1 AS n', values: [1] });
      expect(named.rows).toEqual([{ n: 2 }]);
      const failure = await client.query('SELECT * FROM no_such_table').catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(DatabaseError);
      expect(failure).toMatchObject({ code: '42P01' });
      // The connection is still usable after a failed query.
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    });
  });

  it('answers the callback forms through the callback, returning nothing', async () => {
    await withClient(HubPgClient, async (client) => {
      const viaValues = await new Promise((resolve, reject) => {
        const returned: unknown = client.query('SELECT $1::text AS t', ['a'], (err, res) =>
          err ? reject(err) : resolve({ returned, rows: res.rows }),
        );
      });
      expect(viaValues).toEqual({ returned: undefined, rows: [{ t: 'a' }] });
      const viaSecond = await new Promise((resolve, reject) =>
        client.query('SELECT 2 AS two', (err, res) => (err ? reject(err) : resolve(res.rows))),
      );
      expect(viaSecond).toEqual([{ two: 2 }]);
    });
  });

  it("is the client of the hub's connection pools", async () => {
    const ds = new DataSource(buildDataSourceOptions(db.url, { poolSize: 1 }));
    await ds.initialize();
    try {
      const runner = ds.createQueryRunner();
      try {
        expect(await runner.connect()).toBeInstanceOf(HubPgClient);
      } finally {
        await runner.release();
      }
    } finally {
      await ds.destroy();
    }
  });

  /** How much the old generation grew over 100 queries read through the promise form, each followed by a young-generation collection. */
  const promotedBy = (ClientClass: typeof Client): Promise<number> =>
    withClient(ClientClass, async (client) => {
      for (let i = 0; i < 5; i++) await client.query(ROWS);
      gc();
      const before = oldGenerationUsed();
      for (let i = 0; i < 100; i++) {
        await client.query(ROWS);
        await new Promise((resolve) => setImmediate(resolve));
        gc({ type: 'minor' });
      }
      return oldGenerationUsed() - before;
    });

  it('keeps no result of its promise form alive into the old generation, where pg’s own keeps most', async () => {
    // What else the process allocates meanwhile (a test worker's own work) grows the old
    // generation too: up to ~1.4 MB seen in CI, so the two are compared with each other.
    const own = await promotedBy(Client);
    const hubs = await promotedBy(HubPgClient);
    expect(own).toBeGreaterThan(8 * 1024 * 1024);
    expect(hubs).toBeLessThan(own / 5);
  });
});
