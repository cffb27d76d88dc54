/** Writes are rate-limited: Kazma's unauthenticated submit per client address, publish per token. */
import { kazmaBundle, kazmaManifest, uniqueName } from '@skillhub/testing';
import { Redis } from 'ioredis';
import { loadConfig } from '@skillhub/config';
import { createRedisConnection, waitUntilReady } from '@skillhub/queue';
import { RateLimitedError, WriteRateLimiter } from '../apps/hub-api/src/common/write-rate-limiter';
import { sparePort, startRedis, stopRedis } from './support/private-redis';
import { startTestHub, type TestHub } from './support/test-hub';

describe('rate limits', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startTestHub({ env: { SUBMIT_RATE_LIMIT_PER_HOUR: '3', PUBLISH_RATE_LIMIT_PER_MINUTE: '2' } });
  });
  afterAll(() => hub.close());

  it('Kazma submit: accepts the limit, then answers 429 with Retry-After and stores nothing more', async () => {
    const submit = () =>
      hub.http.post('/api/v1/skills/submit').send({ manifest: kazmaManifest({ author: uniqueName('ns') }) });
    const first = await Promise.all([submit(), submit(), submit(), submit(), submit()]);
    expect(first.map((r) => r.status).sort()).toEqual([201, 201, 201, 429, 429]);
    const limited = first.find((r) => r.status === 429)!;
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(limited.body).toMatchObject({ code: 'SUBMISSION.RATE_LIMITED', status: 429 });
    expect((await hub.counts()).submissions).toBe(3);
  });

  it('publish: a token past its per-minute limit gets 429 with Retry-After; another token is unaffected', async () => {
    const ns = uniqueName('busy');
    const [busy, other] = [await hub.token(ns), await hub.token(ns)];
    const publish = (token: string) =>
      hub.http
        .post('/api/v1/skills')
        .set('authorization', `Bearer ${token}`)
        .set('content-type', 'application/gzip')
        .send(kazmaBundle({ author: ns }));
    expect((await publish(busy)).status).toBe(201);
    expect((await publish(busy)).status).toBe(201);
    const limited = await publish(busy);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('REQUEST.RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await publish(other)).status).toBe(201);
  });
});

describe('write limits when Redis stops answering', () => {
  it('do not wait on it: past 250 ms the instance counts on its own, and the limit still holds', async () => {
    const port = await sparePort();
    const redis = await startRedis(port, ['--enable-debug-command', 'yes']);
    const connection = createRedisConnection(`redis://127.0.0.1:${port}`, 'producer');
    const other = new Redis(port, '127.0.0.1');
    try {
      await waitUntilReady(connection, 5_000);
      const limiter = new WriteRateLimiter(connection, loadConfig({ REDIS_PREFIX: 'skillhub-test-stall' }));
      await limiter.consume('publish:token', 2, 'publishes');
      // The server accepts connections but answers nothing for 3 s.
      void other.call('DEBUG', 'SLEEP', '3').catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
      const started = Date.now();
      await limiter.consume('publish:token', 2, 'publishes');
      await limiter.consume('publish:token', 2, 'publishes');
      await expect(limiter.consume('publish:token', 2, 'publishes')).rejects.toBeInstanceOf(RateLimitedError);
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      connection.disconnect();
      other.disconnect();
      await stopRedis(redis);
    }
  });
});
