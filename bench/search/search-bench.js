#!/usr/bin/env node
// Search latency at 100,000 skills on PostgreSQL: seeds a database of its own
// (created and dropped here) straight through SQL, starts hub-api in this process,
// and times each query shape over HTTP against a baseline measured in the same run
// (GET /api/v1/health, the cheapest round trip through the same stack).
// Run `npm run build` first; `npm run bench:search`. BENCH_SKILLS (default 100000), BENCH_RUNS (200).
const { performance } = require('node:perf_hooks');
const { DataSource } = require('typeorm');

const { withScratchDatabase } = require('../support/scratch-database');

const dist = (p) => require(`../../dist/${p}`);
const { createHubApp } = dist('apps/hub-api/src/create-hub-app');
const { loadConfig } = dist('libs/config/src');
const { buildDataSourceOptions, SKILL_SEARCH_VECTOR_SQL, LISTED_VERSION_SQL, LISTED_VERSION_ORDER_SQL } =
  dist('libs/database/src');

const SKILLS = Number(process.env.BENCH_SKILLS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);

const DOMAINS = [
  'weather',
  'github',
  'slack',
  'postgres',
  'kubernetes',
  'calendar',
  'email',
  'pdf',
  'maps',
  'stripe',
  'notion',
  'jira',
  'docker',
  'redis',
  'search',
  'translate',
  'speech',
  'image',
  'finance',
  'news',
  'music',
  'travel',
  'recipes',
  'crypto',
  'shopify',
  'salesforce',
  'sentry',
  'grafana',
  'terraform',
  'aws',
  'azure',
  'gcp',
  'youtube',
  'spotify',
  'wikipedia',
  'arxiv',
  'sqlite',
  'mongo',
  'qdrant',
  'discord',
];
const NOUNS = [
  'reader',
  'writer',
  'sync',
  'monitor',
  'helper',
  'assistant',
  'bridge',
  'explorer',
  'notifier',
  'importer',
  'exporter',
  'analyzer',
  'summarizer',
  'planner',
  'tracker',
  'gateway',
  'indexer',
  'scanner',
  'client',
  'toolkit',
];
const VERBS = [
  'reads',
  'lists',
  'searches',
  'summarizes',
  'tracks',
  'exports',
  'imports',
  'watches',
  'queries',
  'reports',
];
const CATEGORIES = ['utilities', 'data', 'communication', 'devops', 'productivity', 'media', 'finance', 'research'];

async function seed(url) {
  const ds = new DataSource(buildDataSourceOptions(url, { poolSize: 1 }));
  await ds.initialize();
  await ds.runMigrations();
  const lit = (xs) => `ARRAY[${xs.map((x) => `'${x}'`).join(',')}]`;
  await ds.query(`INSERT INTO publishers (name) VALUES ('bench')`);
  await ds.query(`INSERT INTO namespaces (slug, owner_id)
    SELECT 'ns-' || g, (SELECT id FROM publishers) FROM generate_series(1, 500) g`);
  await ds.query(`INSERT INTO blobs (sha256, size, content) VALUES (repeat('0', 64), 1, '\\x00')`);
  await ds.query(`INSERT INTO skills (namespace_id, name, downloads)
    SELECT (SELECT id FROM namespaces WHERE slug = 'ns-' || (1 + g % 500)),
           (${lit(DOMAINS)})[1 + g % ${DOMAINS.length}] || '-' || (${lit(NOUNS)})[1 + (g / ${DOMAINS.length}) % ${NOUNS.length}] || '-' || g,
           (g * 7919) % 100000
    FROM generate_series(1, ${SKILLS}) g`);
  await ds.query(`INSERT INTO skill_versions (skill_id, version, major, minor, patch, format, author, description, license,
      category, capabilities, permissions, tags, tools, manifest_path, manifest, files, bundle_sha256, bundle_size,
      published_by)
    SELECT s.id, '1.0.0', 1, 0, 0, 'kazma', 'bench', d.description, 'MIT', d.category, d.capabilities, '{}', d.tags,
      jsonb_build_array(jsonb_build_object('name', d.tool, 'description', d.description)), 'skill_manifest.yaml', '{}'::jsonb,
      '[]'::jsonb, repeat('0', 64), 1, (SELECT id FROM publishers)
    FROM skills s
    CROSS JOIN LATERAL (SELECT split_part(s.name, '-', 1) AS domain, split_part(s.name, '-', 2) AS noun,
      (${lit(VERBS)})[1 + (hashtext(s.name) & 1023) % ${VERBS.length}] AS verb) w
    CROSS JOIN LATERAL (SELECT
      'A ' || w.noun || ' that ' || w.verb || ' ' || w.domain || ' data for agents, with caching and clear errors.' AS description,
      (${lit(CATEGORIES)})[1 + (hashtext(s.name) & 1023) % ${CATEGORIES.length}] AS category,
      ARRAY[w.domain, w.noun] AS tags, ARRAY[w.domain || '-' || w.verb] AS capabilities,
      w.verb || '_' || w.domain AS tool) d`);
  // The publisher's own listing rule and search document, applied to every skill at once.
  await ds.query(`UPDATE skills s SET latest_version_id = l.id, search_vector = ${SKILL_SEARCH_VECTOR_SQL}
    FROM (SELECT DISTINCT ON (v.skill_id) v.* FROM skill_versions v WHERE ${LISTED_VERSION_SQL}
          ORDER BY v.skill_id, ${LISTED_VERSION_ORDER_SQL}) l
    WHERE l.skill_id = s.id`);
  await ds.query('ANALYZE');
  await ds.destroy();
}

async function main() {
  await withScratchDatabase(async (url) => {
    const t0 = performance.now();
    await seed(url);
    console.log(`seeded ${SKILLS} skills in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const config = loadConfig({
      ...process.env,
      DATABASE_URL: url,
      LOG_LEVEL: 'error',
      REDIS_PREFIX: `skillhub-bench-${Date.now()}`,
    });
    const app = await createHubApp(config, { url: url, embedded: false });
    await app.listen(0, '127.0.0.1');
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const time = async (path) => {
      const ms = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        const res = await fetch(base + path);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
        ms.push(performance.now() - t);
      }
      ms.sort((a, b) => a - b);
      return { p50: ms[Math.floor(ms.length / 2)], p99: ms[Math.floor(ms.length * 0.99)] };
    };
    const shapes = [
      ['baseline: GET /api/v1/health', '/api/v1/health'],
      ['one word (q=weather)', '/api/v1/skills?q=weather&per_page=20'],
      ['two words (q=github monitor)', '/api/v1/skills?q=github%20monitor&per_page=20'],
      ['prefix as typed (q=kuber)', '/api/v1/skills?q=kuber&per_page=20'],
      ['misspelt (q=wether)', '/api/v1/skills?q=wether&per_page=20'],
      ['phrase + exclusion', '/api/v1/skills?q=%22slack%20reader%22%20-sync&per_page=20'],
      ['q + filters (category, tags)', '/api/v1/skills?q=data&category=devops&tags=docker&per_page=20'],
      ['list by downloads, page 1', '/api/v1/skills?sort=downloads&per_page=20'],
      ['list by name, cursor page', '/api/v1/skills?sort=updated&limit=20'],
      ['certified=true', '/api/v1/skills?certified=true&per_page=20'],
      ['stats', '/api/v1/stats'],
    ];
    const results = [];
    for (const [label, path] of shapes) results.push([label, await time(path)]);
    await app.close();
    const baseline = results[0][1].p50;
    console.log(`\nsearch over ${SKILLS} skills, PostgreSQL, ${RUNS} sequential requests per shape\n`);
    console.log('| query | p50 ms | p99 ms | p50 / baseline |');
    console.log('|---|---|---|---|');
    for (const [label, r] of results) {
      console.log(`| ${label} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.p50 / baseline).toFixed(1)}× |`);
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
