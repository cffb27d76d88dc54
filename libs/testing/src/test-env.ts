/** Where the integration tiers find the machine's PostgreSQL and Redis, and how this run names what it creates. */
import { randomBytes } from 'node:crypto';

/** Every database a test creates starts with this; the guard refuses any other name. */
export const TEST_DATABASE_PREFIX = 'skillhub_test_';

export const testAdminDatabaseUrl = (): string =>
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const testRedisUrl = (): string => process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Set once per `jest` run by the global setup, so teardown can find what this run left behind. */
export const testRunId = (): string => {
  const id = process.env.SKILLHUB_TEST_RUN;
  if (!id) throw new Error('SKILLHUB_TEST_RUN is not set: run the tests through jest (npm test)');
  return id;
};

export const newTestRunId = (): string => `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
