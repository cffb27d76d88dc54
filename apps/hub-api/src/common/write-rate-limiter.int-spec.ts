import { Redis } from 'ioredis';
import { loadConfig } from '@skillhub/config';
import { createRedisConnection, waitUntilReady } from '@skillhub/queue';
import { deleteRedisKeys, newTestRedisPrefix, testRedisUrl } from '@skillhub/testing';
import { RateLimitedError, WriteRateLimiter } from './write-rate-limiter';

const retryAfter = async (attempt: Promise<void>): Promise<number | null> => {
  try {
    await attempt;
    return null;
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    return (error.details as { retry_after: number }).retry_after;
  }
};

describe('WriteRateLimiter', () => {
  const prefix = newTestRedisPrefix();
  const config = loadConfig({ REDIS_PREFIX: prefix });
  const connections: Redis[] = [];
  const instance = async (url = testRedisUrl()) => {
    const redis = createRedisConnection(url, 'producer');
    connections.push(redis);
    if (url === testRedisUrl()) await waitUntilReady(redis, 5_000);
    return new WriteRateLimiter(redis, config);
  };
  afterAll(async () => {
    for (const redis of connections) redis.disconnect();
    await deleteRedisKeys(prefix);
  });

  it('shares one window between hub-api instances through Redis, refusing with the seconds until a slot frees', async () => {
    const [a, b] = [await instance(), await instance()];
    expect(await retryAfter(a.consume('publish:token-1', 3, 'publishes'))).toBeNull();
    expect(await retryAfter(b.consume('publish:token-1', 3, 'publishes'))).toBeNull();
    expect(await retryAfter(a.consume('publish:token-1', 3, 'publishes'))).toBeNull();
    const refused = await retryAfter(b.consume('publish:token-1', 3, 'publishes'));
    expect(refused).toBeGreaterThanOrEqual(59);
    expect(refused).toBeLessThanOrEqual(60);
    // Other keys are independent.
    expect(await retryAfter(b.consume('publish:token-2', 3, 'publishes'))).toBeNull();
  });

  it('admits exactly the limit when instances race', async () => {
    const limiters = await Promise.all([instance(), instance(), instance()]);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        retryAfter(limiters[i % 3]!.consume('validate:10.0.0.1', 10, 'validations')),
      ),
    );
    expect(results.filter((r) => r === null)).toHaveLength(10);
  });

  it('falls back to its own window while Redis is unreachable: still limited, never failing the write', async () => {
    const offline = await instance('redis://127.0.0.1:1');
    for (let i = 0; i < 2; i++) expect(await retryAfter(offline.consume('publish:token-3', 2, 'publishes'))).toBeNull();
    expect(await retryAfter(offline.consume('publish:token-3', 2, 'publishes'))).toBeGreaterThanOrEqual(59);
  });

  it('slides its local window: a slot frees a minute after the oldest request', () => {
    const limiter = new WriteRateLimiter(null as unknown as Redis, config);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(limiter.consumeLocal('k', 3, t0 + i * 1000)).toBe(0);
    expect(limiter.consumeLocal('k', 3, t0 + 10_000)).toBe(50_000);
    expect(limiter.consumeLocal('k', 3, t0 + 60_001)).toBe(0);
  });
});
