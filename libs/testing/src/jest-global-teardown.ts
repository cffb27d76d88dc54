/** Removes whatever this run's test files left behind (a crashed file skips its own afterAll). */
import { TEST_DATABASE_PREFIX, testRunId } from './test-env';
import { dropTestDatabase, withAdminClient } from './test-admin';
import { deleteRedisKeys, TEST_REDIS_PREFIX } from './test-redis';

export default async function globalTeardown(): Promise<void> {
  const run = testRunId();
  try {
    const names = await withAdminClient(async (c) => {
      const { rows } = await c.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
        [`${TEST_DATABASE_PREFIX}${run}_`],
      );
      return rows.map((r) => r.datname);
    });
    for (const name of names) await dropTestDatabase(name);
    await deleteRedisKeys(`${TEST_REDIS_PREFIX}-${run}-`);
  } catch {
    // A unit-only run needs neither server; nothing of this run can be left there then.
  }
}
