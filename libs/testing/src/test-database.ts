/**
 * A database of a test file's own on the machine's PostgreSQL: created from
 * scratch, migrated, and dropped after. Names carry the run id, so teardown can
 * remove what a crashed run left, and the guard refuses any other name.
 */
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '@skillhub/database';
import { assertTestDatabaseName, dropTestDatabase, withAdminClient } from './test-admin';
import { TEST_DATABASE_PREFIX, testAdminDatabaseUrl, testRunId } from './test-env';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

const urlFor = (name: string): string => {
  const url = new URL(testAdminDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
};

/** Creates and migrates a fresh database. Pass `migrate: false` for an empty one. */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const name = `${TEST_DATABASE_PREFIX}${testRunId()}_${randomBytes(4).toString('hex')}`;
  assertTestDatabaseName(name);
  await withAdminClient((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = urlFor(name);
  if (options.migrate !== false) await migrateDatabase(url);
  return { name, url, drop: () => dropTestDatabase(name) };
}

/** Runs every migration on the database at `url`. */
export async function migrateDatabase(url: string): Promise<void> {
  const ds = new DataSource(buildDataSourceOptions(url, { poolSize: 1 }));
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    await ds.destroy();
  }
}
