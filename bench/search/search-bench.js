#!/usr/bin/env node
// Search, lists and stats at growing catalogue sizes, against baselines measured in the same run.
//
// For each size it seeds a generated catalogue (search-corpus.js: Zipf words with rare ones, a
// certification row per version judged under the current policy, ~30% certified, so the hub
// queues no work at start) into a database of its own, starts hub-api (`dist/.../main.js`) in a
// process of its own, and from this process, the client:
// - warms each shape up, then times it sequentially (p50, p99) beside GET /api/v1/health;
// - times the same words as a plain `ILIKE '%word%'` page and total on the same tables;
// - measures throughput of the search mix at BENCH_CONNECTIONS against the ILIKE mix;
// - follows real cursors (each sort, pages 1 to 50), measures hub-api's RSS under the mix;
// - measures the typo fallback's recall on generated misspellings.
// Databases and Redis keys it made are removed however the run ends, but for 1,000,000 skills
// and more: that catalogue is seeded once into `skillhub_bench_search_<size>` and kept for the
// next run (BENCH_KEEP=0 seeds a scratch one, BENCH_KEEP=<size> keeps from that size on; drop one
// with `dropdb skillhub_bench_search_1000000`).
//
// `npm run build && npm run bench:search`. BENCH_SIZES (default 1000,10000,100000; add 1000000
// by BENCH_1M=1), BENCH_PGLITE=1 for the embedded database, BENCH_RUNS (200), BENCH_SECONDS (8),
// BENCH_CONNECTIONS (20).
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const http = require('node:http');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');

const { withKeptDatabase, withScratchDatabase } = require('../support/scratch-database');
const { deleteRedisKeys, startHub: startHubProcess } = require('../support/hub-process');
const { seedCorpus, typoQueries, QUERIES } = require('./search-corpus');

const ROOT = join(__dirname, '..', '..');
const dist = (p) => require(join(ROOT, 'dist', p));
/** Exact totals stop here, and relevance pages at the candidates (docs/search.md). */
const { TOTAL_CAP } = dist('libs/database/src');

const PGLITE = process.env.BENCH_PGLITE === '1';
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
if (process.env.BENCH_1M === '1' && !SIZES.includes(1_000_000)) SIZES.push(1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
/**
 * Catalogues of this size or more are seeded once into `skillhub_bench_search_<size>` and kept
 * (BENCH_KEEP=0: never; BENCH_KEEP=100000: from 100,000 on).
 */
const KEEP_FROM = process.env.BENCH_KEEP === '0' ? Infinity : Number(process.env.BENCH_KEEP ?? 1_000_000);
/**
 * Catalogues of this size or more are seeded before the postings migration, which then builds
 * their postings in bulk, as on an existing hub; smaller ones through the triggers, as publishes
 * write.
 */
const BULK_FROM = 100_000;
/** A plain ILIKE scan takes 0.3 s at 100,000 skills and seconds at a million: fewer timed runs of it there. */
const ilikeRuns = (size) => (size >= 1_000_000 ? 5 : size >= 100_000 ? Math.min(RUNS, 30) : RUNS);
const WARMUP = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const CURSOR_DEPTH = 50;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const enc = encodeURIComponent;
const SEARCHES = [
  ...QUERIES.map(({ label, q }) => [label, `/api/v1/skills?q=${enc(q)}&per_page=20`]),
  ['q + filters (q=data&certified=true&format=kazma)', '/api/v1/skills?q=data&certified=true&format=kazma&per_page=20'],
];
const LISTS = [
  ['list by name, page 1', '/api/v1/skills?sort=name&limit=20'],
  ['certified=true, page 1', '/api/v1/skills?certified=true&per_page=20'],
  ['category=devops, page 1', '/api/v1/skills?category=devops&sort=downloads&per_page=20'],
  ['stats', '/api/v1/stats'],
];
/** Followed to CURSOR_DEPTH pages in warm-up; the timed requests cycle through those cursors. */
const CURSORS = [
  ['list by name, cursor pages 2–50', '/api/v1/skills?sort=name&limit=20'],
  ['list by downloads, cursor pages 2–50', '/api/v1/skills?sort=downloads&limit=20'],
  ['list by updated, cursor pages 2–50', '/api/v1/skills?sort=updated&limit=20'],
  ['list by version, cursor pages 2–50', '/api/v1/skills?sort=version&limit=20'],
  ['certified=true, cursor pages 2–50', '/api/v1/skills?certified=true&sort=name&limit=20'],
];

/** The ILIKE baseline: a page and a total, the two statements the hub answers with. */
function ilikeStatements(q) {
  const words = q
    .replace(/"|-\S+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const where = words.map((_, i) => `(s."name" ILIKE $${i + 1} OR v."description" ILIKE $${i + 1})`).join(' AND ');
  const from = `FROM "skills" s JOIN "skill_versions" v ON v."id" = s."latest_version_id" JOIN "namespaces" n ON n."id" = s."namespace_id" WHERE ${where}`;
  const params = words.map((w) => `%${w}%`);
  return [
    [`SELECT n."slug", s."name", v."version", v."description" ${from} ORDER BY s."downloads" DESC LIMIT 20`, params],
    [`SELECT count(*) ${from}`, params],
  ];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
function get(base, path) {
  return new Promise((resolve, reject) => {
    const req = http.get(base + path, { agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${path} answered ${res.statusCode}`));
        else resolve(Buffer.concat(chunks));
      });
    });
    req.on('error', reject);
  });
}
const getJson = async (base, path) => JSON.parse((await get(base, path)).toString());

function percentiles(ms) {
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(ms.length / 2)], p99: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))] };
}

/** Sequential latency of `run(i)`, after a warm-up. */
async function latency(run, runs = RUNS) {
  for (let i = 0; i < Math.min(WARMUP, Math.ceil(runs / 5)); i++) await run(i);
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await run(i);
    ms.push(performance.now() - t);
  }
  return percentiles(ms);
}

/** Requests per second of `run(i)` with CONNECTIONS in flight for SECONDS (bounded in time and count). */
async function throughput(run, seconds = SECONDS) {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (performance.now() < end && done < 1_000_000) {
      await run(next++);
      done++;
    }
  };
  const t = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return done / ((performance.now() - t) / 1000);
}

function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

/** RSS of `pid`'s child processes (the embedded database's own process), 0 without any. */
function childrenRssMiB(pid) {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean);
  return children.reduce((sum, child) => sum + rssMiB(child), 0);
}

/**
 * hub-api in its own process, as `npm start` or production runs it, once /health answers; a
 * variable given as null is removed from this process's environment.
 */
function startHub(env) {
  const childEnv = { ...process.env, ...env, LOG_LEVEL: 'error' };
  for (const [key, value] of Object.entries(childEnv)) if (value === null) delete childEnv[key];
  return startHubProcess(join(ROOT, 'dist'), childEnv);
}

function seedSql() {
  const db = dist('libs/database/src');
  return {
    searchVectorSql: db.SKILL_SEARCH_VECTOR_SQL,
    listedSql: db.LISTED_VERSION_SQL,
    listedOrderSql: db.LISTED_VERSION_ORDER_SQL,
    policyVersion: dist('libs/certification/src').CERTIFICATION_POLICY_VERSION,
  };
}

/** Seeds the generated catalogue through `ds`. */
async function seedCatalogue(ds, size) {
  await seedCorpus(
    (sql, params) => ds.query(sql, params),
    size,
    seedSql(),
    (n) => {
      if (n % 50_000 === 0) console.error(`  seeded ${n}`);
    },
  );
}

/**
 * Migrates and seeds through `url` (unless `seed` is false: a kept catalogue), calling `seeded()`
 * once the catalogue is whole; returns the ILIKE baseline's sequential latency per query and the
 * typo fallback's recall.
 */
async function seedAndTimeIlike(url, size, seed = true, seeded = () => undefined) {
  const { DataSource } = require('typeorm');
  const options = dist('libs/database/src').buildDataSourceOptions(url, { poolSize: 1 });
  const t = performance.now();
  if (seed && size >= BULK_FROM) {
    // As an existing hub's catalogue would be: seeded before the postings migration, which then
    // builds its postings in bulk (3 million through the trigger take minutes, 30 million hours).
    const { MIGRATIONS } = require(join(ROOT, 'dist/libs/database/src/migrations'));
    const before = MIGRATIONS.findIndex((m) => m.name === 'SearchPostings1796400000000');
    const early = new DataSource({ ...options, migrations: MIGRATIONS.slice(0, before) });
    await early.initialize();
    try {
      await early.runMigrations();
      await seedCatalogue(early, size);
    } finally {
      await early.destroy();
    }
    // PGlite's socket server takes one connection at a time and drops a new one while it still
    // holds the last (pglite-socket's maxConnections): let it see this one close.
    if (PGLITE) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const ds = new DataSource(options);
  await ds.initialize();
  try {
    await ds.runMigrations();
    if (seed && size < BULK_FROM) await seedCatalogue(ds, size);
    if (seed) await ds.query('VACUUM ANALYZE');
    seeded();
    const seconds = seed ? (performance.now() - t) / 1000 : null;
    const ilike = {};
    for (const { label, q } of QUERIES) {
      const statements = ilikeStatements(q);
      ilike[label] = await latency(async () => {
        for (const [sql, params] of statements) await ds.query(sql, params);
      }, ilikeRuns(size));
    }
    return { seconds, ilike, lexiconRecall: await lexiconRecall(ds) };
  } finally {
    await ds.destroy();
  }
}

/**
 * The typo fallback's recall over the whole catalogue: of the skills holding each generated
 * misspelling's word, the share the fallback searches for (those holding a word it looks up
 * for the misspelling: `search_word_neighbours`, as the hub calls it).
 */
async function lexiconRecall(ds) {
  const typos = [...QUERIES.filter((x) => x.word).map((x) => ({ typo: x.q, word: x.word })), ...typoQueries()];
  let expected = 0;
  let found = 0;
  const misses = [];
  for (const { typo, word } of typos) {
    const [{ lexeme, holding, reached }] = await ds.query(
      `SELECT l."lexeme", coalesce(w."documents", 0) AS holding,
              l."lexeme" IN (SELECT search_word_neighbours($1, 5)) AS reached
         FROM (SELECT coalesce((ts_lexize('english_stem', $2))[1], $2) AS "lexeme") l
         LEFT JOIN "search_words" w ON w."word" = l."lexeme"`,
      [typo, word],
    );
    expected += holding;
    if (reached) found += holding;
    else misses.push(`${typo}→${lexeme} (${holding})`);
  }
  return { expected, found, misses };
}

async function ilikeThroughput(url) {
  const { Pool } = require('pg');
  const pool = new Pool({ connectionString: url, max: CONNECTIONS });
  try {
    const mix = QUERIES.map(({ q }) => ilikeStatements(q));
    return await throughput(async (i) => {
      for (const [sql, params] of mix[i % mix.length]) await pool.query(sql, params);
    });
  } finally {
    await pool.end();
  }
}

/**
 * Every item of a search, following its cursors; null past TOTAL_CAP matches, exact or not:
 * relevance pages stop at the ranked candidates (docs/search.md), so such an answer cannot be
 * paged whole.
 */
async function allRefs(base, q) {
  const refs = new Set();
  let cursor = null;
  do {
    const page = await getJson(base, `/api/v1/skills?q=${enc(q)}&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    if (page.total_is_estimate || page.total > TOTAL_CAP) return null;
    for (const item of page.items) refs.add(`${item.author}/${item.name}`);
    cursor = page.next_cursor;
  } while (cursor);
  return refs;
}

/**
 * The listed skills holding `word` (quoted: no prefix), straight from the database: the hub's own
 * answer for a word held by fewer than 20 skills is widened by the typo fallback.
 */
async function holders(url, word) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT n."slug" || '/' || s."name" AS ref FROM "skills" s JOIN "namespaces" n ON n."id" = s."namespace_id"
        WHERE s."latest_version_id" IS NOT NULL AND s."search_vector" @@ websearch_to_tsquery('english', $1)`,
      [`"${word}"`],
    );
    return new Set(rows.map((r) => r.ref));
  } finally {
    await client.end();
  }
}

/** Times and counts everything against `hub`; `url` is its PostgreSQL database (null on PGlite). */
async function measure(hub, size, baseline, url) {
  const { base } = hub;
  const rows = [];
  const time = async (label, paths) => {
    const list = Array.isArray(paths) ? paths : [paths];
    rows.push([label, await latency((i) => get(base, list[i % list.length]))]);
  };
  await time('baseline: GET /api/v1/health', '/api/v1/health');
  const matches = {};
  for (const [label, path] of SEARCHES) {
    const page = await getJson(base, path);
    matches[label] = `${page.total}${page.total_is_estimate ? ' (est.)' : ''}`;
    await time(label, path);
  }
  for (const [label, path] of LISTS) await time(label, path);
  for (const [label, path] of CURSORS) {
    const pages = [];
    let page = await getJson(base, path);
    while (page.next_cursor && pages.length < CURSOR_DEPTH - 1) {
      const next = `${path}&cursor=${page.next_cursor}`;
      pages.push(next);
      page = await getJson(base, next);
    }
    await time(label, pages);
  }

  // Throughput and RSS under the search mix.
  let rss = rssMiB(hub.pid);
  let databaseRss = childrenRssMiB(hub.pid);
  const sampler = setInterval(() => {
    rss = Math.max(rss, rssMiB(hub.pid));
    databaseRss = Math.max(databaseRss, childrenRssMiB(hub.pid));
  }, 200);
  const mix = SEARCHES.map(([, path]) => path);
  const searchRps = await throughput((i) => get(base, mix[i % mix.length]));
  clearInterval(sampler);
  const healthRps = await throughput(() => get(base, '/api/v1/health'), 3);
  const listRps = {};
  for (const [label, path] of LISTS) listRps[label] = await throughput(() => get(base, path), 3);

  // Recall of the typo fallback: what a misspelling finds of the skills holding the word (quoted,
  // so it is not also a prefix of longer words, which no misspelling stands for). PostgreSQL only.
  const typos = [...QUERIES.filter((x) => x.word).map((x) => ({ typo: x.q, word: x.word })), ...typoQueries()];
  let expected = 0;
  let found = 0;
  const misses = [];
  for (const { typo, word } of url ? typos : []) {
    // Only where both hold at most the cap: a larger answer ends its relevance pages at the
    // candidates, so it cannot be compared whole.
    const want = await holders(url, word);
    if (!want.size || want.size > TOTAL_CAP) continue;
    const got = await allRefs(base, typo);
    if (!got) continue;
    const hit = [...want].filter((r) => got.has(r)).length;
    expected += want.size;
    found += hit;
    if (hit < want.size) misses.push(`${typo}→${word} ${hit}/${want.size}`);
  }
  return {
    size,
    rows,
    matches,
    searchRps,
    healthRps,
    listRps,
    rss,
    databaseRss,
    baseline,
    recall: { expected, found, misses },
  };
}

function report(r, backend) {
  const health = r.rows[0][1].p50;
  console.log(
    `\n### ${r.size.toLocaleString('en')} skills, ${backend} (${r.baseline.seconds === null ? 'kept from an earlier run' : `seeded in ${r.baseline.seconds.toFixed(0)} s`})\n`,
  );
  console.log('| query | matches | p50 ms | p99 ms | ILIKE p50 ms | ILIKE / hub (p50) |');
  console.log('|---|---|---|---|---|---|');
  for (const [label, t] of r.rows) {
    const like = r.baseline.ilike[label];
    console.log(
      `| ${label} | ${r.matches[label] ?? ''} | ${t.p50.toFixed(1)} | ${t.p99.toFixed(1)} | ${like ? like.p50.toFixed(1) : ''} | ${like ? `${(like.p50 / t.p50).toFixed(1)}×` : ''} |`,
    );
  }
  console.log(`\nhealth p50 ${health.toFixed(2)} ms. Throughput at ${CONNECTIONS} connections:`);
  console.log(
    `- search mix ${r.searchRps.toFixed(0)} req/s` +
      (r.baseline.ilikeRps
        ? `, ILIKE mix ${r.baseline.ilikeRps.toFixed(1)} req/s: **${(r.searchRps / r.baseline.ilikeRps).toFixed(1)}×**`
        : ''),
  );
  console.log(
    `- /api/v1/health ${r.healthRps.toFixed(0)} req/s; ` +
      Object.entries(r.listRps)
        .map(([k, v]) => `${k} ${v.toFixed(0)} req/s`)
        .join('; '),
  );
  console.log(
    `- hub-api RSS under the search mix: max ${r.rss.toFixed(0)} MiB` +
      (r.databaseRss ? ` (its embedded database's own process: max ${r.databaseRss.toFixed(0)} MiB)` : ''),
  );
  const share = ({ expected, found, misses }) =>
    expected === 0
      ? 'not measured (no generated misspelling whose answers fit under the cap at this size)'
      : `${found}/${expected} = ${((100 * found) / expected).toFixed(1)}%` +
        (misses.length ? ` (short: ${misses.join(', ')})` : '');
  console.log(
    `- typo recall, whole catalogue (skills holding the meant word that the fallback searches for): ${share(r.baseline.lexiconRecall)}`,
  );
  console.log(
    `- typo recall end to end (the misspelling's pages against the word's holders, both ≤ the cap): ${share(r.recall)}`,
  );
}

async function withRedisPrefix(work) {
  const prefix = `skillhub-bench-search-${randomBytes(4).toString('hex')}`;
  try {
    return await work(prefix);
  } finally {
    await deleteRedisKeys(REDIS_URL, prefix).catch((err) =>
      console.error(`could not clean Redis keys ${prefix}*: ${err.message}`),
    );
  }
}

async function runPostgres(size) {
  const database =
    size >= KEEP_FROM
      ? (work) => withKeptDatabase(`skillhub_bench_search_${size}`, work)
      : (work) => withScratchDatabase((url) => work(url, true, () => undefined));
  return database((url, fresh, seeded) =>
    withRedisPrefix(async (prefix) => {
      const baseline = await seedAndTimeIlike(url, size, fresh, seeded);
      baseline.ilikeRps = await ilikeThroughput(url);
      const hub = await startHub({
        DATABASE_URL: url,
        REDIS_PREFIX: prefix,
        HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      });
      try {
        return await measure(hub, size, baseline, url);
      } finally {
        await hub.stop();
      }
    }),
  );
}

/** The embedded default: seeded by a process of its own into a data folder, then served by `npm start`'s hub. */
async function runPglite(size) {
  const dir = mkdtempSync(join(tmpdir(), 'skillhub-bench-'));
  try {
    return await withRedisPrefix(async (prefix) => {
      const seeder = spawn(process.execPath, [join(__dirname, 'search-bench.js'), '--seed-pglite', dir, String(size)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      seeder.stdout.on('data', (c) => (out += c));
      const code = await new Promise((resolve) => seeder.once('exit', resolve));
      if (code !== 0) throw new Error(`the PGlite seeder exited with ${code}`);
      const baseline = JSON.parse(out);
      const hub = await startHub({ DATABASE_URL: null, HUB_DATA_DIR: dir, REDIS_PREFIX: prefix });
      try {
        return await measure(hub, size, baseline);
      } finally {
        await hub.stop();
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function seedPglite(dir, size) {
  const embedded = await dist('libs/database/src').startEmbeddedDatabase(dir);
  try {
    process.stdout.write(JSON.stringify(await seedAndTimeIlike(embedded.url, size)));
  } finally {
    await embedded.stop();
  }
}

async function main() {
  if (process.argv[2] === '--seed-pglite') return seedPglite(process.argv[3], Number(process.argv[4]));
  const backend = PGLITE ? 'embedded PGlite' : 'PostgreSQL';
  const results = [];
  for (const size of SIZES) {
    console.error(`${backend}: ${size} skills…`);
    const r = PGLITE ? await runPglite(size) : await runPostgres(size);
    report(r, backend);
    results.push(r);
  }
  console.log(`\n### p50 ms by catalogue size, ${backend}\n`);
  console.log(`| query | ${results.map((r) => r.size.toLocaleString('en')).join(' | ')} |`);
  console.log(`|---|${results.map(() => '---').join('|')}|`);
  for (const [i, [label]] of results[0].rows.entries()) {
    console.log(`| ${label} | ${results.map((r) => r.rows[i][1].p50.toFixed(1)).join(' | ')} |`);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
