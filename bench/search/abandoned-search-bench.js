#!/usr/bin/env node
// Searches whose clients go away. BENCH_CONNECTIONS (20) clients each send a search of the search
// bench's mix and close the connection when it has not answered within BENCH_ABANDON_MS (30), for
// BENCH_SECONDS (5); the moment the load stops, one client asks a fresh search, and the time it
// takes is compared with the same search on the idle hub (the baseline, measured in the same run).
// Also counted at that moment: the hub's statements still active in PostgreSQL (the backlog).
// BENCH_ROUNDS (5) rounds, then one of the same load whose clients wait for their answers (the
// floor: a fresh search waits behind at most 20). Seeds BENCH_SIZE (100,000) skills of search-corpus.js once into
// `skillhub_bench_abandon_<size>` (kept for the next run; `dropdb` it to reseed) and runs hub-api
// from BENCH_DIST (default dist) as its own process, so a build from before a change can be run
// against the same catalogue.
// `npm run build && node bench/search/abandoned-search-bench.js`.
const http = require('node:http');
const { randomBytes } = require('node:crypto');
const { join, resolve } = require('node:path');
const { performance } = require('node:perf_hooks');
const { Client } = require('pg');

const { withKeptDatabase } = require('../support/scratch-database');
const { deleteRedisKeys, startHub } = require('../support/hub-process');
const { seedCorpus, QUERIES } = require('./search-corpus');

const ROOT = join(__dirname, '..', '..');
const DIST = resolve(ROOT, process.env.BENCH_DIST ?? 'dist');
const SIZE = Number(process.env.BENCH_SIZE ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ABANDON_MS = Number(process.env.BENCH_ABANDON_MS ?? 30);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The fresh request: a common word, ranked. */
const FRESH = '/api/v1/skills?q=weather&per_page=20';

/** Seeds with this tree's own build (the catalogue is the same whichever build is measured). */
async function seed(url) {
  const { DataSource } = require('typeorm');
  const db = require(join(ROOT, 'dist/libs/database/src'));
  const ds = new DataSource(db.buildDataSourceOptions(url, { poolSize: 1 }));
  await ds.initialize();
  try {
    await ds.runMigrations();
    await seedCorpus((sql, params) => ds.query(sql, params), SIZE, {
      searchVectorSql: db.SKILL_SEARCH_VECTOR_SQL,
      listedSql: db.LISTED_VERSION_SQL,
      listedOrderSql: db.LISTED_VERSION_ORDER_SQL,
      policyVersion: require(join(ROOT, 'dist/libs/certification/src')).CERTIFICATION_POLICY_VERSION,
    });
    await ds.query('VACUUM ANALYZE');
  } finally {
    await ds.destroy();
  }
}

/** One request on a connection of its own, closed after `abandonMs` unanswered; resolves either way. */
function request(base, path, abandonMs = Infinity) {
  return new Promise((done) => {
    const started = performance.now();
    const req = http.get(base + path, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => done({ ms: performance.now() - started, status: res.statusCode }));
    });
    req.on('error', () => done({ ms: performance.now() - started, status: null }));
    if (abandonMs !== Infinity) setTimeout(() => req.destroy(), abandonMs);
  });
}

async function load(base, abandonMs) {
  const end = performance.now() + SECONDS * 1000;
  let sent = 0;
  let answered = 0;
  const client = async (k) => {
    for (let i = k; performance.now() < end; i += CONNECTIONS) {
      const { q } = QUERIES[i % QUERIES.length];
      const { status } = await request(base, `/api/v1/skills?q=${encodeURIComponent(q)}&per_page=20`, abandonMs);
      sent++;
      if (status !== null) answered++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, k) => client(k)));
  return { sent, answered };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  await withKeptDatabase(`skillhub_bench_abandon_${SIZE}`, async (url, fresh, seeded) => {
    if (fresh) {
      const t = performance.now();
      await seed(url);
      console.error(`seeded ${SIZE} skills in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    }
    seeded();
    const prefix = `skillhub-bench-abandon-${randomBytes(4).toString('hex')}`;
    const hub = await startHub(DIST, {
      ...process.env,
      DATABASE_URL: url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'error',
    });
    const pg = new Client({ connectionString: url });
    await pg.connect();
    const active = async () =>
      (
        await pg.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
        )
      ).rows[0].n;
    try {
      for (let i = 0; i < 10; i++) await request(hub.base, FRESH); // warm-up
      const idle = [];
      for (let i = 0; i < 20; i++) idle.push((await request(hub.base, FRESH)).ms);
      const rounds = [];
      for (let r = 0; r <= ROUNDS; r++) {
        const { sent, answered } = await load(hub.base, r < ROUNDS ? ABANDON_MS : Infinity);
        const backlog = await active();
        const after = (await request(hub.base, FRESH)).ms;
        rounds.push({ sent, answered, backlog, after });
        await new Promise((done) => setTimeout(done, 2_000)); // let a backlog drain before the next round
      }
      const idleMs = median(idle);
      console.log(
        `\nsearches abandoned after ${ABANDON_MS} ms by ${CONNECTIONS} clients for ${SECONDS} s, ${SIZE} skills, build ${DIST}\n`,
      );
      console.log(
        '| round | sent | answered in time | statements active when the load stops | fresh search after | / idle |',
      );
      console.log('|---|---|---|---|---|---|');
      rounds.forEach((r, i) =>
        console.log(
          `| ${i < ROUNDS ? i + 1 : 'clients wait'} | ${r.sent} | ${r.answered} | ${r.backlog} | ${r.after.toFixed(0)} ms | ${(r.after / idleMs).toFixed(1)}× |`,
        ),
      );
      console.log(`\nfresh search on the idle hub: median ${idleMs.toFixed(1)} ms (20 runs)`);
      const abandoned = rounds.slice(0, ROUNDS).map((r) => r.after);
      console.log(`fresh search right after the abandoning load: median ${median(abandoned).toFixed(0)} ms`);
      console.log(`fresh search right after the same load, clients waiting: ${rounds[ROUNDS].after.toFixed(0)} ms`);
    } finally {
      await pg.end();
      await hub.stop();
      await deleteRedisKeys(REDIS_URL, prefix);
    }
  });
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
