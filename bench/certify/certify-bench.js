#!/usr/bin/env node
// Certification throughput and latency: for worker concurrency 1, 8 and 32, a fresh
// PostgreSQL database, hub-api in this process, and certifier-worker as a child process
// (so its peak RSS is its own), against a local fake npm that answers every package
// probe after 50 ms. Apart from that burst, a single publish → certified, one after the
// other (nothing to wait behind), on PostgreSQL with the worker and on the embedded database
// (certified in hub-api's process). Also SHA-256 throughput of the bundle path against
// `sha256sum` on the same bytes. The live tool probe is off here (its cost is measured by
// certify-truth-bench.js): these skills' packages exist only as version documents.
// Every database and Redis key made is removed. Run `npm run build` first; `npm run bench:certify`.
//   BENCH_COUNT (default 200) versions per burst; BENCH_SINGLE_COUNT (40) sequential publishes,
//   the first 5 not counted (warm-up); BENCH_PARTS (default "burst,single,sha") what to run;
//   BENCH_DIST (default dist/) the built tree.
const { spawn, spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { writeFileSync, readFileSync, rmSync } = require('node:fs');
const { createServer } = require('node:http');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { performance } = require('node:perf_hooks');
const { DataSource } = require('typeorm');
const { stringify } = require('yaml');

const { deleteRedisKeys } = require('../support/hub-process');
const { withScratchDatabase } = require('../support/scratch-database');

const DIST = resolve(process.env.BENCH_DIST ?? join(__dirname, '../../dist'));
const dist = (p) => require(join(DIST, p));
const { createHubApp } = dist('apps/hub-api/src/create-hub-app');
const { loadConfig } = dist('libs/config/src');
const { buildDataSourceOptions, startEmbeddedDatabase } = dist('libs/database/src');
const { writeBundle, sha256Hex } = dist('libs/bundle/src');

const COUNT = Number(process.env.BENCH_COUNT ?? 200);
const SINGLE_COUNT = Number(process.env.BENCH_SINGLE_COUNT ?? 40);
const SINGLE_WARM_UP = 5;
const PARTS = (process.env.BENCH_PARTS ?? 'burst,single,sha').split(',');
const PROBE_DELAY_MS = 50;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

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

/** The environment of one run's hub and worker: a Redis prefix of its own, removed afterwards. */
function benchEnv(databaseUrl, concurrency, npmUrl) {
  const { DATABASE_URL: _, ...inherited } = process.env;
  return {
    ...inherited,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    HUB_ADMIN_TOKEN: randomBytes(24).toString('hex'),
    REDIS_URL,
    REDIS_PREFIX: `skillhub-bench-certify-${randomBytes(4).toString('hex')}`,
    NPM_REGISTRY_URL: npmUrl,
    CERTIFIER_CONCURRENCY: String(concurrency),
    PUBLISH_RATE_LIMIT_PER_MINUTE: '100000',
    OUTBOX_POLL_MS: '100',
    LOG_LEVEL: 'error',
    LIVE_PROBE: '0',
  };
}

/**
 * hub-api in this process, on a scratch PostgreSQL database with a certifier-worker child process,
 * or on the embedded database (certifying in its own process); `work` gets the hub's URL, a
 * publisher token, a query function on its database and the worker's pid.
 */
async function withHub(database, concurrency, npmUrl, work) {
  if (database === 'postgres') {
    return withScratchDatabase((url) => onHub(benchEnv(url, concurrency, npmUrl), url, work));
  }
  const embedded = await startEmbeddedDatabase(null);
  return onHub(benchEnv(null, concurrency, npmUrl), null, work, embedded);
}

async function onHub(env, databaseUrl, work, embedded = null) {
  let worker;
  let app;
  let ds;
  try {
    if (databaseUrl) {
      ds = new DataSource(buildDataSourceOptions(databaseUrl, { poolSize: 1 }));
      await ds.initialize();
      await ds.runMigrations();
    }
    app = await createHubApp(
      loadConfig(env),
      embedded
        ? { url: embedded.url, embedded: true, stop: () => embedded.stop() }
        : { url: databaseUrl, embedded: false },
    );
    await app.listen(0, '127.0.0.1');
    // The embedded database has one connection, the app's: the script queries through it.
    const query = (sql) => (ds ?? app.get(DataSource)).query(sql);
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    if (databaseUrl) {
      worker = spawn(process.execPath, [join(DIST, 'apps/certifier-worker/src/main.js')], { env, stdio: 'ignore' });
    }
    const token = (
      await (
        await fetch(`${base}/api/v1/tokens`, {
          method: 'POST',
          headers: { authorization: `Bearer ${env.HUB_ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ namespace: 'bench-labs', scopes: ['publish'] }),
        })
      ).json()
    ).token;
    return await work({ base, token, query, workerPid: worker?.pid });
  } finally {
    worker?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await app?.close();
    await ds?.destroy();
    await deleteRedisKeys(REDIS_URL, env.REDIS_PREFIX);
  }
}

async function publish(base, token, bytes) {
  const res = await fetch(`${base}/api/v1/skills`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
    body: bytes,
  });
  await res.arrayBuffer();
  if (res.status !== 201) throw new Error(`publish answered ${res.status}`);
}

/** Publish (version row) → verdict (certification row), both stamped by the database, per row. */
const STAMPED = `SELECT c.status, extract(epoch FROM c.updated_at - v.created_at) * 1000 AS ms,
   extract(epoch FROM c.updated_at) * 1000 AS done
   FROM certifications c JOIN skill_versions v ON v.id = c.skill_version_id`;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const tally = (rows) => rows.reduce((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});

/** COUNT publishes, 8 in flight, then until none is pending: throughput and latency behind the burst. */
const burst = (concurrency, npmUrl) =>
  withHub('postgres', concurrency, npmUrl, async ({ base, token, query, workerPid }) => {
    let rss = 0;
    const sampler = setInterval(() => {
      try {
        rss = Math.max(rss, peakRss(workerPid));
      } catch {
        /* not started yet, or gone */
      }
    }, 100);
    const bundles = Array.from({ length: COUNT }, (_, i) => bundle(i, 'bench-labs'));
    const t0 = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < bundles.length) await publish(base, token, bundles[next++]);
      }),
    );
    for (;;) {
      const [{ open }] = await query(`SELECT count(*)::int AS open FROM certifications WHERE status = 'pending'`);
      if (open === 0) break;
      if (Date.now() - t0 > 600_000) throw new Error('certification did not finish in 10 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    clearInterval(sampler);
    const rows = await query(STAMPED);
    const latencies = rows.map((r) => Number(r.ms)).sort((a, b) => a - b);
    const last = Math.max(...rows.map((r) => Number(r.done)));
    return {
      concurrency,
      perSecond: COUNT / ((last - t0) / 1000),
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      rss,
      statuses: tally(rows),
    };
  });

/**
 * One publish at a time, the next only once the last has its verdict: publish → certified with
 * nothing queued ahead. The database's stamps give the latency; the client's own clock (POST
 * sent → verdict seen, polled every 5 ms) is shown beside it.
 */
const single = (database, npmUrl) =>
  withHub(database, 8, npmUrl, async ({ base, token, query }) => {
    const seen = [];
    for (let i = 0; i < SINGLE_COUNT; i++) {
      const t0 = performance.now();
      await publish(base, token, bundle(i, 'bench-labs'));
      for (;;) {
        const [{ open }] = await query(`SELECT count(*)::int AS open FROM certifications WHERE status = 'pending'`);
        if (open === 0) break;
        if (performance.now() - t0 > 60_000) throw new Error('a single certification took over a minute');
        await new Promise((r) => setTimeout(r, 5));
      }
      seen.push(performance.now() - t0);
    }
    const rows = (await query(`${STAMPED} ORDER BY v.created_at`)).slice(SINGLE_WARM_UP);
    const stamped = rows.map((r) => Number(r.ms)).sort((a, b) => a - b);
    const client = seen.slice(SINGLE_WARM_UP).sort((a, b) => a - b);
    return {
      database,
      count: rows.length,
      p50: percentile(stamped, 0.5),
      p99: percentile(stamped, 0.99),
      clientP50: percentile(client, 0.5),
      clientP99: percentile(client, 0.99),
      statuses: tally(rows),
    };
  });

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
  const bursts = [];
  if (PARTS.includes('burst')) for (const c of [1, 8, 32]) bursts.push(await burst(c, npmUrl));
  const singles = [];
  if (PARTS.includes('single')) for (const d of ['postgres', 'embedded']) singles.push(await single(d, npmUrl));
  npm.close();
  if (bursts.length) {
    console.log(
      `\ncertification of ${COUNT} Kazma skills, each probing one npm package (fake registry, ${PROBE_DELAY_MS} ms per answer)\n`,
    );
    console.log(
      '| worker concurrency | certifications/s | p50 publish→verdict ms | p99 ms | worker peak RSS MiB | verdicts |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const r of bursts) {
      console.log(
        `| ${r.concurrency} | ${r.perSecond.toFixed(1)} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.rss.toFixed(0)} | ${JSON.stringify(r.statuses)} |`,
      );
    }
  }
  if (singles.length) {
    console.log(
      `\na single publish → verdict, ${SINGLE_COUNT} one after the other (first ${SINGLE_WARM_UP} not counted), same skills and registry\n`,
    );
    console.log('| database | p50 ms (stamps) | p99 ms | client p50 ms | client p99 ms | verdicts |');
    console.log('|---|---|---|---|---|---|');
    for (const r of singles) {
      console.log(
        `| ${r.database} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.clientP50.toFixed(0)} | ${r.clientP99.toFixed(0)} | ${JSON.stringify(r.statuses)} |`,
      );
    }
  }
  if (!PARTS.includes('sha')) return;
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
