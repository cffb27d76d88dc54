import { Redis, type RedisOptions } from 'ioredis';
import { backoffDelayMs } from '@skillhub/retry';

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
    retryStrategy: (attempt) => backoffDelayMs(Math.min(attempt, 5), { baseDelayMs: 200, maxDelayMs: 5_000 }),
  });
  // Connection errors are reported through readiness and the relay; without a
  // listener ioredis would print every reconnect failure as an unhandled error.
  redis.on('error', () => undefined);
  return redis;
}

/** Resolves once the connection is ready; rejects after `timeoutMs` with the last connection error. */
export function waitUntilReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    let lastError = 'no answer';
    const onError = (err: Error) => (lastError = err.message);
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      redis.off('error', onError);
      reject(new Error(`not ready after ${timeoutMs} ms: ${lastError}`));
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      redis.off('error', onError);
      resolve();
    };
    redis.once('ready', onReady);
    redis.on('error', onError);
  });
}
