#!/usr/bin/env node
// The skill page's server time with a 200-finding report, on PostgreSQL: a database of its own
// (created and dropped here), hub-api in this process, one real publish over HTTP (a README,
// 40 files), then the version's certification row given a stored report of 200 findings and
// 40 proven capabilities (through the report codec, as the certifier writes it). Times
// GET /skills/<author>/<name> against GET /api/v1/health, the cheapest round trip through the
// same stack, in the same run. Run `npm run build` first; `npm run bench:web`.
// BENCH_RUNS (default 300), BENCH_FINDINGS (200).
const { randomBytes } = require('node:crypto');
const { performance } = require('node:perf_hooks');

const { withScratchDatabase } = require('../support/scratch-database');

const dist = (p) => require(`../../dist/${p}`);
const { createHubApp } = dist('apps/hub-api/src/create-hub-app');
const { loadConfig } = dist('libs/config/src');
const { buildDataSourceOptions, encodeReport, CURRENT_POLICY } = dist('libs/database/src');
const { writeBundle } = dist('libs/bundle/src');
const { CHECK_IDS, REQUIREMENT_NAMES } = dist('libs/certification/src');
const { DataSource } = require('typeorm');
const { deleteRedisKeys } = require('../support/hub-process');

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const FINDINGS = Number(process.env.BENCH_FINDINGS ?? 200);
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'];
const KINDS = ['process_exec', 'network', 'env_read', 'file_read', 'file_write'];

const README = Array.from(
  { length: 60 },
  (_, i) => `## Section ${i}\n\nSome **text** with \`code\` and [a link](https://example.com/${i}).\n`,
).join('\n');

function bundle(name) {
  const files = [
    {
      path: 'skill_manifest.yaml',
      content: [
        `name: ${name}`,
        'version: 1.0.0',
        'description: A benchmark skill with a long report, a README and forty files.',
        'author: bench',
        'license: MIT',
        'entry_point: main.py',
        'homepage: https://example.com/bench',
        'repository: https://github.com/acme/bench',
        'permissions: [env_read]',
      ].join('\n'),
    },
    { path: 'main.py', content: 'import os\nprint(os.environ.get("X"))\n' },
    { path: 'README.md', content: README },
    ...Array.from({ length: 38 }, (_, i) => ({ path: `lib/module_${i}.py`, content: `X = ${i}\n`.repeat(20) })),
  ];
  return writeBundle(files, { rootFolder: name });
}

/** A failed report as `certify` would store it, with FINDINGS findings across every check and severity. */
function report(files) {
  return encodeReport({
    status: 'failed',
    level: 'none',
    score: 12,
    findings: Array.from({ length: FINDINGS }, (_, i) => ({
      rule: `${CHECK_IDS[i % CHECK_IDS.length]}.bench-rule-${i % 17}`,
      check: CHECK_IDS[i % CHECK_IDS.length],
      severity: SEVERITIES[i % SEVERITIES.length],
      file: `lib/module_${i % 38}.py`,
      line: 1 + (i % 20),
      message: `Finding ${i}: the code at this line does something the certifier flags, quoted as \`X = ${i}\`.`,
      fixHint: 'Remove it, or declare it and sign the skill again with `kazma hub sign`.',
    })),
    requirementsMet: Object.fromEntries(REQUIREMENT_NAMES.map((n, i) => [n, i % 3 !== 0])),
    checks: Object.fromEntries(CHECK_IDS.map((c) => [c, 'fail'])),
    files: files.map((f) => ({ path: f.path, size: f.size, sha256: f.sha256 })),
    toolHashes: {},
    capabilities: Array.from({ length: 40 }, (_, i) => ({
      capability: KINDS[i % KINDS.length],
      permission: KINDS[i % KINDS.length] === 'network' ? 'network_outbound' : KINDS[i % KINDS.length],
      declared: i % 2 === 0,
      uses: Array.from({ length: 5 }, (_, j) => ({
        file: `lib/module_${i % 38}.py`,
        line: j + 1,
        evidence: 'os.system(x)',
      })),
      more: 3,
    })),
    servers: [],
    provenance: [],
    pinnedPackages: [],
    manifestSha256: null,
    entryPointChecksum: null,
    policyVersion: CURRENT_POLICY,
    resultsSha256: '0'.repeat(64),
    issuedAt: null,
    expiresAt: null,
  });
}

async function main() {
  await withScratchDatabase(async (url) => {
    const admin = `bench-admin-${randomBytes(16).toString('hex')}`;
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: url,
      LOG_LEVEL: 'error',
      HUB_ADMIN_TOKEN: admin,
      HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      REDIS_PREFIX: `skillhub-bench-web-${Date.now()}`,
    });
    const ds = new DataSource(buildDataSourceOptions(url, { poolSize: 1 }));
    await ds.initialize();
    await ds.runMigrations();
    const app = await createHubApp(config, { url, embedded: false });
    await app.listen(0, '127.0.0.1');
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    try {
      const post = async (path, body, headers) => {
        const res = await fetch(base + path, { method: 'POST', body, headers });
        if (res.status >= 300) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
        return res.json();
      };
      const { token } = await post('/api/v1/tokens', JSON.stringify({ namespace: 'bench', scopes: ['publish'] }), {
        authorization: `Bearer ${admin}`,
        'content-type': 'application/json',
      });
      const name = 'long-report';
      await post('/api/v1/skills', bundle(name), {
        authorization: `Bearer ${token}`,
        'content-type': 'application/gzip',
      });
      const [version] = await ds.query(
        `SELECT v.id, v.files FROM skill_versions v JOIN skills s ON s.id = v.skill_id WHERE s.name = $1`,
        [name],
      );
      await ds.query(
        `UPDATE certifications SET status = 'failed', level = 'none', requirements_met = $2, report = $3
          WHERE skill_version_id = $1 AND policy_version = $4`,
        [version.id, JSON.stringify({}), JSON.stringify(report(version.files)), CURRENT_POLICY],
      );

      const time = async (path) => {
        const ms = [];
        let bytes = 0;
        for (let i = 0; i < RUNS; i++) {
          const t = performance.now();
          const res = await fetch(base + path);
          bytes = (await res.arrayBuffer()).byteLength;
          if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
          ms.push(performance.now() - t);
        }
        ms.sort((a, b) => a - b);
        return { p50: ms[Math.floor(ms.length / 2)], p99: ms[Math.floor(ms.length * 0.99)], bytes };
      };
      const page = await time(`/skills/bench/${name}`);
      if (!(await (await fetch(`${base}/skills/bench/${name}`)).text()).includes('bench-rule-16')) {
        throw new Error('the page does not show the report');
      }
      const shapes = [
        ['baseline: GET /api/v1/health', await time('/api/v1/health')],
        [`skill page, ${FINDINGS} findings, README, 40 files`, page],
        [
          'for scale: GET …/versions/1.0.0/certification (the same report, JSON)',
          await time(`/api/v1/skills/bench/${name}/versions/1.0.0/certification`),
        ],
      ];
      const baseline = shapes[0][1];
      console.log(`\nskill page, PostgreSQL, ${RUNS} sequential requests each\n`);
      console.log('| request | p50 ms | p99 ms | p99 / baseline p99 | body |');
      console.log('|---|---|---|---|---|');
      for (const [label, r] of shapes) {
        const kib = `${(r.bytes / 1024).toFixed(1)} KiB`;
        console.log(
          `| ${label} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.p99 / baseline.p99).toFixed(1)}× | ${kib} |`,
        );
      }
    } finally {
      await app.close();
      await deleteRedisKeys(config.REDIS_URL, config.REDIS_PREFIX);
      await ds.destroy();
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
