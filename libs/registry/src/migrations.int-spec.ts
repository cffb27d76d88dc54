/** Entities and migrations must describe the same schema, on PostgreSQL and on the embedded PGlite. */
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@skillhub/testing';
import { buildDataSourceOptions } from './data-source';
import { startEmbeddedDatabase } from './embedded-database';

async function pendingSchemaChanges(url: string): Promise<string[]> {
  const ds = new DataSource(buildDataSourceOptions(url, { poolSize: 1, migrationsRun: true }));
  await ds.initialize();
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
