#!/usr/bin/env node
// The MCP sub-registry (`/v0.1/servers`, docs/mcp-registry.md) on PostgreSQL: seeds a database of
// its own (created and dropped here) straight through SQL with BENCH_SKILLS certified skill
// versions (default 100,000), each holding a signed certificate; the first BENCH_SERVERS of them
// (default 10,000; 0 for none) list one pinned npm server in their statement. Starts hub-api in
// this process and times each read over HTTP against a baseline measured in the same run
// (GET /api/v1/health). Also timed: the first answer after start (every certificate decoded) and
// the first answer after each new certification (the entries rebuilt).
// `npm run build && npm run bench:mcp-registry`. BENCH_RUNS (200), BENCH_DIST (default dist) names
// the build measured.
const { performance } = require('node:perf_hooks');
const { generateKeyPairSync } = require('node:crypto');
const { join, resolve } = require('node:path');
const { DataSource } = require('typeorm');

const { withScratchDatabase } = require('../support/scratch-database');

const DIST = resolve(__dirname, '..', '..', process.env.BENCH_DIST ?? 'dist');
const dist = (p) => require(join(DIST, p));
const { deleteRedisKeys } = require('../support/hub-process');
const { createHubApp } = dist('apps/hub-api/src/create-hub-app');
const { loadConfig } = dist('libs/config/src');
const { buildDataSourceOptions, CURRENT_POLICY } = dist('libs/database/src');
const { keyId, signCertificate } = dist('libs/signing/src');

const SKILLS = Number(process.env.BENCH_SKILLS ?? 100_000);
const SERVERS = Math.min(SKILLS, Number(process.env.BENCH_SERVERS ?? 10_000));
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const REBUILDS = 20;
const NAMESPACES = 100;
const DAY = 86_400_000;
const ZERO = '0'.repeat(64);

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const KEY_ID = keyId(publicKey);

/** Skill `i`'s certificate, as record() signs it: one npm server, its live tools pinned (or none). */
function envelopeOf(i, skill, issuedAt, expiresAt) {
  const runsServer = i < SERVERS || i >= SKILLS;
  const pkg = {
    registry: 'npm',
    name: `@bench-${i % NAMESPACES}/server-${i}`,
    version: `1.${i % 7}.0`,
    integrity: `sha512-${i}`,
  };
  return signCertificate(
    {
      skill,
      version: '1.0.0',
      bundleSha256: ZERO,
      manifestSha256: ZERO,
      entryPointChecksum: null,
      files: { 'skill_manifest.yaml': ZERO },
      capabilities: [],
      permissions: [],
      codeCapabilities: [],
      packages: runsServer ? [pkg] : [],
      tools: {},
      servers: [
        {
          name: 'main',
          transport: 'stdio',
          launch: 'npm',
          argv: ['npx', '-y', `${pkg.name}@${pkg.version}`],
          url: null,
          package: pkg,
          file: null,
          env: { API_KEY: '${API_KEY}' },
          cwd: null,
          tools: { [`read_${i}`]: ZERO, [`write_${i}`]: ZERO },
        },
      ].slice(0, runsServer ? 1 : 0),
      level: 'standard',
      checkResultsSha256: ZERO,
      issuedAt: issuedAt.toISOString(),
      expiresAt: expiresAt.toISOString(),
      logIndex: i,
    },
    privateKey,
    KEY_ID,
  );
}

/** Skills `from`..`to` (exclusive), each with a version, a certified certification and its certificate. */
async function certify(ds, from, to) {
  await ds.query(`INSERT INTO skills (namespace_id, name)
    SELECT (SELECT id FROM namespaces WHERE slug = 'ns-' || (g % ${NAMESPACES})), 'skill-' || g
    FROM generate_series(${from}, ${to - 1}) g`);
  await ds.query(
    `INSERT INTO skill_versions (skill_id, version, major, minor, patch, format, author, description,
      license, capabilities, permissions, tags, tools, manifest_path, manifest, files, bundle_sha256, bundle_size, published_by)
    SELECT s.id, '1.0.0', 1, 0, 0, 'kazma', 'bench', 'A bench skill.', 'MIT', '{}', '{}', '{}', '[]', 'skill_manifest.yaml',
      '{}'::jsonb, '[]'::jsonb, '${ZERO}', 1, (SELECT id FROM publishers)
    FROM skills s WHERE s.name = ANY($1::text[])`,
    [range(from, to).map((i) => `skill-${i}`)],
  );
  const issuedAt = new Date();
  const expiresAt = new Date(issuedAt.getTime() + 90 * DAY);
  const rows = await ds.query(
    `INSERT INTO certifications (skill_version_id, policy_version, status, level, issued_at, expires_at, report)
     SELECT v.id, ${CURRENT_POLICY}, 'certified', 'standard', $2, $3, '{}'::jsonb
       FROM skill_versions v JOIN skills s ON s.id = v.skill_id WHERE s.name = ANY($1::text[])
     RETURNING id, (SELECT n.slug || '/' || s.name FROM skill_versions v JOIN skills s ON s.id = v.skill_id
                     JOIN namespaces n ON n.id = s.namespace_id WHERE v.id = skill_version_id) AS skill`,
    [range(from, to).map((i) => `skill-${i}`), issuedAt, expiresAt],
  );
  const index = (skill) => Number(skill.slice(skill.lastIndexOf('-') + 1));
  for (let b = 0; b < rows.length; b += 1000) {
    const batch = rows.slice(b, b + 1000);
    await ds.query(
      `INSERT INTO certificates (certification_id, key_id, envelope, log_index, issued_at, expires_at)
       SELECT c, $2, e, i, $3, $4 FROM unnest($1::uuid[], $5::jsonb[], $6::bigint[]) AS t(c, e, i)`,
      [
        batch.map((r) => r.id),
        KEY_ID,
        issuedAt,
        expiresAt,
        batch.map((r) => JSON.stringify(envelopeOf(index(r.skill), r.skill, issuedAt, expiresAt))),
        batch.map((r) => index(r.skill)),
      ],
    );
  }
}

const range = (from, to) => Array.from({ length: to - from }, (_, k) => from + k);

async function seed(url) {
  const ds = new DataSource(buildDataSourceOptions(url, { poolSize: 1 }));
  await ds.initialize();
  await ds.runMigrations();
  await ds.query(`INSERT INTO publishers (name) VALUES ('bench')`);
  await ds.query(`INSERT INTO namespaces (slug, owner_id)
    SELECT 'ns-' || g, (SELECT id FROM publishers) FROM generate_series(0, ${NAMESPACES - 1}) g`);
  await ds.query(`INSERT INTO blobs (sha256, size, content) VALUES ('${ZERO}', 1, '\\x00')`);
  for (let from = 0; from < SKILLS; from += 2000) await certify(ds, from, Math.min(SKILLS, from + 2000));
  await ds.query('ANALYZE');
  return ds;
}

const quantiles = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length / 2)], p99: sorted[Math.floor(sorted.length * 0.99)], n: ms.length };
};

async function main() {
  await withScratchDatabase(async (url) => {
    const t0 = performance.now();
    const ds = await seed(url);
    console.log(
      `seeded ${SKILLS} certified skills, ${SERVERS} of them with a server, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const config = loadConfig({
      ...process.env,
      DATABASE_URL: url,
      LOG_LEVEL: 'error',
      REDIS_PREFIX: `skillhub-bench-mcp-registry-${Date.now()}`,
    });
    const app = await createHubApp(config, { url, embedded: false });
    await app.listen(0, '127.0.0.1');
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    const get = async (path) => {
      const t = performance.now();
      const res = await fetch(base + path);
      const body = await res.json();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
      return { ms: performance.now() - t, body };
    };
    const time = async (path) => {
      const ms = [];
      for (let i = 0; i < RUNS; i++) ms.push((await get(path)).ms);
      return quantiles(ms);
    };

    const cold = await get('/v0.1/servers');
    let middle = cold.body;
    for (let i = 0; i < SERVERS / 2 / 100; i++)
      middle = (await get(`/v0.1/servers?limit=100${i ? `&cursor=${middle.metadata.nextCursor}` : ''}`)).body;
    const listed = middle.servers[0]?.server.name;
    const shapes = [
      ['baseline: GET /api/v1/health', '/api/v1/health'],
      ['/v0.1/servers (first page, 30)', '/v0.1/servers'],
      ['/v0.1/servers?limit=100', '/v0.1/servers?limit=100'],
      ['search=server-77 (111 names at 10,000)', '/v0.1/servers?search=server-77'],
      ['updated_since (all match)', `/v0.1/servers?updated_since=${encodeURIComponent('2020-01-01T00:00:00Z')}`],
      ...(listed
        ? [
            ['cursor page in the middle (limit=100)', `/v0.1/servers?limit=100&cursor=${middle.metadata.nextCursor}`],
            ['versions of one server', `/v0.1/servers/${encodeURIComponent(listed)}/versions`],
            ['latest of one server', `/v0.1/servers/${encodeURIComponent(listed)}/versions/latest`],
          ]
        : []),
    ];
    const results = [];
    for (const [label, path] of shapes) results.push([label, await time(path)]);

    // Each new certification (with a server) moves the generation: the next answer rebuilds the
    // entries (only the new certificate is decoded).
    const rebuilds = [];
    for (let i = 0; i < REBUILDS; i++) {
      await certify(ds, SKILLS + i, SKILLS + i + 1);
      rebuilds.push((await get('/v0.1/servers')).ms);
    }
    await app.close();
    await deleteRedisKeys(config.REDIS_URL, config.REDIS_PREFIX);
    await ds.destroy();

    const baseline = results[0][1];
    console.log(
      `\n/v0.1 over ${SKILLS} certified skills, ${SERVERS} servers, PostgreSQL, ${RUNS} sequential requests per shape\n`,
    );
    console.log('| request | p50 ms | p99 ms | p50 / baseline | p99 / baseline |');
    console.log('|---|---|---|---|---|');
    for (const [label, r] of results) {
      const ratios = `${(r.p50 / baseline.p50).toFixed(1)}× | ${(r.p99 / baseline.p99).toFixed(1)}×`;
      console.log(`| ${label} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${ratios} |`);
    }
    const rebuilt = quantiles(rebuilds);
    console.log(`\nfirst answer after start (${SKILLS} certificates decoded): ${cold.ms.toFixed(0)} ms`);
    console.log(
      `first answer after a new certification: p50 ${rebuilt.p50.toFixed(1)} ms, max ${Math.max(...rebuilds).toFixed(1)} ms (${REBUILDS} runs)`,
    );
  });
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
