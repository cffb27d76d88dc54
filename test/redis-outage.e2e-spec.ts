/**
 * A publish while Redis is down still succeeds (the job waits in the outbox) and
 * the job reaches BullMQ once Redis is back. Uses a redis-server of its own on a
 * spare port; the machine's shared Redis is never stopped.
 */
import type { ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import { CERTIFICATION_POLICY_VERSION } from '@skillhub/certification';
import { CERTIFICATION_QUEUE } from '@skillhub/queue';
import { kazmaBundle, uniqueName } from '@skillhub/testing';
import { sparePort, startRedis, stopRedis, waitFor } from './support/private-redis';
import { startTestHub, type TestHub } from './support/test-hub';

describe('publishing while Redis is down', () => {
  let hub: TestHub;
  let port: number;
  let redis: ChildProcess | null = null;

  beforeAll(async () => {
    port = await sparePort();
    hub = await startTestHub({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await hub.close();
    await stopRedis(redis);
  });

  it('succeeds, reports Redis down in readiness, and delivers the job when Redis returns', async () => {
    const ns = uniqueName('outage');
    const token = await hub.token(ns);
    const res = await hub.http
      .post('/api/v1/skills')
      .set('authorization', `Bearer ${token}`)
      .set('content-type', 'application/gzip')
      .send(kazmaBundle({ author: ns }));
    expect(res.status).toBe(201);

    const ready = await hub.http.get('/api/v1/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'degraded',
      database: { status: 'up' },
      redis: { status: 'down' },
      outbox_pending: 1,
    });

    redis = await startRedis(port);
    const queue = new Queue(CERTIFICATION_QUEUE, {
      connection: { host: '127.0.0.1', port },
      prefix: hub.config.REDIS_PREFIX,
    });
    try {
      const jobs = await waitFor(
        async () => {
          const waiting = await queue.getJobs(['waiting', 'prioritized', 'delayed', 'active']);
          return waiting.length ? waiting : null;
        },
        15_000,
        'the job',
      );
      expect(jobs).toHaveLength(1);
      expect(jobs[0]!.name).toBe('certify');
      const [versionId] = await hub.dataSource.query('SELECT id FROM skill_versions');
      expect(jobs[0]!.data).toEqual({ skillVersionId: versionId.id, policyVersion: CERTIFICATION_POLICY_VERSION });
      const pending = await waitFor(
        async () => {
          const r = await hub.http.get('/api/v1/health/ready');
          return r.body.outbox_pending === 0 && r.body.redis.status === 'up' ? r.body : null;
        },
        10_000,
        'an empty outbox',
      );
      expect(pending.status).toBe('ready');
    } finally {
      await queue.close();
    }
  });
});
