/**
 * A Redis that outlives the hub's data: publish on the embedded default, wipe its data folder,
 * start again on the same Redis key prefix, publish again. The new database numbers its outbox
 * from 1 again while Redis still keeps the first hub's finished jobs; the second publish must
 * still be judged, not taken for one of them.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Queue } from 'bullmq';
import request from 'supertest';
import { loadConfig } from '@skillhub/config';
import { FakeRegistries } from '@skillhub/package-probe/testing';
import { CERTIFICATION_QUEUE } from '@skillhub/queue';
import { startEmbeddedDatabase } from '@skillhub/database';
import { deleteRedisKeys, kazmaBundle, newTestRedisPrefix, testRedisUrl, uniqueName } from '@skillhub/testing';
import { createHubApp } from '../apps/hub-api/src/create-hub-app';
import { waitFor } from './support/private-redis';

const KAZMA_SECRET = 'hub-wide-kazma-secret-for-tests';
const CODE = 'class WeatherSkill:\n    def get_weather(self, city):\n        return {"city": city}\n';

describe('a wiped data folder on the same Redis prefix', () => {
  const prefix = newTestRedisPrefix();
  const dataDir = mkdtempSync(join(tmpdir(), 'skillhub-reuse-'));
  const adminToken = `test-admin-${randomBytes(24).toString('hex')}`;
  let registries: FakeRegistries;
  let app: INestApplication | null = null;

  /** hub-api as `npm start` runs it on HUB_DATA_DIR, in this process. */
  async function startHub(): Promise<INestApplication> {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
      HUB_DATA_DIR: dataDir,
      PACKAGE_CACHE_DIR: join(dataDir, 'package-cache'),
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: prefix,
      HUB_ADMIN_TOKEN: adminToken,
      HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      KAZMA_SECRET,
      NPM_REGISTRY_URL: registries.baseUrls.npmBaseUrl,
      PYPI_REGISTRY_URL: registries.baseUrls.pypiBaseUrl,
      OUTBOX_POLL_MS: '200',
      // The watchdog would queue a swallowed job again; here the job itself must get through.
      QUEUE_WATCHDOG_MS: '600000',
    });
    const db = await startEmbeddedDatabase(dataDir);
    const hub = await createHubApp(config, { url: db.url, embedded: true, stop: () => db.stop() });
    await hub.listen(0, '127.0.0.1');
    return hub;
  }

  /** Publishes one signed skill under a new namespace and waits for its verdict. */
  async function publishAndJudge(hub: INestApplication): Promise<{ status: string; outboxIds: string[] }> {
    const http = request(hub.getHttpServer());
    const ns = uniqueName('reuse');
    const created = await http
      .post('/api/v1/tokens')
      .set('authorization', `Bearer ${adminToken}`)
      .send({ namespace: ns, scopes: ['publish', 'manage'] })
      .expect(201);
    const name = uniqueName('weather');
    await http
      .post('/api/v1/skills')
      .set('authorization', `Bearer ${created.body.token as string}`)
      .set('content-type', 'application/gzip')
      .send(
        kazmaBundle({ author: ns, name, code: CODE, manifest: { permissions: [] }, sign: { secret: KAZMA_SECRET } }),
      )
      .expect(201);
    const status = await waitFor(
      async () => {
        const res = await http.get(`/api/v1/skills/${ns}/${name}/versions/1.0.0/certification`).expect(200);
        return res.body.status !== 'pending' ? (res.body.status as string) : null;
      },
      20_000,
      `the verdict on ${name}`,
    );
    const { DataSource } = await import('typeorm');
    const rows: Array<{ id: string }> = await hub
      .get(DataSource)
      .query(`SELECT id::text AS id FROM outbox ORDER BY id`);
    return { status, outboxIds: rows.map((r) => r.id) };
  }

  beforeAll(async () => {
    registries = await FakeRegistries.start();
  });
  afterAll(async () => {
    await app?.close();
    await registries.close();
    await deleteRedisKeys(prefix);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('certifies the first publish after the wipe, though its outbox row has the number of a finished job', async () => {
    app = await startHub();
    const first = await publishAndJudge(app);
    expect(first.status).toBe('certified');
    await app.close();
    app = null;

    rmSync(dataDir, { recursive: true, force: true });
    app = await startHub();
    const second = await publishAndJudge(app);
    expect(second.outboxIds).toEqual(first.outboxIds); // the serials start again
    expect(second.status).toBe('certified');

    const queue = new Queue(CERTIFICATION_QUEUE, { connection: { url: testRedisUrl() }, prefix });
    try {
      const done = await queue.getJobs(['completed']);
      expect(done.map((j) => j.returnvalue)).toEqual(['certified', 'certified']);
      expect(new Set(done.map((j) => j.id)).size).toBe(2);
    } finally {
      await queue.close();
    }
  });
});
