/** A Redis key prefix of a test file's own on the machine's shared Redis; cleanup deletes only those keys. */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { testRedisUrl, testRunId } from './test-env';

export const TEST_REDIS_PREFIX = 'skillhub-test';

export const newTestRedisPrefix = (): string => `${TEST_REDIS_PREFIX}-${testRunId()}-${randomBytes(3).toString('hex')}`;

/** Deletes every key under `prefix` (SCAN + UNLINK; never FLUSHALL). */
export async function deleteRedisKeys(prefix: string, url = testRedisUrl()): Promise<void> {
  if (!prefix.startsWith(TEST_REDIS_PREFIX)) throw new Error(`refusing to delete keys outside ${TEST_REDIS_PREFIX}*`);
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
