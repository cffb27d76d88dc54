/**
 * Badges from memory: two hub-api instances on one PostgreSQL and one Redis, and a
 * certifier-worker. Each instance holds badges in memory and answers a revalidation without the
 * database; a verdict recorded, revoked, published or yanked anywhere shows at once on both.
 * The embedded hub (one process) does the same with no Redis between its parts.
 */
import type { ChildProcess } from 'node:child_process';
import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { kazmaBundle, testRedisUrl, uniqueName } from '@skillhub/testing';
import { createHubApp } from '../apps/hub-api/src/create-hub-app';
import { sparePort, startRedis, stopRedis, waitFor } from './support/private-redis';
import { startTestHub, startWorker, type TestHub } from './support/test-hub';

const KAZMA_SECRET = 'hub-wide-kazma-secret-for-badge-tests';
const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600, stale-if-error=86400';

/** A Kazma skill the certifier passes, or fails (`tampered`: its signature covers other code). */
const signed = (author: string, name: string, version = '1.0.0', tampered = false) =>
  kazmaBundle({
    author,
    name,
    version,
    manifest: { permissions: [] },
    sign: { secret: KAZMA_SECRET, checksumOf: tampered ? 'other code' : undefined },
  });

async function publish(http: TestAgent, token: string, bytes: Buffer): Promise<void> {
  const res = await http
    .post('/api/v1/skills')
    .set('authorization', `Bearer ${token}`)
    .set('content-type', 'application/gzip')
    .send(bytes);
  expect(res.status).toBe(201);
}

const message = async (http: TestAgent, skill: string, version?: string): Promise<string> =>
  (
    await http
      .get(`/api/v1/skills/${skill}/badge.json`)
      .query(version ? { version } : {})
      .expect(200)
  ).body.message;

/**
 * Resolves when the verdict change naming `skill` arrives, as every hub's subscription hears it,
 * and `recorded()` says it is in the database (the publish's own change may arrive first).
 */
function nextChange(subscribed: Redis, skill: string, recorded: () => Promise<boolean>): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (_: string, raw: string) => {
      if ((JSON.parse(raw) as { skill: string }).skill !== skill) return;
      void recorded().then((yes) => {
        if (!yes) return;
        subscribed.off('message', onMessage);
        resolve();
      });
    };
    subscribed.on('message', onMessage);
  });
}

describe('badges held in memory by two hub instances on one Redis', () => {
  let a: TestHub;
  let bApp: INestApplication;
  let b: TestAgent;
  let worker: INestApplicationContext | null = null;
  let listener: Redis;
  let token: string;
  const ns = uniqueName('badges');

  beforeAll(async () => {
    a = await startTestHub({ env: { KAZMA_SECRET, PUBLISH_RATE_LIMIT_PER_MINUTE: '1000' } });
    // The second instance: the same configuration, database and Redis prefix, as a second replica.
    bApp = await createHubApp(a.config, { url: a.config.DATABASE_URL!, embedded: false });
    await bApp.listen(0, '127.0.0.1');
    b = request(bApp.getHttpServer());
    listener = new Redis(testRedisUrl());
    await listener.subscribe(`${a.config.REDIS_PREFIX}:verdict-changed`);
    token = await a.token(ns);
  });
  afterAll(async () => {
    listener.disconnect();
    await worker?.close();
    await bApp.close();
    await a.close();
  });

  it('turns certified on both instances once the worker records it, though both held it pending', async () => {
    const skill = `${ns}/sunny`;
    await publish(a.http, token, signed(ns, 'sunny'));
    // No worker yet: both instances draw the pending badge and hold it.
    const pending = await a.http.get(`/api/v1/skills/${skill}/badge.svg`).expect(200);
    expect(pending.headers['cache-control']).toBe(CACHE_CONTROL);
    expect(pending.body.toString()).toContain('pending');
    for (const http of [a.http, b]) {
      await http.get(`/api/v1/skills/${skill}/badge.svg`).set('if-none-match', pending.headers.etag).expect(304);
      expect(await message(http, skill)).toBe('pending');
    }

    const recorded = nextChange(listener, skill, async () => {
      const [row] = await a.dataSource.query(
        `SELECT c.status FROM certifications c JOIN skill_versions v ON v.id = c.skill_version_id
         JOIN skills s ON s.id = v.skill_id WHERE s.name = 'sunny'`,
      );
      return row?.status !== 'pending';
    });
    worker = await startWorker(a.config, a.config.DATABASE_URL!);
    await recorded;
    for (const http of [a.http, b]) {
      expect(await message(http, skill)).toMatch(/^certified · /);
      const svg = await http.get(`/api/v1/skills/${skill}/badge.svg`).set('if-none-match', pending.headers.etag);
      expect(svg.status).toBe(200);
      expect(svg.body.toString()).toContain('certified');
      expect(svg.headers.etag).not.toBe(pending.headers.etag);
    }
  });

  it('answers a revalidation from memory while the database cannot be read', async () => {
    const skill = `${ns}/sunny`;
    const warm = await b.get(`/api/v1/skills/${skill}/badge.svg?style=flat-square`).expect(200);
    await b.get(`/api/v1/skills/${skill}/badge.json`).expect(200);
    const blocker = new Client({ connectionString: a.config.DATABASE_URL });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE "skill_versions", "certifications" IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      await b
        .get(`/api/v1/skills/${skill}/badge.svg?style=flat-square`)
        .set('if-none-match', `"other", ${warm.headers.etag}`)
        .timeout(2_000)
        .expect(304);
      expect((await b.get(`/api/v1/skills/${skill}/badge.json`).timeout(2_000).expect(200)).body.message).toMatch(
        /^certified/,
      );
      expect(Date.now() - started).toBeLessThan(2_000);
      // The lock holds: a badge not in memory waits for the database.
      await expect(b.get(`/api/v1/skills/${ns}/never-asked/badge.svg`).timeout(300)).rejects.toThrow(/Timeout/);
    } finally {
      await blocker.query('ROLLBACK');
      await blocker.end();
    }
  });

  it('shows a revocation made on one instance at once on the other', async () => {
    const skill = `${ns}/sunny`;
    expect(await message(b, skill, '1.0.0')).toMatch(/^certified/);
    await a.http
      .post(`/api/v1/skills/${skill}/versions/1.0.0/revoke`)
      .set('authorization', `Bearer ${token}`)
      .send({ reason: 'leaked key' })
      .expect(200);
    expect(await message(b, skill, '1.0.0')).toBe('revoked');
    expect(await message(b, skill)).toBe('revoked');
  });

  it('follows the listed version through a publish and a yank made on the other instance', async () => {
    const skill = `${ns}/cloudy`;
    await publish(b, token, signed(ns, 'cloudy'));
    for (;;) {
      const res = await b.get(`/api/v1/skills/${skill}/versions/1.0.0/certification`).expect(200);
      if (res.body.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await message(a.http, skill)).toMatch(/^certified/);

    // 2.0.0 is listed now; it stays pending or fails (its signature covers other code).
    await publish(b, token, signed(ns, 'cloudy', '2.0.0', true));
    expect(['pending', 'failed']).toContain(await message(a.http, skill));
    await b
      .patch(`/api/v1/skills/${skill}/versions/2.0.0`)
      .set('authorization', `Bearer ${token}`)
      .send({ status: 'yanked' })
      .expect(200);
    // 1.0.0 is listed again.
    expect(await message(a.http, skill)).toMatch(/^certified/);
  });

  it('draws a skill published after its "not found" badge was held', async () => {
    const skill = `${ns}/foggy`;
    expect(await message(a.http, skill)).toBe('not found');
    expect(await message(b, skill)).toBe('not found');
    await publish(b, token, signed(ns, 'foggy'));
    expect(await message(a.http, skill)).not.toBe('not found');
  });
});

describe('badges held in memory by the embedded hub', () => {
  let hub: TestHub;
  let token: string;
  const ns = uniqueName('badges');

  beforeAll(async () => {
    hub = await startTestHub({ embedded: true, env: { KAZMA_SECRET } });
    token = await hub.token(ns);
  });
  afterAll(() => hub.close());

  it('changes its held badge when it certifies and revokes in its own process', async () => {
    const skill = `${ns}/misty`;
    await publish(hub.http, token, signed(ns, 'misty'));
    let seen = await message(hub.http, skill);
    for (let i = 0; seen === 'pending' && i < 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await message(hub.http, skill);
    }
    expect(seen).toMatch(/^certified/);
    const etag = (await hub.http.get(`/api/v1/skills/${skill}/badge.svg`).expect(200)).headers.etag;
    await hub.http.get(`/api/v1/skills/${skill}/badge.svg`).set('if-none-match', etag).expect(304);
    await hub.http
      .post(`/api/v1/skills/${skill}/versions/1.0.0/revoke`)
      .set('authorization', `Bearer ${token}`)
      .send({ reason: 'leaked key' })
      .expect(200);
    const after = await hub.http.get(`/api/v1/skills/${skill}/badge.svg`).set('if-none-match', etag).expect(200);
    expect(after.body.toString()).toContain('revoked');
  });
});

describe('badges while the Redis subscription is down', () => {
  let hub: TestHub;
  let port: number;
  let redis: ChildProcess | null = null;
  let token: string;
  const ns = uniqueName('badges');

  beforeAll(async () => {
    port = await sparePort();
    redis = await startRedis(port);
    hub = await startTestHub({ env: { REDIS_URL: `redis://127.0.0.1:${port}`, KAZMA_SECRET } });
    token = await hub.token(ns);
  });
  afterAll(async () => {
    await hub.close();
    await stopRedis(redis);
  });

  /** A verdict change no process announces: what another instance's lost message would leave. */
  const setStatus = (status: string) =>
    hub.dataSource.query(
      `UPDATE certifications c SET status = $1 FROM skill_versions v, skills s
       WHERE v.id = c.skill_version_id AND s.id = v.skill_id AND s.name = 'rainy'`,
      [status],
    );

  it('reads verdicts from the database meanwhile, and forgets what it held once subscribed again', async () => {
    const skill = `${ns}/rainy`;
    await publish(hub.http, token, signed(ns, 'rainy'));
    expect(await message(hub.http, skill)).toBe('pending');

    await stopRedis(redis);
    await waitFor(async () => (await hub.http.get('/api/v1/health/ready')).body.redis.status === 'down', 5_000);
    await setStatus('failed');
    expect(await message(hub.http, skill)).toBe('failed');

    redis = await startRedis(port);
    await waitFor(async () => (await hub.http.get('/api/v1/health/ready')).body.redis.status === 'up', 10_000);
    // Held while down would have been "pending" from before; the badge says what the database says.
    await waitFor(async () => (await message(hub.http, skill)) === 'failed', 2_000, 'the badge after Redis returned');
  });
});
