#!/usr/bin/env node
// Badge throughput against GET /api/v1/health in the same run: hub-api from dist/ as a child
// process (the client here never shares its event loop), on a PostgreSQL database of its own with
// a certifier-worker, and on the embedded database. BENCH_SKILLS certified skills are published
// first; then, in BENCH_ROUNDS interleaved rounds of BENCH_SECONDS each, BENCH_CONNECTIONS
// keep-alive connections send as fast as answers come:
//   - health: GET /api/v1/health (the baseline: no database, no cache);
//   - badge 304: GET …/badge.svg with If-None-Match of its current ETag (a README viewer's
//     cache revalidating), rotating over every skill;
//   - badge 200: the same without If-None-Match (the SVG itself, from memory).
// Each phase has a one-second warm-up. Beside req/s, the hub's own CPU time per request (from
// /proc/<pid>/stat), which the machine's other load moves far less than throughput. The
// database, the data folder and every Redis key made are removed afterwards. Run `npm run build` first; `npm run bench:badge`.
//   BENCH_DATABASES (default "postgres,embedded"), BENCH_SECONDS (5), BENCH_ROUNDS (3),
//   BENCH_CONNECTIONS (10), BENCH_SKILLS (50); BENCH_DIST (default dist/) is the tree measured.
const { randomBytes } = require('node:crypto');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const http = require('node:http');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { performance } = require('node:perf_hooks');
const { DataSource } = require('typeorm');
const { stringify } = require('yaml');

const { deleteRedisKeys, startHub, startProcess } = require('../support/hub-process');
const { withScratchDatabase } = require('../support/scratch-database');

const DIST = resolve(process.env.BENCH_DIST ?? join(__dirname, '../../dist'));
const { writeBundle } = require(join(DIST, 'libs/bundle/src'));
const { buildDataSourceOptions } = require(join(DIST, 'libs/database/src'));

const DATABASES = (process.env.BENCH_DATABASES ?? 'postgres,embedded').split(',');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SKILLS = Number(process.env.BENCH_SKILLS ?? 50);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const NAMESPACE = 'bench-badges';

function bundle(name) {
  const manifest = {
    name,
    version: '1.0.0',
    description: 'A benchmark skill whose badge is asked for again and again.',
    author: NAMESPACE,
    license: 'MIT',
    entry_point: 'main.py',
  };
  return writeBundle(
    [
      { path: 'skill_manifest.yaml', content: stringify(manifest) },
      { path: 'main.py', content: `class Skill:\n    def run(self):\n        return ${JSON.stringify(name)}\n` },
    ],
    { rootFolder: name },
  );
}

/** Publishes the skills and waits until none is pending; returns each badge's path and ETag. */
async function seed(base, adminToken) {
  const tokenRes = await fetch(`${base}/api/v1/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ namespace: NAMESPACE, scopes: ['publish'] }),
  });
  const { token } = await tokenRes.json();
  const names = Array.from({ length: SKILLS }, (_, i) => `badge-${i}`);
  for (const name of names) {
    const res = await fetch(`${base}/api/v1/skills`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
      body: bundle(name),
    });
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`publish answered ${res.status}`);
  }
  const verdicts = {};
  for (const name of names) {
    for (let i = 0; ; i++) {
      const res = await fetch(`${base}/api/v1/skills/${NAMESPACE}/${name}/versions/1.0.0/certification`);
      const { status } = await res.json();
      if (status !== 'pending') {
        verdicts[status] = (verdicts[status] ?? 0) + 1;
        break;
      }
      if (i > 1200) throw new Error(`${name} stayed pending for a minute`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const badges = [];
  for (const name of names) {
    const path = `/api/v1/skills/${NAMESPACE}/${name}/badge.svg`;
    const res = await fetch(`${base}${path}`);
    await res.arrayBuffer();
    badges.push({ path, etag: res.headers.get('etag') });
  }
  return { badges, verdicts };
}

/**
 * CONNECTIONS loops on keep-alive sockets for `seconds`, each request the next of `requests`
 * ({ path, headers, status }); answers with another status count as errors.
 */
function load(base, requests, seconds) {
  const { hostname, port } = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let next = 0;
  let done = 0;
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const one = () =>
    new Promise((resolveOne) => {
      const r = requests[next++ % requests.length];
      const req = http.get({ hostname, port, path: r.path, headers: r.headers, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === r.status) done++;
          else errors++;
          resolveOne();
        });
      });
      req.on('error', () => {
        errors++;
        resolveOne();
      });
    });
  const loop = async () => {
    while (performance.now() < deadline) await one();
  };
  const t0 = performance.now();
  return Promise.all(Array.from({ length: CONNECTIONS }, loop)).then(() => {
    agent.destroy();
    return { perSecond: done / ((performance.now() - t0) / 1000), done, errors };
  });
}

/** CPU time a process has used, in ms, from /proc/<pid>/stat (user + system, in clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function measure(base, pid, badges) {
  const phases = {
    health: [{ path: '/api/v1/health', headers: {}, status: 200 }],
    'badge 304 (If-None-Match)': badges.map((b) => ({
      path: b.path,
      headers: { 'if-none-match': b.etag },
      status: 304,
    })),
    'badge 200 (no ETag)': badges.map((b) => ({ path: b.path, headers: {}, status: 200 })),
  };
  const results = Object.fromEntries(Object.keys(phases).map((k) => [k, { perSecond: [], cpuUs: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, requests] of Object.entries(phases)) {
      await load(base, requests, 1); // warm-up
      const cpu0 = cpuMs(pid);
      const r = await load(base, requests, SECONDS);
      if (r.errors) throw new Error(`${name}: ${r.errors} unexpected answers`);
      results[name].perSecond.push(r.perSecond);
      results[name].cpuUs.push(((cpuMs(pid) - cpu0) * 1000) / r.done);
    }
  }
  return results;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function runHub(databaseUrl) {
  const prefix = `skillhub-bench-badge-${randomBytes(4).toString('hex')}`;
  const dataDir = databaseUrl ? null : mkdtempSync(join(tmpdir(), 'skillhub-bench-badge-'));
  const adminToken = randomBytes(24).toString('hex');
  const { DATABASE_URL: _, ...inherited } = process.env;
  const env = {
    ...inherited,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { HUB_DATA_DIR: dataDir }),
    REDIS_URL,
    REDIS_PREFIX: prefix,
    HUB_ADMIN_TOKEN: adminToken,
    HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    PUBLISH_RATE_LIMIT_PER_MINUTE: '100000',
    LOG_LEVEL: 'error',
    LIVE_PROBE: 'false',
  };
  let hub = null;
  let worker = null;
  try {
    if (databaseUrl) {
      const ds = new DataSource(buildDataSourceOptions(databaseUrl, { poolSize: 1 }));
      await ds.initialize();
      await ds.runMigrations();
      await ds.destroy();
      worker = startProcess(DIST, 'certifier-worker', env);
    }
    hub = await startHub(DIST, env);
    const { badges, verdicts } = await seed(hub.base, adminToken);
    // The worker's part is done: it no longer takes a core from the hub or the client.
    await worker?.stop();
    worker = null;
    return { verdicts, results: await measure(hub.base, hub.pid, badges) };
  } finally {
    await worker?.stop();
    await hub?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await deleteRedisKeys(REDIS_URL, prefix);
  }
}

async function main() {
  for (const database of DATABASES) {
    const { verdicts, results } =
      database === 'postgres' ? await withScratchDatabase((url) => runHub(url)) : await runHub(null);
    // Each round's figure over that round's health, then the median: the pairs share the machine's noise.
    const paired = (key, runs) => median(runs.map((x, i) => x / results.health[key][i]));
    console.log(
      `\n${database}: ${SKILLS} skills (${JSON.stringify(verdicts)}), ${CONNECTIONS} connections, ` +
        `${ROUNDS} rounds of ${SECONDS} s, medians (rounds)\n`,
    );
    console.log('| route | req/s | rounds | / health (paired) | hub CPU µs per request | / health (paired) |');
    console.log('|---|---|---|---|---|---|');
    for (const [name, { perSecond, cpuUs }] of Object.entries(results)) {
      console.log(
        `| ${name} | ${median(perSecond).toFixed(0)} | ${perSecond.map((x) => x.toFixed(0)).join(', ')} | ` +
          `${paired('perSecond', perSecond).toFixed(2)}× | ${median(cpuUs).toFixed(0)} | ${paired('cpuUs', cpuUs).toFixed(2)}× |`,
      );
    }
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
