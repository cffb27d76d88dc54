#!/usr/bin/env node
// What the certifier gets right, and what it costs: the hostile and benign corpora through the
// real pipeline (detection and false-positive rates), the CPU to certify a 1 MiB Python skill
// against parsing it alone, and a live tool probe of a cached pinned npm server in the sandbox
// against the same server started bare. Builds its own copy of the tree (the corpus and the fake
// registry are test code): `npm run bench:certify` does it.
const { performance } = require('node:perf_hooks');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const dist = (p) => require(`../../dist-bench/${p}`);
const corpus = dist('test/fixtures/certification-corpus');
const { startCorpusJudge } = dist('test/fixtures/certification-corpus/corpus-judge');
const { certify } = dist('libs/certification/src');
const { loadCodeAnalyzer } = dist('libs/code-analysis/src');
const { loadGrammars } = dist('libs/code-analysis/src/grammars');
const { readBundle, writeBundle } = dist('libs/bundle/src');
const { parseSkill } = dist('libs/skill-formats/src');
const { probeLiveServer } = dist('libs/live-probe/src');
const { PackageCache } = dist('libs/package-cache/src');
const { FakeRegistries, packedRegistryFixtures } = dist('libs/package-probe/src/testing');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpuMs = (fn) => {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

async function corpusRates() {
  const judge = await startCorpusJudge();
  try {
    const t0 = performance.now();
    const hostile = [];
    for (const c of corpus.HOSTILE_CASES) hostile.push({ c, v: await judge.judge(c) });
    const benign = [];
    for (const c of corpus.BENIGN_CASES) benign.push({ c, v: await judge.judge(c) });
    const seconds = (performance.now() - t0) / 1000;
    const detected = hostile.filter(({ v }) => v.status !== 'certified');
    const byCategory = {};
    for (const { c, v } of hostile) {
      const row = (byCategory[c.category] ??= { cases: 0, caught: 0 });
      row.cases++;
      if (v.status !== 'certified') row.caught++;
    }
    const refused = benign.filter(({ v }) => v.status !== 'certified');
    const wrongLevel = benign.filter(({ c, v }) => v.status === 'certified' && v.level !== c.expectLevel);
    const pinned = benign.filter(({ v }) => v.servers.some((s) => s.package));
    return {
      seconds,
      cases: hostile.length + benign.length,
      hostile: hostile.length,
      detected: detected.length,
      missed: hostile.filter(({ v }) => v.status === 'certified').map(({ c }) => c.id),
      byCategory,
      benign: benign.length,
      refused: refused.map(({ c, v }) => `${c.id} (${v.status})`),
      wrongLevel: wrongLevel.map(({ c, v }) => `${c.id} (${v.level}, expected ${c.expectLevel})`),
      pinned: pinned.length,
      pinnedStandard: pinned.filter(({ v }) => v.level === 'standard').length,
    };
  } finally {
    await judge.close();
  }
}

/** ~1 MiB of ordinary Python, as a Kazma skill with the code in a helper module. */
function megabytePythonSkill() {
  const parts = [];
  let size = 0;
  // Just under 1 MiB: a larger file is not analysed at all (C11.not-fully-scanned).
  for (let i = 0; size < 1024 * 1024 - 1024; i++) {
    const block = [
      `def transform_${i}(rows, limit=10):`,
      `    """Keeps the first rows whose score passes the threshold ${i}."""`,
      '    kept = []',
      '    for row in rows:',
      `        if row.get("score", 0) > ${i % 97}:`,
      '            kept.append({"id": row["id"], "label": str(row.get("label", "")).strip()})',
      '        if len(kept) >= limit:',
      '            break',
      '    return kept',
      '',
      '',
    ].join('\n');
    parts.push(block);
    size += block.length;
  }
  const code = parts.join('');
  const manifest = [
    'name: big-transform',
    'version: 1.0.0',
    'description: Transforms rows of tabular data with many small helper functions.',
    'author: Bench Labs',
    'license: MIT',
    'entry_point: main.py',
    '',
  ].join('\n');
  const bytes = writeBundle(
    [
      { path: 'skill_manifest.yaml', content: manifest },
      { path: 'main.py', content: 'from helpers import transform_0\n' },
      { path: 'helpers.py', content: code },
    ],
    { rootFolder: 'big-transform' },
  );
  return { bytes, code };
}

async function pythonCpu() {
  const analyzer = await loadCodeAnalyzer();
  const grammars = await loadGrammars();
  const { bytes, code } = megabytePythonSkill();
  const bundle = readBundle(bytes);
  const parsed = parseSkill(bundle.files, { namespace: 'bench-labs' });
  const input = {
    bundle,
    skill: parsed.skill,
    parseProblems: parsed.problems,
    namespace: { slug: 'bench-labs', ownerMatches: true },
    kazmaSecrets: [],
    publisherKeys: [],
    publishedAt: new Date(),
    probes: [],
    liveServers: [],
    analyzer,
    popularNames: [],
    policyVersion: 3,
    now: new Date(),
  };
  const certifyRuns = [];
  const parseRuns = [];
  for (let i = 0; i < 7; i++) {
    certifyRuns.push(cpuMs(() => certify(input)));
    parseRuns.push(cpuMs(() => grammars.parse('python', code).delete()));
  }
  const verdict = certify(input);
  return {
    mib: code.length / 1024 / 1024,
    certify: median(certifyRuns.slice(2)),
    parse: median(parseRuns.slice(2)),
    verdict: `${verdict.status}/${verdict.level}`,
  };
}

async function liveProbe() {
  const name = '@modelcontextprotocol/server-everything';
  const fixtures = packedRegistryFixtures({ fromNodeModules: [name] });
  const registries = await FakeRegistries.start(fixtures);
  const root = mkdtempSync(join(tmpdir(), 'skillhub-bench-cache-'));
  try {
    const packument = fixtures.npm.find((p) => p.name === name);
    const version = packument['dist-tags'].latest;
    const integrity = packument.versions[version].dist.integrity;
    const packageCache = new PackageCache({ root, registry: registries.npm.baseUrl });
    const target = { kind: 'npm', server: 'everything', name, version, integrity, args: ['stdio'], env: {} };
    const cold0 = performance.now();
    const first = await probeLiveServer(target, { packageCache });
    const cold = performance.now() - cold0;
    await registries.close();
    const warm = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const probe = await probeLiveServer(target, { packageCache });
      warm.push(performance.now() - t0);
      if (probe.outcome !== 'listed') throw new Error(`warm probe ${probe.outcome}: ${probe.detail}`);
    }
    // The baseline: the same installed server, started bare (no sandbox, no cache check).
    const installed = await packageCache.install({ name, version, integrity });
    const bare = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const client = new Client({ name: 'bench', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [installed.bin, 'stdio'], stderr: 'ignore' }),
      );
      await client.listTools();
      await client.close();
      bare.push(performance.now() - t0);
    }
    return { tools: first.tools.length, outcome: first.outcome, cold, warm: median(warm), bare: median(bare) };
  } finally {
    await registries.close().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }
}

async function main() {
  const rates = await corpusRates();
  const cpu = await pythonCpu();
  const probe = await liveProbe();

  console.log(`\ncorpora through the real pipeline: ${rates.cases} cases in ${rates.seconds.toFixed(1)} s\n`);
  console.log('| corpus | cases | certified | rate |');
  console.log('|---|---|---|---|');
  console.log(
    `| hostile | ${rates.hostile} | ${rates.hostile - rates.detected} | detection ${((100 * rates.detected) / rates.hostile).toFixed(1)}% |`,
  );
  console.log(
    `| benign | ${rates.benign} | ${rates.benign - rates.refused.length} | false positives ${((100 * rates.refused.length) / rates.benign).toFixed(1)}% |`,
  );
  console.log(
    `\nhostile by category: ${Object.entries(rates.byCategory)
      .map(([k, v]) => `${k} ${v.caught}/${v.cases}`)
      .join(', ')}`,
  );
  console.log(`missed: ${rates.missed.join(', ') || 'none'}; benign refused: ${rates.refused.join(', ') || 'none'}`);
  console.log(`benign at another level than expected: ${rates.wrongLevel.join(', ') || 'none'}`);
  console.log(
    `benign with pinned npm servers: ${rates.pinned}, at standard ${rates.pinnedStandard} (${((100 * rates.pinnedStandard) / rates.pinned).toFixed(0)}%)`,
  );
  console.log(
    `\ncertify() of a ${cpu.mib.toFixed(2)} MiB Python skill: ${cpu.certify.toFixed(0)} ms CPU (median of 5, warm), parse alone ${cpu.parse.toFixed(0)} ms, ratio ${(cpu.certify / cpu.parse).toFixed(2)}; verdict ${cpu.verdict}`,
  );
  console.log(
    `live probe of ${probe.tools} tools (server-everything, ${probe.outcome}): cold install + probe ${probe.cold.toFixed(0)} ms; cached, registry closed ${probe.warm.toFixed(0)} ms (median of 5); bare start + tools/list ${probe.bare.toFixed(0)} ms; ratio ${(probe.warm / probe.bare).toFixed(2)}`,
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
