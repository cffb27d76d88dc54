/**
 * Named prepared statements on real PostgreSQL and on the embedded PGlite: a text is parsed once
 * per connection, a connection prepares a bounded number, plans stay custom, errors read as
 * TypeORM's, and a new connection to the embedded database prepares what a closed one had.
 */
import { DataSource, QueryFailedError } from 'typeorm';
import { buildDataSourceOptions } from '../data-source';
import { startEmbeddedDatabase } from '../embedded-database';
import { openTestDatabase, type OpenDatabase } from '../testing/database-fixtures';
import { PREPARED_PER_CONNECTION, preparedQuery } from './prepared-query';

const ADD = 'SELECT $1::int + 1 AS n';

describe('preparedQuery on PostgreSQL', () => {
  let db: OpenDatabase;
  beforeAll(async () => {
    db = await openTestDatabase(2);
  });
  afterAll(() => db.close());

  it('prepares a text once on a connection and runs it again by name, with each call’s values', async () => {
    await db.ds.transaction(async (m) => {
      expect(await preparedQuery(m, ADD, [1])).toEqual([{ n: 2 }]);
      expect(await preparedQuery(m, ADD, [41])).toEqual([{ n: 42 }]);
      const prepared: Array<{ statement: string; calls: string }> = await m.query(
        `SELECT statement, generic_plans + custom_plans AS calls FROM pg_prepared_statements`,
      );
      expect(prepared).toEqual([{ statement: ADD, calls: '2' }]);
    });
  });

  it('plans every execution for its own values (no cached generic plan)', async () => {
    await db.ds.transaction(async (m) => {
      for (let i = 0; i < 8; i++) await preparedQuery(m, ADD, [i]);
      const [mode]: Array<{ plan_cache_mode: string }> = await m.query('SHOW plan_cache_mode');
      expect(mode!.plan_cache_mode).toBe('force_custom_plan');
      const [plans]: Array<{ generic_plans: string }> = await m.query(
        `SELECT generic_plans FROM pg_prepared_statements WHERE statement = $1`,
        [ADD],
      );
      expect(plans!.generic_plans).toBe('0');
    });
  });

  it(`prepares at most ${PREPARED_PER_CONNECTION} texts on a connection; later ones still run, unnamed`, async () => {
    await db.ds.transaction(async (m) => {
      const extra = 5;
      for (let i = 0; i < PREPARED_PER_CONNECTION + extra; i++) {
        expect(await preparedQuery(m, `SELECT $1::int * ${i + 2} AS n`, [3])).toEqual([{ n: 3 * (i + 2) }]);
      }
      const [{ prepared }]: Array<{ prepared: number }> = await m.query(
        'SELECT count(*)::int AS prepared FROM pg_prepared_statements',
      );
      expect(prepared).toBe(PREPARED_PER_CONNECTION);
    });
  });

  it('runs on a pooled connection outside a transaction and gives it back', async () => {
    for (let i = 0; i < 10; i++) expect(await preparedQuery(db.ds.manager, ADD, [i])).toEqual([{ n: i + 1 }]);
    const [{ idle }]: Array<{ idle: number }> = await db.ds.query('SELECT 1 AS idle');
    expect(idle).toBe(1);
  });

  it('fails as TypeORM does, with the driver’s error (a class 22 error is still the client’s)', async () => {
    const failure = preparedQuery(db.ds.manager, 'SELECT $1::int AS n', ['not a number']);
    await expect(failure).rejects.toBeInstanceOf(QueryFailedError);
    await expect(failure).rejects.toMatchObject({ driverError: { code: '22P02' } });
  });
});

describe('preparedQuery on the embedded database', () => {
  it('prepares again on a new connection what a closed one had prepared (one server session)', async () => {
    const embedded = await startEmbeddedDatabase(null);
    try {
      for (let connection = 0; connection < 2; connection++) {
        const ds = new DataSource(buildDataSourceOptions(embedded.url, { poolSize: 1 }));
        await ds.initialize();
        try {
          expect(await preparedQuery(ds.manager, ADD, [connection])).toEqual([{ n: connection + 1 }]);
          expect(await preparedQuery(ds.manager, ADD, [connection])).toEqual([{ n: connection + 1 }]);
          const [mode]: Array<{ plan_cache_mode: string }> = await ds.query('SHOW plan_cache_mode');
          expect(mode!.plan_cache_mode).toBe('force_custom_plan');
        } finally {
          await ds.destroy();
        }
        // The socket server takes one connection at a time and lets a closed one go on a later turn.
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      await embedded.stop();
    }
  }, 120_000);
});
