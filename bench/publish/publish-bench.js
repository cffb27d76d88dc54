#!/usr/bin/env node
// Publish throughput and latency for 10 KiB bundles, embedded PGlite vs PostgreSQL,
// both measured in this one process, one after the other, with the same bundles and
// the same concurrency. Run `npm run build` first; `npm run bench:publish`.
//   BENCH_COUNT (default 400) bundles per backend, BENCH_CONCURRENCY (default 8).
const { randomBytes } = require('node:crypto');
const { performance } = require('node:perf_hooks');
const { stringify } = require('yaml');

const { deleteRedisKeys } = require('../support/hub-process');
const { withScratchDatabase } = require('../support/scratch-database');

const dist = (p) => require(`../../dist/${p}`);
const { createHubApp } = dist('apps/hub-api/src/create-hub-app');
const { loadConfig } = dist('libs/config/src');
const { startEmbeddedDatabase, buildDataSourceOptions } = dist('libs/database/src');
const { writeBundle } = dist('libs/bundle/src');

const COUNT = Number(process.env.BENCH_COUNT ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const NAMESPACE = 'bench-labs';

function bundles() {
  return Array.from({ length: COUNT }, (_, i) => {
    const name = `bench-skill-${i}`;
    const manifest = {
      name,
      version: '1.0.0',
      description: 'A benchmark skill with a ten kibibyte payload.',
      author: NAMESPACE,
      license: 'MIT',
      entry_point: 'main.py',
    };
    // Random bytes do not compress, so each bundle is ~10 KiB on the wire.
    return writeBundle(
      [
        { path: 'skill_manifest.yaml', content: stringify(manifest) },
        { path: 'main.py', content: 'print("bench")\n' },
        { path: 'assets/payload.bin', content: randomBytes(9_900) },
      ],
      { rootFolder: name },
    );
  });
}

async function run(label, database) {
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: database.embedded ? undefined : database.url,
    HUB_ADMIN_TOKEN: randomBytes(24).toString('hex'),
    REDIS_PREFIX: `skillhub-bench-publish-${Date.now()}`,
    LOG_LEVEL: 'error',
    PUBLISH_RATE_LIMIT_PER_MINUTE: '100000',
  });
  const app = await createHubApp(config, database);
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const tokenRes = await fetch(`${base}/api/v1/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${config.HUB_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ namespace: NAMESPACE, scopes: ['publish'] }),
  });
  const { token } = await tokenRes.json();
  const all = bundles();
  const warmup = all.splice(0, 20);
  const publish = async (bytes) => {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v1/skills`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
      body: bytes,
    });
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`publish answered ${res.status}`);
    return performance.now() - t0;
  };
  for (const b of warmup) await publish(b);

  const latencies = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < all.length) latencies.push(await publish(all[next++]));
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  await app.close();
  await deleteRedisKeys(config.REDIS_URL, config.REDIS_PREFIX);
  latencies.sort((a, b) => a - b);
  const q = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  const avgSize = Math.round(all.reduce((s, b) => s + b.length, 0) / all.length);
  return { label, bundles: all.length, avgSize, perSecond: all.length / seconds, p50: q(0.5), p99: q(0.99) };
}

async function main() {
  const results = [];
  const embedded = await startEmbeddedDatabase(null);
  results.push(await run('embedded (PGlite)', { url: embedded.url, embedded: true, stop: () => embedded.stop() }));

  await withScratchDatabase(async (url) => {
    const { DataSource } = require('typeorm');
    const ds = new DataSource(buildDataSourceOptions(url, { poolSize: 1 }));
    await ds.initialize();
    await ds.runMigrations();
    await ds.destroy();
    results.push(await run('PostgreSQL', { url, embedded: false }));
  });

  console.log(`\npublish, ${COUNT - 20} bundles per backend after 20 warm-up, concurrency ${CONCURRENCY}\n`);
  console.log('| backend | bundle size | bundles/s | p50 ms | p99 ms |');
  console.log('|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.label} | ${(r.avgSize / 1024).toFixed(1)} KiB | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} |`,
    );
  }
  const [e, p] = results;
  console.log(`\nembedded / PostgreSQL throughput ratio: ${(e.perSecond / p.perSecond).toFixed(2)}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
