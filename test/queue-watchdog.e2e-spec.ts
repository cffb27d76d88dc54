/**
 * The queue's watchdog, with its default interval: jobs waiting in a Redis that restarts and
 * keeps nothing on disk are lost; the certifications they were for are queued again within a
 * minute (not the ten of the old sweeper) and judged. A private redis-server, so only it restarts.
 */
import type { ChildProcess } from 'node:child_process';
import type { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import { FakeRegistries } from '@skillhub/package-probe/testing';
import { CERTIFICATION_QUEUE } from '@skillhub/queue';
import { kazmaBundle, uniqueName } from '@skillhub/testing';
import { sparePort, startRedis, stopRedis, waitFor } from './support/private-redis';
import { startTestHub, startWorker, type TestHub } from './support/test-hub';

const KAZMA_SECRET = 'hub-wide-kazma-secret-for-tests';
const CODE = 'class WeatherSkill:\n    def get_weather(self, city):\n        return {"city": city}\n';
const PUBLISHES = 5;
const WEATHER_SERVER = { name: 'weather', type: 'stdio', command: 'npx', args: ['-y', '@acme/weather-mcp@1.2.3'] };

describe('the queue watchdog', () => {
  let hub: TestHub;
  let registries: FakeRegistries;
  let redis: ChildProcess | null = null;
  let worker: INestApplicationContext | null = null;
  const others: INestApplicationContext[] = [];
  let port: number;

  beforeAll(async () => {
    port = await sparePort();
    redis = await startRedis(port);
    registries = await FakeRegistries.start();
    // No worker yet: the jobs wait in Redis.
    hub = await startTestHub({
      env: {
        REDIS_URL: `redis://127.0.0.1:${port}`,
        KAZMA_SECRET,
        NPM_REGISTRY_URL: registries.baseUrls.npmBaseUrl,
        PYPI_REGISTRY_URL: registries.baseUrls.pypiBaseUrl,
        LIVE_PROBE: '0',
      },
    });
  });
  afterAll(async () => {
    await Promise.all(others.map((w) => w.close()));
    await worker?.close();
    await hub.close();
    await registries.close();
    await stopRedis(redis);
  });

  it('queues again, within a minute, the certifications whose jobs a Redis restart lost', async () => {
    const ns = uniqueName('watchdog');
    const token = await hub.token(ns);
    for (let i = 0; i < PUBLISHES; i++) {
      await hub.http
        .post('/api/v1/skills')
        .set('authorization', `Bearer ${token}`)
        .set('content-type', 'application/gzip')
        .send(
          kazmaBundle({
            author: ns,
            name: `lost-${i}`,
            code: CODE,
            // One pins an npm package, for the re-probe below.
            manifest: { permissions: [], ...(i === 0 ? { mcp_servers: [WEATHER_SERVER] } : {}) },
            sign: { secret: KAZMA_SECRET },
          }),
        )
        .expect(201);
    }
    const outbox = async () => {
      const [row] = await hub.dataSource.query(
        `SELECT count(*)::int AS rows, count(*) FILTER (WHERE dispatched_at IS NULL)::int AS waiting FROM outbox`,
      );
      return row as { rows: number; waiting: number };
    };
    await waitFor(async () => (await outbox()).waiting === 0, 10_000, 'the jobs in Redis');

    await stopRedis(redis); // SIGKILL: the queued jobs are gone with it
    redis = await startRedis(port);
    const restarted = Date.now();
    // hub-api's own watchdog notices; the worker starts only then, so its first look does not.
    await waitFor(async () => (await outbox()).rows >= 2 * PUBLISHES, 65_000, 'the jobs queued again');
    const requeuedAfter = Date.now() - restarted;
    worker = await startWorker(hub.config, (hub.dataSource.options as { url: string }).url);
    const statuses = await waitFor(
      async () => {
        const rows: Array<{ status: string }> = await hub.dataSource.query(`SELECT status FROM certifications`);
        return rows.every((r) => r.status !== 'pending') ? rows.map((r) => r.status) : null;
      },
      30_000,
      'the verdicts',
    );
    const judgedAfter = Date.now() - restarted;
    console.log(
      `watchdog: lost jobs queued again ${requeuedAfter} ms after the Redis restart, judged ${judgedAfter} ms`,
    );
    expect(hub.config.QUEUE_WATCHDOG_MS).toBe(30_000); // the default
    expect(requeuedAfter).toBeLessThan(60_000);
    expect(statuses).toEqual(Array(PUBLISHES).fill('certified'));
    const [{ n }] = await hub.dataSource.query(`SELECT count(*)::int AS n FROM log_entries`);
    expect(n).toBe(PUBLISHES);
  }, 120_000);

  it('asks for one re-probe a day, however many processes start and ask', async () => {
    // Each new process asks on its first round; the day names the job, so BullMQ adds it once.
    others.push(
      ...(await Promise.all(
        [1, 2].map(() => startWorker(hub.config, (hub.dataSource.options as { url: string }).url)),
      )),
    );
    const day = new Date().toISOString().slice(0, 10);
    const queue = new Queue(CERTIFICATION_QUEUE, {
      connection: { host: '127.0.0.1', port },
      prefix: hub.config.REDIS_PREFIX,
    });
    try {
      const job = await waitFor(
        async () => {
          const j = await queue.getJob(`reprobe.${day}`);
          return j?.finishedOn ? j : null;
        },
        20_000,
        'the re-probe',
      );
      expect(JSON.parse(job.returnvalue as string)).toEqual({ checked: 1, revoked: 0 });
      const rows: Array<{ n: number }> = await hub.dataSource.query(
        `SELECT count(*)::int AS n FROM outbox WHERE job_name = 'reprobe' AND payload->>'day' = $1`,
        [day],
      );
      expect(rows[0]!.n).toBeGreaterThanOrEqual(1);
      const reprobes = (await queue.getJobs(['completed', 'waiting', 'active', 'delayed'])).filter(
        (j) => j.name === 'reprobe',
      );
      expect(reprobes.map((j) => j.id)).toEqual([`reprobe.${day}`]);
    } finally {
      await queue.close();
    }
  });
});
