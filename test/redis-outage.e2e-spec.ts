/**
 * Redis outages. On PostgreSQL, a publish while Redis is down still succeeds (the job waits in
 * the outbox) and the job reaches BullMQ once Redis is back. On the embedded default, Redis
 * going away and coming back in the middle of a stream of publishes loses and doubles no job:
 * jobs run in-process from the outbox meanwhile, and what Redis held runs there once it is back
 * (or, when it kept nothing, is queued again by the watchdog). Uses redis-servers of its own on
 * spare ports; the machine's shared Redis is never stopped.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { CERTIFICATION_POLICY_VERSION } from '@skillhub/certification';
import { CertificationProcessor } from '@skillhub/certifier';
import { FakeRegistries } from '@skillhub/package-probe/testing';
import { CERTIFICATION_QUEUE, CERTIFY_JOB, jobSubject, OutboxRelay, type JobRun } from '@skillhub/queue';
import { kazmaBundle, uniqueName } from '@skillhub/testing';
import { sparePort, startRedis, stopRedis, waitFor } from './support/private-redis';
import { startTestHub, type TestHub } from './support/test-hub';

const KAZMA_SECRET = 'hub-wide-kazma-secret-for-tests';
const CODE = 'class WeatherSkill:\n    def get_weather(self, city):\n        return {"city": city}\n';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
      queue: 'bullmq',
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

describe.each([
  {
    kept: true,
    what: 'keeping what it held (append-only file)',
    // Longer than the outage: what Redis holds is waited for, not queued again here.
    watchdogMs: '30000',
  },
  { kept: false, what: 'losing what it held', watchdogMs: '3000' },
])('the embedded default, Redis going away mid-stream and coming back $what', ({ kept, watchdogMs }) => {
  const PUBLISHES = 24;
  let hub: TestHub;
  let registries: FakeRegistries;
  let port: number;
  let redis: ChildProcess | null = null;
  const dir = mkdtempSync(join(tmpdir(), 'skillhub-redis-'));
  const redisArgs = kept ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir] : [];

  beforeAll(async () => {
    port = await sparePort();
    redis = await startRedis(port, redisArgs);
    registries = await FakeRegistries.start();
    hub = await startTestHub({
      embedded: true,
      env: {
        REDIS_URL: `redis://127.0.0.1:${port}`,
        KAZMA_SECRET,
        NPM_REGISTRY_URL: registries.baseUrls.npmBaseUrl,
        PYPI_REGISTRY_URL: registries.baseUrls.pypiBaseUrl,
        PUBLISH_RATE_LIMIT_PER_MINUTE: '100000',
        // One at a time, so jobs queue up in Redis before it goes away.
        CERTIFIER_CONCURRENCY: '1',
        QUEUE_WATCHDOG_MS: watchdogMs,
      },
    });
  });
  afterAll(async () => {
    await hub.close();
    await registries.close();
    await stopRedis(redis);
    rmSync(dir, { recursive: true, force: true });
  });

  it('judges every version exactly once', async () => {
    const processor = hub.app.get(CertificationProcessor);
    const runs = jest.spyOn(processor, 'process'); // calls through: it only records each run
    const relay = hub.app.get(OutboxRelay);
    const ns = uniqueName('midstream');
    const token = await hub.token(ns);
    const publish = (i: number) =>
      hub.http
        .post('/api/v1/skills')
        .set('authorization', `Bearer ${token}`)
        .set('content-type', 'application/gzip')
        .send(
          kazmaBundle({
            author: ns,
            name: `stream-${i}`,
            code: CODE,
            manifest: { permissions: [] },
            sign: { secret: KAZMA_SECRET },
          }),
        )
        .expect(201);
    const queue = () =>
      new Queue(CERTIFICATION_QUEUE, { connection: { host: '127.0.0.1', port }, prefix: hub.config.REDIS_PREFIX });

    await Promise.all(Array.from({ length: 8 }, (_, i) => publish(i)));
    await waitFor(async () => relay.state.dispatched >= 8, 10_000, 'the first jobs in Redis');
    const before = queue();
    const held = (await before.getJobs(['waiting', 'prioritized', 'delayed'])).map((j) => j.id!);
    await before.close();
    expect(held.length).toBeGreaterThan(0);

    await stopRedis(redis);
    for (let i = 8; i < 16; i++) await publish(i);
    await sleep(2_500); // past the hand-over grace
    expect(relay.state.transport).toBe('in-process');
    redis = await startRedis(port, redisArgs);
    await waitFor(async () => relay.state.transport === 'bullmq', 10_000, 'the hand-back to Redis');
    await Promise.all(Array.from({ length: PUBLISHES - 16 }, (_, i) => publish(16 + i)));

    const statuses = await waitFor(
      async () => {
        const rows: Array<{ status: string }> = await hub.dataSource.query(`SELECT status FROM certifications`);
        return rows.length === PUBLISHES && rows.every((r) => r.status !== 'pending')
          ? rows.map((r) => r.status)
          : null;
      },
      90_000,
      'every verdict',
    );
    expect(statuses).toEqual(Array(PUBLISHES).fill('certified'));
    const [{ n }] = await hub.dataSource.query(`SELECT count(*)::int AS n FROM log_entries`);
    expect(n).toBe(PUBLISHES);

    const calls = runs.mock.calls.map(([job]) => job as JobRun);
    const outcomes = await Promise.all(runs.mock.results.map((r) => (r.value as Promise<string>).catch(() => 'threw')));
    const certify = calls.map((job, i) => ({ job, outcome: outcomes[i]! })).filter((r) => r.job.name === CERTIFY_JOB);
    const judged = certify.filter((r) => r.outcome !== 'already-judged');
    const subjects = judged.map((r) => jobSubject(CERTIFY_JOB, r.job.data));
    expect(subjects).toHaveLength(PUBLISHES);
    expect(new Set(subjects).size).toBe(PUBLISHES); // none judged twice
    // A job running when Redis died ran to its end here; a Redis that kept it hands it out
    // once more after its lock runs out, and it stops at once, finding its work done.
    expect(certify.length - judged.length).toBeLessThanOrEqual(kept ? 1 : 0);

    const after = queue();
    try {
      const inRedis = new Map<string, string>();
      for (const j of await after.getJobs(['completed'])) inRedis.set(j.id!, j.returnvalue as string);
      // Some ran here while Redis was away (their ids never reached it), some on BullMQ.
      expect(judged.some((r) => !inRedis.has(r.job.id))).toBe(true);
      expect(judged.some((r) => inRedis.has(r.job.id))).toBe(true);
      if (kept) for (const id of held) expect(inRedis.get(id)).toMatch(/^(certified|already-judged)$/);
    } finally {
      await after.close();
    }
  }, 150_000);
});
