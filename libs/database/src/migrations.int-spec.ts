/** Entities and migrations must describe the same schema, on PostgreSQL and on the embedded PGlite. */
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@skillhub/testing';
import { buildDataSourceOptions } from './data-source';
import { startEmbeddedDatabase } from './embedded-database';

/**
 * TypeORM 0.3's PostgreSQL query runner reads the schema with `Promise.all` over its one
 * connection (fixed upstream in TypeORM 1), and pg deprecates a query sent while another runs on
 * the same client. The schema builder's queries are put in line here, each sent when the one
 * before it has answered.
 */
function oneQueryAtATime(ds: DataSource): void {
  const create = ds.createQueryRunner.bind(ds);
  ds.createQueryRunner = (mode) => {
    const runner = create(mode);
    const query = runner.query.bind(runner);
    let previous: Promise<unknown> = Promise.resolve();
    runner.query = ((...args: Parameters<typeof query>) => {
      const next = previous.then(() => query(...args));
      previous = next.catch(() => undefined);
      return next;
    }) as typeof runner.query;
    return runner;
  };
}

async function pendingSchemaChanges(url: string): Promise<string[]> {
  const ds = new DataSource(buildDataSourceOptions(url, { poolSize: 1, migrationsRun: true }));
  await ds.initialize();
  oneQueryAtATime(ds);
  try {
    const log = await ds.driver.createSchemaBuilder().log();
    return log.upQueries.map((q) => q.query);
  } finally {
    await ds.destroy();
  }
}

describe('migrations', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
  });
  afterAll(() => db.drop());

  it('leave nothing for migration:generate to add on PostgreSQL (entity/migration drift)', async () => {
    expect(await pendingSchemaChanges(db.url)).toEqual([]);
  });

  it('apply on the embedded PGlite and leave no drift there either', async () => {
    const embedded = await startEmbeddedDatabase(null);
    try {
      expect(await pendingSchemaChanges(embedded.url)).toEqual([]);
    } finally {
      await embedded.stop();
    }
  });
});
