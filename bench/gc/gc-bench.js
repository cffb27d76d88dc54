#!/usr/bin/env node
// What a request leaves to V8's garbage collector in hub-api (docs/architecture.md, "The HTTP
// server and the garbage collector"): per request, the KB allocated and the KB moved to the old
// generation (promoted), the young-generation collections (scavenges) with their mean pause, and
// the full collections, read from hub-api's own `--trace-gc-nvp` lines. Beside it, in the same run,
// a bare Node HTTP server answering a fixed JSON body: the floor (it promotes nothing).
//
// It needs a seeded search catalogue: BENCH_DATABASE_URL, by default the one `BENCH_KEEP=100000
// npm run bench:search` keeps (`skillhub_bench_search_100000`). BENCH_BASE_DIST=<another build's
// dist> measures that build too, request for request, for a before and after. BENCH_REQUESTS
// (2000 a route, after 200 of warm-up). `npm run build && npm run bench:gc`.
const { spawn } = require('node:child_process');
const http = require('node:http');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { randomBytes } = require('node:crypto');
const { Client } = require('pg');
const { deleteRedisKeys, nodeFlags, startHub } = require('../support/hub-process');

const ROOT = join(__dirname, '..', '..');
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/skillhub_bench_search_100000';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const WARMUP = 200;
const ROUTES = [
  ['health', '/api/v1/health'],
  ['list by name, page 1', '/api/v1/skills?sort=name&limit=20'],
  ['stats', '/api/v1/stats'],
  ['one word (q=weather)', '/api/v1/skills?q=weather&per_page=20'],
  ['misspelt (q=wether)', '/api/v1/skills?q=wether&per_page=20'],
];
const TRACE = ['--trace-gc-nvp'];

/** A bare HTTP server, the floor: what Node's own HTTP handling leaves. */
const BARE = `require('node:http').createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ status: 'ok', version: '0.1.0' }));
}).listen(0, '127.0.0.1', function () { process.stderr.write('port ' + this.address().port + '\\n'); });`;

const agent = new http.Agent({ keepAlive: true });
const get = (base, path) =>
  new Promise((resolve, reject) => {
    http
      .get(base + path, { agent }, (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`${path} answered ${res.statusCode}`)),
        );
      })
      .on('error', reject);
  });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The GC trace lines `child` writes to its stdout, as they come. */
function traceOf(child) {
  const lines = [];
  let rest = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop();
    for (const line of parts) if (line.includes('gc=')) lines.push(line);
  });
  return lines;
}

/** Sums the trace lines `lines` (one per collection) over `requests`. */
function summarise(lines, requests) {
  let allocated = 0;
  let promoted = 0;
  const scavenges = [];
  let full = 0;
  for (const line of lines) {
    const field = Object.fromEntries(
      line
        .trim()
        .split(/\s+/)
        .map((kv) => kv.split('=')),
    );
    allocated += Number(field.allocated ?? 0);
    if (field.gc === 's') {
      scavenges.push(Number(field.pause));
      promoted += Number(field.promoted ?? 0);
    } else full++;
  }
  const kb = (bytes) => (bytes / 1024 / requests).toFixed(1);
  const mean = scavenges.length ? (scavenges.reduce((a, b) => a + b, 0) / scavenges.length).toFixed(1) : '–';
  return { allocated: kb(allocated), promoted: kb(promoted), scavenges: scavenges.length, mean, full };
}

/** Sequential requests to `path`, after a warm-up; the collections they brought. */
async function measure(base, lines, path) {
  for (let i = 0; i < WARMUP; i++) await get(base, path);
  await sleep(200);
  const from = lines.length;
  const t = performance.now();
  for (let i = 0; i < REQUESTS; i++) await get(base, path);
  const ms = (performance.now() - t) / REQUESTS;
  await sleep(200);
  return { ...summarise(lines.slice(from), REQUESTS), ms: ms.toFixed(2) };
}

function row(server, route, r) {
  console.log(
    `| ${server} | ${route} | ${r.allocated} | ${r.promoted} | ${r.scavenges} | ${r.mean} | ${r.full} | ${r.ms} |`,
  );
}

async function bare() {
  const child = spawn(process.execPath, [...nodeFlags('hub-api'), ...TRACE, '-e', BARE], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = traceOf(child);
  const port = await new Promise((resolve, reject) => {
    child.stderr.on('data', (c) => {
      const m = /port (\d+)/.exec(String(c));
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)));
  });
  try {
    row('bare Node HTTP', 'GET /', await measure(`http://127.0.0.1:${port}`, lines, '/'));
  } finally {
    child.kill();
  }
}

async function hub(label, dist) {
  const prefix = `skillhub-bench-gc-${randomBytes(4).toString('hex')}`;
  const env = {
    ...process.env,
    DATABASE_URL,
    REDIS_PREFIX: prefix,
    HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'error',
  };
  const started = await startHub(dist, env, { flags: TRACE, stdout: 'pipe' });
  const lines = traceOf(started.child);
  try {
    for (const [route, path] of ROUTES) row(label, route, await measure(started.base, lines, path));
  } finally {
    await started.stop();
    await deleteRedisKeys(REDIS_URL, prefix);
  }
}

async function main() {
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect().catch(() => {
    throw new Error(`no catalogue at ${DATABASE_URL}: seed one with BENCH_KEEP=100000 npm run bench:search`);
  });
  const [{ n }] = (await db.query('SELECT count(*)::int AS n FROM skills')).rows;
  await db.end();
  console.log(
    `### hub-api and the garbage collector: ${n.toLocaleString('en')} skills, ${REQUESTS} sequential requests a route\n`,
  );
  console.log(
    '| server | route | KB allocated / request | KB promoted / request | scavenges | mean scavenge ms | full GCs | ms / request |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  await bare();
  if (process.env.BENCH_BASE_DIST) await hub(`hub-api (${process.env.BENCH_BASE_DIST})`, process.env.BENCH_BASE_DIST);
  await hub('hub-api', join(ROOT, 'dist'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
