#!/usr/bin/env node
// Certification throughput and latency: for worker concurrency 1, 8 and 32, a fresh
// PostgreSQL database, hub-api in this process, and certifier-worker as a child process
// (so its peak RSS is its own), against a local fake npm that answers every package
// probe after 50 ms. Also SHA-256 throughput of the bundle path against `sha256sum` on
// the same bytes. The live tool probe is off here (its cost is measured by
// certify-truth-bench.js): these skills' packages exist only as version documents.
// Run `npm run build` first; `npm run bench:certify`.
//   BENCH_COUNT (default 200) versions per run.
const { spawn, spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { writeFileSync, readFileSync, rmSync } = require('node:fs');
const { createServer } = require('node:http');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { DataSource } = require('typeorm');
const { stringify } = require('yaml');

const { withScratchDatabase } = require('../support/scratch-database');

const dist = (p) => require(`../../dist/${p}`);
const { createHubApp } = dist('apps/hub-api/src/create-hub-app');
const { loadConfig } = dist('libs/config/src');
const { buildDataSourceOptions } = dist('libs/database/src');
const { writeBundle, sha256Hex } = dist('libs/bundle/src');

const COUNT = Number(process.env.BENCH_COUNT ?? 200);
const PROBE_DELAY_MS = 50;

/** npm's version document for any name and version, after a fixed delay. */
function fakeNpm() {
  const server = createServer((req, res) => {
    setTimeout(() => {
      const [, name, version] = decodeURIComponent(req.url ?? '').match(/^\/(.+)\/([^/]+)$/) ?? [];
      res.setHeader('content-type', 'application/json');
      if (!name) return res.writeHead(404).end('{}');
      res.end(
        JSON.stringify({
          name,
          version,
          dist: { integrity: `sha512-${Buffer.from(name + version).toString('base64')}` },
        }),
      );
    }, PROBE_DELAY_MS);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function bundle(i, author) {
  const name = `bench-cert-${i}`;
  const code = `class Skill:\n    def run(self):\n        return ${i}\n`;
  const manifest = {
    name,
    version: '1.0.0',
    description: 'A benchmark skill whose MCP server is probed on npm.',
    author,
    license: 'MIT',
    entry_point: 'main.py',
    mcp_servers: [{ name: 'tools', type: 'stdio', command: 'npx', args: ['-y', `@bench/tools-${i}@1.0.0`] }],
  };
  return writeBundle(
    [
      { path: 'skill_manifest.yaml', content: stringify(manifest) },
      { path: 'main.py', content: code },
    ],
    { rootFolder: name },
  );
}

/** Peak resident set of a process, from /proc (VmHWM), in MiB. */
const peakRss = (pid) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

const run = (concurrency, npmUrl) => withScratchDatabase((url) => runOn(url, concurrency, npmUrl));

async function runOn(url, concurrency, npmUrl) {
  const env = {
    ...process.env,
    DATABASE_URL: url,
    HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    HUB_ADMIN_TOKEN: randomBytes(24).toString('hex'),
    REDIS_PREFIX: `skillhub-bench-${Date.now()}`,
    NPM_REGISTRY_URL: npmUrl,
    CERTIFIER_CONCURRENCY: String(concurrency),
    PUBLISH_RATE_LIMIT_PER_MINUTE: '100000',
    OUTBOX_POLL_MS: '100',
    LOG_LEVEL: 'error',
    LIVE_PROBE: '0',
  };
  let worker;
  try {
    const ds = new DataSource(buildDataSourceOptions(url, { poolSize: 1 }));
    await ds.initialize();
    await ds.runMigrations();
    const config = loadConfig(env);
    const app = await createHubApp(config, { url: url, embedded: false });
    await app.listen(0, '127.0.0.1');
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    worker = spawn(process.execPath, ['dist/apps/certifier-worker/src/main.js'], { env, stdio: 'ignore' });
    let rss = 0;
    const sampler = setInterval(() => {
      try {
        rss = Math.max(rss, peakRss(worker.pid));
      } catch {
        /* not started yet, or gone */
      }
    }, 100);

    const token = (
      await (
        await fetch(`${base}/api/v1/tokens`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.HUB_ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ namespace: 'bench-labs', scopes: ['publish'] }),
        })
      ).json()
    ).token;
    const bundles = Array.from({ length: COUNT }, (_, i) => bundle(i, 'bench-labs'));
    const t0 = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < bundles.length) {
          const res = await fetch(`${base}/api/v1/skills`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
            body: bundles[next++],
          });
          await res.arrayBuffer();
          if (res.status !== 201) throw new Error(`publish answered ${res.status}`);
        }
      }),
    );
    for (;;) {
      const [{ open }] = await ds.query(`SELECT count(*)::int AS open FROM certifications WHERE status = 'pending'`);
      if (open === 0) break;
      if (Date.now() - t0 > 600_000) throw new Error('certification did not finish in 10 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    clearInterval(sampler);
    const rows = await ds.query(
      `SELECT c.status, extract(epoch FROM c.updated_at - v.created_at) * 1000 AS ms, extract(epoch FROM c.updated_at) * 1000 AS done
       FROM certifications c JOIN skill_versions v ON v.id = c.skill_version_id`,
    );
    const statuses = rows.reduce((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
    const latencies = rows.map((r) => Number(r.ms)).sort((a, b) => a - b);
    const last = Math.max(...rows.map((r) => Number(r.done)));
    await app.close();
    await ds.destroy();
    return {
      concurrency,
      perSecond: COUNT / ((last - t0) / 1000),
      p50: latencies[Math.floor(latencies.length / 2)],
      p99: latencies[Math.floor(latencies.length * 0.99)],
      rss,
      statuses,
    };
  } finally {
    worker?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
  }
}

function sha256Throughput() {
  const bytes = randomBytes(256 * 1024 * 1024);
  const file = join(tmpdir(), `skillhub-sha-${process.pid}`);
  writeFileSync(file, bytes);
  try {
    const t0 = performance.now();
    const ours = sha256Hex(bytes);
    const nodeMs = performance.now() - t0;
    spawnSync('sha256sum', [file]); // warm the page cache
    const t1 = performance.now();
    const out = spawnSync('sha256sum', [file], { encoding: 'utf8' });
    const toolMs = performance.now() - t1;
    if (!out.stdout.startsWith(ours)) throw new Error('digests differ');
    const mib = bytes.length / 1024 / 1024;
    return { mib, node: mib / (nodeMs / 1000), tool: mib / (toolMs / 1000) };
  } finally {
    rmSync(file, { force: true });
  }
}

async function main() {
  const npm = await fakeNpm();
  const npmUrl = `http://127.0.0.1:${npm.address().port}`;
  const results = [];
  for (const c of [1, 8, 32]) results.push(await run(c, npmUrl));
  npm.close();
  console.log(
    `\ncertification of ${COUNT} Kazma skills, each probing one npm package (fake registry, ${PROBE_DELAY_MS} ms per answer)\n`,
  );
  console.log(
    '| worker concurrency | certifications/s | p50 publish→verdict ms | p99 ms | worker peak RSS MiB | verdicts |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.concurrency} | ${r.perSecond.toFixed(1)} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.rss.toFixed(0)} | ${JSON.stringify(r.statuses)} |`,
    );
  }
  const sha = sha256Throughput();
  console.log(
    `\nSHA-256 of ${sha.mib} MiB: bundle path (node:crypto) ${sha.node.toFixed(0)} MiB/s, sha256sum ${sha.tool.toFixed(0)} MiB/s, ratio ${(sha.node / sha.tool).toFixed(2)}`,
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
