import { Redis, type RedisOptions } from 'ioredis';

/**
 * Producers fail fast while Redis is down (no offline queue), so a request never
 * hangs on it: the outbox keeps the job. Workers wait and reconnect instead, as
 * BullMQ requires (`maxRetriesPerRequest: null`).
 */
export function createRedisConnection(url: string, role: 'producer' | 'worker'): Redis {
  const options: RedisOptions =
    role === 'producer'
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 }
      : { maxRetriesPerRequest: null, enableReadyCheck: true };
  const redis = new Redis(url, {
    ...options,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(200 * 2 ** Math.min(attempt, 5), 5_000),
  });
  // Connection errors are reported through readiness and the relay; without a
  // listener ioredis would print every reconnect failure as an unhandled error.
  redis.on('error', () => undefined);
  return redis;
}
