/**
 * The embedded default on a machine with nothing but Node.js: no Redis answers (REDIS_URL is a
 * closed port), and publishes still get their verdicts, judged in the hub's own process straight
 * from the outbox; so do Kazma submissions. Once a Redis starts on that port, jobs go to it.
 */
import type { ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import { FakeRegistries } from '@skillhub/package-probe/testing';
import { CERTIFICATION_QUEUE, OutboxRelay } from '@skillhub/queue';
import { kazmaBundle, uniqueName } from '@skillhub/testing';
import { sparePort, startRedis, stopRedis, waitFor } from './support/private-redis';
import { startTestHub, type TestHub } from './support/test-hub';

const KAZMA_SECRET = 'hub-wide-kazma-secret-for-tests';
const CODE = 'class WeatherSkill:\n    def get_weather(self, city):\n        return {"city": city}\n';

describe('the embedded default with no Redis reachable', () => {
  let hub: TestHub;
  let registries: FakeRegistries;
  let token: string;
  let port: number;
  let redis: ChildProcess | null = null;
  const ns = uniqueName('noredis');

  beforeAll(async () => {
    registries = await FakeRegistries.start();
    port = await sparePort();
    hub = await startTestHub({
      embedded: true,
      env: {
        REDIS_URL: `redis://127.0.0.1:${port}`, // nothing listens there
        KAZMA_SECRET,
        NPM_REGISTRY_URL: registries.baseUrls.npmBaseUrl,
        PYPI_REGISTRY_URL: registries.baseUrls.pypiBaseUrl,
      },
    });
    token = await hub.token(ns);
  });
  afterAll(async () => {
    await hub.close();
    await registries.close();
    await stopRedis(redis);
  });

  const publish = (name: string) =>
    hub.http
      .post('/api/v1/skills')
      .set('authorization', `Bearer ${token}`)
      .set('content-type', 'application/gzip')
      .send(
        kazmaBundle({ author: ns, name, code: CODE, manifest: { permissions: [] }, sign: { secret: KAZMA_SECRET } }),
      )
      .expect(201);

  const verdict = (name: string) =>
    waitFor(
      async () => {
        const res = await hub.http.get(`/api/v1/skills/${ns}/${name}/versions/1.0.0/certification`).expect(200);
        return res.body.status !== 'pending' ? (res.body as { status: string; level: string }) : null;
      },
      30_000,
      `the verdict on ${name}`,
    );

  it('certifies a publish in-process, and readiness says Redis is down', async () => {
    const name = uniqueName('first');
    const started = Date.now();
    await publish(name);
    expect(await verdict(name)).toMatchObject({ status: 'certified' });
    const elapsed = Date.now() - started;
    console.log(`publish to verdict with no Redis: ${elapsed} ms`);

    const ready = await hub.http.get('/api/v1/health/ready').expect(200);
    expect(ready.body).toMatchObject({
      status: 'ready',
      mode: 'embedded',
      redis: { status: 'down' },
      queue: 'in-process',
      outbox_pending: 0,
    });
    const [row] = await hub.dataSource.query(
      `SELECT o."dispatched_at" IS NOT NULL AS done, o."last_error" FROM "outbox" o
       JOIN "skill_versions" v ON o."payload"->>'skillVersionId' = v."id"::text
       JOIN "skills" s ON s."id" = v."skill_id" WHERE s."name" = $1`,
      [name],
    );
    expect(row).toEqual({ done: true, last_error: null });
  });

  it('certifies a burst of publishes, each once', async () => {
    const names = Array.from({ length: 6 }, () => uniqueName('burst'));
    const before = Number((await hub.dataSource.query(`SELECT count(*)::int AS n FROM "log_entries"`))[0].n);
    await Promise.all(names.map(publish));
    for (const name of names) expect(await verdict(name)).toMatchObject({ status: 'certified' });
    const after = Number((await hub.dataSource.query(`SELECT count(*)::int AS n FROM "log_entries"`))[0].n);
    expect(after - before).toBe(names.length);

    const name = uniqueName('warm');
    const started = Date.now();
    await publish(name);
    await verdict(name);
    console.log(`publish to verdict with no Redis, on a running hub: ${Date.now() - started} ms`);
  });

  it('judges a quarantined Kazma submission', async () => {
    const manifest = {
      name: uniqueName('submitted'),
      version: '1.0.0',
      description: 'A submitted manifest with no code at all.',
      author: uniqueName('anon'),
      license: 'MIT',
    };
    const submitted = await hub.http.post('/api/v1/skills/submit').send({ manifest }).expect(201);
    const status = await waitFor(
      async () => {
        const res = await hub.http.get(`/api/v1/skills/${submitted.body.submission_id}/certification`).expect(200);
        return res.body.report ? res.body : null;
      },
      30_000,
      'the submission report',
    );
    expect(status).toMatchObject({ status: 'quarantined', requirements_met: { manifest_valid: true } });
  });

  it('hands over to a Redis that starts later: the next publish is judged on BullMQ', async () => {
    redis = await startRedis(port);
    const relay = hub.app.get(OutboxRelay);
    await waitFor(async () => relay.state.transport === 'bullmq', 10_000, 'the hand-over');
    const name = uniqueName('onredis');
    await publish(name);
    expect(await verdict(name)).toMatchObject({ status: 'certified' });
    const queue = new Queue(CERTIFICATION_QUEUE, {
      connection: { host: '127.0.0.1', port },
      prefix: hub.config.REDIS_PREFIX,
    });
    try {
      const done = await queue.getJobs(['completed']);
      expect(done.map((j) => [j.name, j.returnvalue])).toEqual([['certify', 'certified']]);
    } finally {
      await queue.close();
    }
  });
});
