/** Admin-connection helpers for test databases (no TypeORM, so jest's global teardown can load them). */
import { Client } from 'pg';
import { TEST_DATABASE_PREFIX, testAdminDatabaseUrl } from './test-env';

export function assertTestDatabaseName(name: string): void {
  if (!name.startsWith(TEST_DATABASE_PREFIX) || !/^[a-z0-9_]+$/.test(name)) {
    throw new Error(`refusing to touch database "${name}": test databases are named ${TEST_DATABASE_PREFIX}*`);
  }
}

export async function withAdminClient<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: testAdminDatabaseUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function dropTestDatabase(name: string): Promise<void> {
  assertTestDatabaseName(name);
  await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
