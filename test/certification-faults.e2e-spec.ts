/**
 * The certifier under faults: a worker process killed with SIGKILL mid-job, a Redis that
 * restarts (losing every queued job) during a burst of publishes, and a stored bundle
 * that no longer reads. Workers run as real child processes from dist/ (built if missing).
 */
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { writeBundle } from '@skillhub/bundle';
import { FakeRegistries, FROM_FIXTURES } from '@skillhub/package-probe/testing';
import { kazmaChecksum } from '@skillhub/signing';
import { uniqueName } from '@skillhub/testing';
import { sparePort, startRedis, stopRedis, waitFor } from './support/private-redis';
import { startTestHub, type TestHub } from './support/test-hub';

const ROOT = join(__dirname, '..');
const WORKER_MAIN = join(ROOT, 'dist/apps/certifier-worker/src/main.js');

function bundle(author: string, name: string, mcp = false) {
  const code = `print("${name}")\n`;
  return writeBundle(
    [
      {
        path: 'skill_manifest.yaml',
        content: stringify({
          name,
          version: '1.0.0',
          description: 'A skill for the certifier fault tests.',
          author,
          license: 'MIT',
          entry_point: 'main.py',
          checksum: kazmaChecksum(Buffer.from(code)),
          ...(mcp
            ? {
                mcp_servers: [
                  { name: 'weather', type: 'stdio', command: 'npx', args: ['-y', '@acme/weather-mcp@1.2.3'] },
                ],
              }
            : {}),
        }),
      },
      { path: 'main.py', content: code },
    ],
    { rootFolder: name },
  );
}

function spawnWorker(hub: TestHub, extraEnv: Record<string, string> = {}): ChildProcess {
  // The hub's validated configuration, as the environment a worker process reads.
  const env = Object.fromEntries(
    Object.entries(hub.config)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );
  return spawn(process.execPath, [WORKER_MAIN], {
    env: { ...process.env, ...env, LOG_LEVEL: 'error', ...extraEnv },
    stdio: 'ignore',
  });
}

const kill = async (proc: ChildProcess | null, signal: NodeJS.Signals) => {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill(signal);
  await exited;
};

describe('certifier faults', () => {
  beforeAll(() => {
    if (!existsSync(WORKER_MAIN)) execSync('npm run build', { cwd: ROOT, stdio: 'ignore' });
  });

  describe('a worker killed mid-job, and a bundle that no longer reads', () => {
    let hub: TestHub;
    let registries: FakeRegistries;
    let worker: ChildProcess | null = null;
    const ns = uniqueName('faults');
    let token: string;

    beforeAll(async () => {
      registries = await FakeRegistries.start();
      hub = await startTestHub({
        env: {
          NPM_REGISTRY_URL: registries.baseUrls.npmBaseUrl,
          PYPI_REGISTRY_URL: registries.baseUrls.pypiBaseUrl,
          CERTIFIER_LOCK_MS: '1500',
          PROBE_TIMEOUT_MS: '20000',
        },
      });
      token = await hub.token(ns);
    });
    afterAll(async () => {
      await kill(worker, 'SIGTERM');
      await hub.close();
      await registries.close();
    });

    const publish = (bytes: Buffer) =>
      hub.http
        .post('/api/v1/skills')
        .set('authorization', `Bearer ${token}`)
        .set('content-type', 'application/gzip')
        .send(bytes)
        .expect(201);
    const status = async (name: string) =>
      (await hub.http.get(`/api/v1/skills/${ns}/${name}/versions/1.0.0/certification`).expect(200)).body;

    it('SIGKILL mid-job: after a restart the job completes with exactly one report and one log entry', async () => {
      const name = uniqueName('killed');
      // The package probe hangs long enough to kill the worker while it waits.
      registries.npm.script('/@acme%2fweather-mcp/1.2.3', [{ ...FROM_FIXTURES, delayMs: 4000 }, FROM_FIXTURES]);
      await publish(bundle(ns, name, true));
      worker = spawnWorker(hub);
      await waitFor(async () => registries.npm.paths.includes('/@acme%2fweather-mcp/1.2.3'), 20_000, 'the probe');
      await kill(worker, 'SIGKILL');
      expect((await status(name)).status).toBe('pending');

      worker = spawnWorker(hub);
      const verdict = await waitFor(
        async () => {
          const s = await status(name);
          return s.status !== 'pending' ? s : null;
        },
        30_000,
        'the verdict',
      );
      expect(verdict.status).toBe('certified');
      const [{ entries }] = await hub.dataSource.query(
        `SELECT count(*)::int AS entries FROM log_entries WHERE summary->>'skill' = $1`,
        [`${ns}/${name}`],
      );
      expect(entries).toBe(1);
      const [{ certificates }] = await hub.dataSource.query(
        `SELECT count(*)::int AS certificates FROM certificates c JOIN certifications x ON x.id = c.certification_id
         JOIN skill_versions v ON v.id = x.skill_version_id JOIN skills s ON s.id = v.skill_id WHERE s.name = $1`,
        [name],
      );
      expect(certificates).toBe(1);
      registries.reset();
    });

    it('a stored bundle that no longer reads fails closed with a finding, and the worker lives on', async () => {
      await kill(worker, 'SIGTERM');
      worker = null;
      const broken = uniqueName('broken');
      await publish(bundle(ns, broken));
      await hub.dataSource.query(
        `UPDATE blobs SET content = '\\x1f8b0000' WHERE sha256 = (SELECT v.bundle_sha256 FROM skill_versions v JOIN skills s ON s.id = v.skill_id WHERE s.name = $1)`,
        [broken],
      );
      worker = spawnWorker(hub);
      const verdict = await waitFor(
        async () => {
          const s = await status(broken);
          return s.status !== 'pending' ? s : null;
        },
        30_000,
        'the verdict',
      );
      expect(verdict.status).toBe('failed');
      expect(JSON.stringify(verdict.report.findings)).toMatch(/gzip|bundle/i);

      const fine = uniqueName('fine');
      await publish(bundle(ns, fine));
      const next = await waitFor(
        async () => {
          const s = await status(fine);
          return s.status !== 'pending' ? s : null;
        },
        30_000,
        'the next verdict',
      );
      expect(next.status).toBe('certified');
    });

    it("serves the worker's own metrics on WORKER_METRICS_PORT: verdicts and probe latency", async () => {
      await kill(worker, 'SIGTERM');
      const port = await sparePort();
      worker = spawnWorker(hub, { WORKER_METRICS_PORT: String(port) });
      const name = uniqueName('metered');
      await publish(bundle(ns, name, true));
      await waitFor(async () => ((await status(name)).status !== 'pending' ? true : null), 30_000, 'the verdict');
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toMatch(/^skillhub_certification_outcomes_total\{status="certified",level="\w+"\} [1-9]/m);
      expect(text).toMatch(/^skillhub_package_probe_duration_seconds_count\{registry="npm",outcome="found"\} [1-9]/m);
      expect(text).toContain('skillhub_certifier_worker_process_resident_memory_bytes');
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    });
  });

  describe('Redis restarted during a burst of 200 publishes', () => {
    let hub: TestHub;
    let redis: ChildProcess | null = null;
    const ns = uniqueName('burst');

    beforeAll(async () => {
      const port = await sparePort();
      redis = await startRedis(port);
      hub = await startTestHub({
        worker: true,
        env: {
          REDIS_URL: `redis://127.0.0.1:${port}`,
          PUBLISH_RATE_LIMIT_PER_MINUTE: '100000',
          QUEUE_WATCHDOG_MS: '3000',
          CERTIFIER_CONCURRENCY: '8',
        },
      });
      (hub as TestHub & { port: number }).port = port;
    });
    afterAll(async () => {
      await hub.close();
      await stopRedis(redis);
    });

    it('every version ends certified or reported; none is lost', async () => {
      const port = (hub as TestHub & { port: number }).port;
      const token = await hub.token(ns);
      const names = Array.from({ length: 200 }, (_, i) => `burst-${i}`);
      let next = 0;
      const restart = (async () => {
        await waitFor(async () => next >= 80, 60_000, '80 publishes');
        await stopRedis(redis);
        await new Promise((r) => setTimeout(r, 500));
        redis = await startRedis(port);
      })();
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < names.length) {
            const name = names[next++]!;
            await hub.http
              .post('/api/v1/skills')
              .set('authorization', `Bearer ${token}`)
              .set('content-type', 'application/gzip')
              .send(bundle(ns, name))
              .expect(201);
          }
        }),
      );
      await restart;
      const counts = await waitFor(
        async () => {
          const rows: Array<{ status: string; n: number }> = await hub.dataSource.query(
            `SELECT status, count(*)::int AS n FROM certifications GROUP BY status`,
          );
          const byStatus = Object.fromEntries(rows.map((r) => [r.status, r.n]));
          return byStatus.pending ? null : byStatus;
        },
        90_000,
        'no pending certification',
      );
      expect(counts).toEqual({ certified: 200 });
    });
  });
});
