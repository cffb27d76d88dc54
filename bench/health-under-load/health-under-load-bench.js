#!/usr/bin/env node
// /api/v1/health latency while one client sends a 24 KB bundle declaring 9,000 tools to
// POST /api/v1/skills/validate at the validate rate limit, against /health with no load, in one run.
// hub-api runs as a child process (the built dist/, embedded database in a temp folder), so the
// client here is never held by the hub's event loop: probes are sent on a fixed schedule and timed
// from when they were due. BENCH_BASELINE_DIST=<another build> runs the same load on that tree too
// (e.g. a build of the commit before bundles were read off the event loop).
// Run `npm run build` first; `node bench/health-under-load/health-under-load-bench.js`.
//   BENCH_SECONDS (default 30) per phase; BENCH_DIST (default dist/) is the tree measured.
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { performance } = require('node:perf_hooks');
const { stringify } = require('yaml');
const { deleteRedisKeys, startHub: startHubProcess } = require('../support/hub-process');

const DIST = resolve(process.env.BENCH_DIST ?? join(__dirname, '../../dist'));
const { writeBundle } = require(join(DIST, 'libs/bundle/src'));

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const PROBE_EVERY_MS = 10;
/** hub-api's default VALIDATE_RATE_LIMIT_PER_MINUTE: the load stays within it. */
const VALIDATES_PER_MINUTE = 60;

/** The bundle of the report: a 24 KB gzipped tar whose manifest declares 9,000 tools. */
function manyToolsBundle() {
  const tools = Object.fromEntries(Array.from({ length: 9_000 }, (_, i) => [`t${i}`, { description: 'x' }]));
  const manifest = {
    name: 'many-tools',
    version: '1.0.0',
    description: 'Declares nine thousand tools.',
    author: 'bench-labs',
    license: 'MIT',
    entry_point: 'main.py',
    tools,
  };
  return writeBundle(
    [
      { path: 'skill_manifest.yaml', content: stringify(manifest) },
      { path: 'main.py', content: 'print("bench")\n' },
    ],
    { rootFolder: 'many-tools' },
  );
}

async function startHub(dist) {
  const dataDir = mkdtempSync(join(tmpdir(), 'skillhub-bench-health-'));
  const prefix = `skillhub-bench-health-${Date.now()}`;
  // The embedded database (no DATABASE_URL): /health and validate never read it.
  const { DATABASE_URL: _, ...env } = process.env;
  const hub = await startHubProcess(dist, {
    ...env,
    HUB_DATA_DIR: dataDir,
    REDIS_PREFIX: prefix,
    LOG_LEVEL: 'error',
    LIVE_PROBE: 'false',
  });
  return {
    base: hub.base,
    async stop() {
      await hub.stop('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      await deleteRedisKeys(env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix);
    },
  };
}

/**
 * Probes /health every PROBE_EVERY_MS for `seconds`; each latency runs from when the probe was due.
 * A probe the hub never answers (its connection timed out) counts as failed, with the time it took.
 */
async function probeHealth(base, seconds) {
  const latencies = [];
  let failed = 0;
  const pending = [];
  const t0 = performance.now();
  for (let i = 0; ; i++) {
    const due = t0 + i * PROBE_EVERY_MS;
    if (due - t0 > seconds * 1000) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      fetch(`${base}/api/v1/health`)
        .then((res) => res.arrayBuffer())
        .catch(() => failed++)
        .then(() => latencies.push(performance.now() - due)),
    );
  }
  await Promise.all(pending);
  return Object.assign(latencies, { failed });
}

/** Sends the bundle to validate at the rate limit until `stop()`; returns each answer's status and time. */
function loadValidate(base, bundle) {
  const answers = [];
  const inFlight = new Set();
  const send = () => {
    const t = performance.now();
    const request = fetch(`${base}/api/v1/skills/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/gzip' },
      body: bundle,
    })
      .then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      })
      .catch(() => 'failed')
      .then((status) => answers.push({ status, ms: performance.now() - t }));
    inFlight.add(request);
    request.finally(() => inFlight.delete(request));
  };
  send();
  const timer = setInterval(send, 60_000 / VALIDATES_PER_MINUTE);
  return async () => {
    clearInterval(timer);
    await Promise.all(inFlight);
    return answers;
  };
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

async function measure(label, dist, bundle) {
  console.error(`measuring ${label} (${dist}) …`);
  const hub = await startHub(dist);
  try {
    // Warm-up: the first validate loads the inspection worker; the first probes open connections.
    await fetch(`${hub.base}/api/v1/skills/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/gzip' },
      body: bundle,
    }).then((r) => r.arrayBuffer());
    await probeHealth(hub.base, 2);
    const idle = await probeHealth(hub.base, SECONDS);
    const stop = loadValidate(hub.base, bundle);
    const loaded = await probeHealth(hub.base, SECONDS);
    const answers = await stop();
    return { label, idle, loaded, answers };
  } finally {
    await hub.stop();
  }
}

function row(r, phase) {
  const values = phase === 'idle' ? r.idle : r.loaded;
  const statuses =
    phase === 'idle'
      ? '—'
      : Object.entries(r.answers.reduce((n, a) => ({ ...n, [a.status]: (n[a.status] ?? 0) + 1 }), {}))
          .map(([status, n]) => `${n}× ${status}`)
          .join(', ');
  const validate =
    phase === 'idle'
      ? '—'
      : quantile(
          r.answers.map((a) => a.ms),
          0.5,
        ).toFixed(0);
  const cells = [
    r.label,
    phase === 'idle' ? 'none' : 'validate at the limit',
    quantile(values, 0.5).toFixed(1),
    quantile(values, 0.99).toFixed(1),
    Math.max(...values).toFixed(1),
    `${values.failed} of ${values.length}`,
    validate,
    statuses,
  ];
  return `| ${cells.join(' | ')} |`;
}

async function main() {
  const bundle = manyToolsBundle();
  const results = [await measure('this tree', DIST, bundle)];
  if (process.env.BENCH_BASELINE_DIST) {
    results.push(await measure('baseline', resolve(process.env.BENCH_BASELINE_DIST), bundle));
  }
  console.log(
    `\n/api/v1/health every ${PROBE_EVERY_MS} ms for ${SECONDS} s per phase; load: a ${(bundle.length / 1024).toFixed(1)} KiB bundle declaring 9,000 tools, ${VALIDATES_PER_MINUTE} validates a minute\n`,
  );
  console.log('| hub | load | /health p50 ms | p99 ms | max ms | unanswered | validate p50 ms | validate answers |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of results) for (const phase of ['idle', 'loaded']) console.log(row(r, phase));
  const [own, baseline] = results;
  console.log(
    `\nthis tree: /health p99 under load / p99 idle = ${(quantile(own.loaded, 0.99) / quantile(own.idle, 0.99)).toFixed(2)}`,
  );
  if (baseline) {
    const ratio = quantile(baseline.loaded, 0.99) / quantile(own.loaded, 0.99);
    console.log(`baseline / this tree, /health p99 under load = ${ratio.toFixed(1)}`);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
