/**
 * A real hub-api for e2e tests: listening on a loopback port, on a database of the
 * test file's own (PostgreSQL, or the embedded PGlite in memory) and a Redis key
 * prefix of its own. `close()` removes all of it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { type HubConfig, loadConfig } from '@skillhub/config';
import { startEmbeddedDatabase } from '@skillhub/database';
import { withTimeout } from '@skillhub/retry';
import { createTestDatabase, deleteRedisKeys, newTestRedisPrefix, testRedisUrl } from '@skillhub/testing';
import { CertifierWorkerModule } from '../../apps/certifier-worker/src/certifier-worker.module';
import { createHubApp } from '../../apps/hub-api/src/create-hub-app';

export interface TestHub {
  app: INestApplication;
  baseUrl: string;
  config: HubConfig;
  adminToken: string;
  http: TestAgent;
  dataSource: DataSource;
  /** Creates a publisher token through the API, as the operator would. */
  token(namespace: string, scopes?: string[]): Promise<string>;
  /** Row counts of the tables a publish writes, to prove nothing was half-written. */
  counts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

export interface TestHubOptions {
  embedded?: boolean;
  env?: Record<string, string>;
  /** Also run a certifier-worker (PostgreSQL only; the embedded hub certifies in-process). */
  worker?: boolean;
  /** A PostgreSQL database of the test's own (a private cluster), used instead of a new one on the shared server. */
  databaseUrl?: string;
}

const COUNTED_TABLES = ['namespaces', 'skills', 'skill_versions', 'blobs', 'certifications', 'outbox', 'submissions'];

export async function startTestHub(options: TestHubOptions = {}): Promise<TestHub> {
  const db = options.embedded || options.databaseUrl ? null : await createTestDatabase();
  const databaseUrl = options.databaseUrl ?? db?.url;
  const embedded = options.embedded ? await startEmbeddedDatabase(null) : null;
  const prefix = newTestRedisPrefix();
  const adminToken = `test-admin-${randomBytes(24).toString('hex')}`;
  // The live probe's package cache: the hub's own, never the repository's data folder.
  const packageCache = mkdtempSync(join(tmpdir(), 'skillhub-test-packages-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    DATABASE_URL: databaseUrl,
    REDIS_URL: testRedisUrl(),
    REDIS_PREFIX: prefix,
    HUB_ADMIN_TOKEN: adminToken,
    HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    PACKAGE_CACHE_DIR: packageCache,
    OUTBOX_POLL_MS: '200',
    DOWNLOAD_FLUSH_MS: '100',
    // Detonation runs each skill's programs under strace; the suites that test it turn it on.
    DETONATION: 'false',
    ...options.env,
  });
  let app: INestApplication;
  try {
    app = await createHubApp(
      config,
      embedded
        ? { url: embedded.url, embedded: true, stop: () => embedded.stop() }
        : { url: databaseUrl!, embedded: false },
    );
    await app.listen(0, '127.0.0.1');
  } catch (err) {
    // Leave nothing running that would keep jest from exiting.
    await embedded?.stop();
    await db?.drop();
    throw err;
  }
  const worker = options.worker && databaseUrl ? await startWorker(config, databaseUrl) : null;
  const baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const http = request(app.getHttpServer());
  const dataSource = app.get(DataSource);

  return {
    app,
    baseUrl,
    config,
    adminToken,
    http,
    dataSource,
    async token(namespace, scopes = ['publish', 'manage']) {
      const res = await http
        .post('/api/v1/tokens')
        .set('authorization', `Bearer ${adminToken}`)
        .send({ namespace, scopes });
      if (res.status !== 201) throw new Error(`token creation failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.token as string;
    },
    async counts() {
      const entries = await Promise.all(
        COUNTED_TABLES.map(
          async (t) => [t, Number((await dataSource.query(`SELECT count(*)::int AS n FROM "${t}"`))[0].n)] as const,
        ),
      );
      return Object.fromEntries(entries);
    },
    async close() {
      await worker?.close();
      await closeWithin(app, CLOSE_WITHIN_MS);
      await db?.drop();
      await deleteRedisKeys(prefix);
      rmSync(packageCache, { recursive: true, force: true });
    },
  };
}

/**
 * How long a test waits for hub-api to shut down. In the full suite, the embedded hub of
 * test/redis-outage.e2e-spec.ts has been seen not to end its shutdown after Redis restarts (never
 * reproduced alone; every queue's close is bounded, so the wait is elsewhere). The test then goes
 * on, saying so, rather than failing every later suite on a hook timeout; jest.config.js's
 * forceExit ends what was left running.
 */
const CLOSE_WITHIN_MS = 30_000;

async function closeWithin(app: INestApplication, ms: number): Promise<void> {
  await withTimeout(app.close(), ms).catch(() =>
    process.stderr.write(`test-hub: hub-api did not shut down within ${ms} ms; going on\n`),
  );
}

/** A certifier-worker like `npm run start:certifier-worker`, in this process. */
export async function startWorker(config: HubConfig, databaseUrl: string): Promise<INestApplicationContext> {
  const worker = await NestFactory.createApplicationContext(CertifierWorkerModule.forRoot(config, databaseUrl), {
    logger: ['error'],
    abortOnError: false,
  });
  await worker.init();
  return worker;
}
