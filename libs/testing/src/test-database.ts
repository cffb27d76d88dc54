/**
 * A database of a test file's own on the machine's PostgreSQL: created from
 * scratch, migrated, and dropped after. Names carry the run id, so teardown can
 * remove what a crashed run left, and the guard refuses any other name.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '@skillhub/registry';
import { TEST_DATABASE_PREFIX, testAdminDatabaseUrl, testRunId } from './test-env';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export function assertTestDatabaseName(name: string): void {
  if (!name.startsWith(TEST_DATABASE_PREFIX) || !/^[a-z0-9_]+$/.test(name)) {
    throw new Error(`refusing to touch database "${name}": test databases are named ${TEST_DATABASE_PREFIX}*`);
  }
}

const urlFor = (name: string): string => {
  const url = new URL(testAdminDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
};

export async function withAdminClient<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: testAdminDatabaseUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates and migrates a fresh database. Pass `migrate: false` for an empty one. */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const name = `${TEST_DATABASE_PREFIX}${testRunId()}_${randomBytes(4).toString('hex')}`;
  assertTestDatabaseName(name);
  await withAdminClient((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = urlFor(name);
  if (options.migrate !== false) {
    const ds = new DataSource(buildDataSourceOptions(url, { poolSize: 1 }));
    await ds.initialize();
    try {
      await ds.runMigrations({ transaction: 'each' });
    } finally {
      await ds.destroy();
    }
  }
  return { name, url, drop: () => dropTestDatabase(name) };
}

export async function dropTestDatabase(name: string): Promise<void> {
  assertTestDatabaseName(name);
  await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
