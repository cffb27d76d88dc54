#!/usr/bin/env node
// What a detonation (C16) costs and what it sees: the corpora's skills that have something to run
// (scripts, shell blocks, a Kazma entry module), detonated one after the other with the tracer and
// again without it (the same programs in the same sandbox, the baseline), seconds per skill p50/p99;
// which hostile skills the detonation alone catches and which benign ones it flags; and the bench
// process's RSS (it stands in for the worker: the programs are its child processes) with 32
// detonations in flight. Needs dist-bench (`npm run build:bench`), bubblewrap and strace.
// BENCH_COUNT (default 60) caps the skills timed; BENCH_INFLIGHT (default 32) detonations are
// started at once, through the worker's pool (2 at a time) and then all together.
const { performance } = require('node:perf_hooks');

const dist = (p) => require(`../../dist-bench/${p}`);
const corpus = dist('test/fixtures/certification-corpus');
const heldOut = dist('test/fixtures/held-out-corpus');
const { bundleOf } = dist('test/fixtures/certification-corpus/corpus-judge');
const { readBundle, DEFAULT_BUNDLE_LIMITS } = dist('libs/bundle/src');
const { parseSkill } = dist('libs/skill-formats/src');
const { CORPUS_NAMESPACE } = dist('test/fixtures/certification-corpus/corpus.types');
const { createDetonator, detonate, detonationAvailable, planDetonation } = dist('libs/detonation/src');
const { detonationFindings } = dist('libs/certification/src');

const COUNT = Number(process.env.BENCH_COUNT ?? 60);
const IN_FLIGHT = Number(process.env.BENCH_INFLIGHT ?? 32);
const MIB = 1024 * 1024;

const quantile = (xs, q) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

function prepared(testCase, hostile, source) {
  const bundle = readBundle(bundleOf(testCase), DEFAULT_BUNDLE_LIMITS);
  const parsed = parseSkill(bundle.files, {
    namespace: CORPUS_NAMESPACE,
    version: testCase.version ?? '1.0.0',
    folderName: bundle.rootFolder,
  });
  return { id: testCase.id, hostile, source, bundle, skill: parsed.skill };
}

async function timed(cases, options) {
  const rows = [];
  for (const c of cases) {
    const t0 = performance.now();
    const result = await detonate(c.bundle, c.skill, options);
    rows.push({ c, seconds: (performance.now() - t0) / 1000, result });
  }
  return rows;
}

async function inFlight(cases, concurrency) {
  const detonator = createDetonator({ concurrency });
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const t0 = performance.now();
  const picked = Array.from({ length: IN_FLIGHT }, (_, i) => cases[i % cases.length]);
  const results = await Promise.all(picked.map((c) => detonator.detonate(c.bundle, c.skill)));
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const timedOut = results.flatMap((r) => r.ran).filter((r) => r.timedOut).length;
  return {
    before,
    peak,
    seconds: (performance.now() - t0) / 1000,
    runs: results.flatMap((r) => r.ran).length,
    timedOut,
  };
}

async function main() {
  const available = await detonationAvailable();
  if (!available.ok) throw new Error(`cannot detonate here: ${available.reason}`);
  const all = [
    ...corpus.HOSTILE_CASES.map((c) => prepared(c, true, 'corpus')),
    ...corpus.BENIGN_CASES.map((c) => prepared(c, false, 'corpus')),
    ...heldOut.HELD_OUT_HOSTILE.map((c) => prepared(c, true, 'held-out')),
    ...heldOut.HELD_OUT_BENIGN.map((c) => prepared(c, false, 'held-out')),
  ];
  const runnable = all.filter((c) => planDetonation(c.bundle, c.skill).runs.length > 0);
  // Spread over both corpora and both kinds, in a fixed order.
  const sample = runnable.filter((_, i) => i % Math.max(1, Math.floor(runnable.length / COUNT)) === 0).slice(0, COUNT);
  console.log(`${all.length} cases, ${runnable.length} with something to run; timing ${sample.length}`);

  const traced = await timed(sample, {});
  const bare = await timed(sample, { trace: false });
  const tracedSeconds = traced.map((r) => r.seconds);
  const bareSeconds = bare.map((r) => r.seconds);
  const programs = traced.reduce((sum, r) => sum + r.result.ran.length, 0);
  console.log(`\nprograms run: ${programs} (${(programs / sample.length).toFixed(1)} a skill)`);
  console.log('| seconds per skill | p50 | p99 | mean |');
  console.log('| --- | --- | --- | --- |');
  for (const [name, xs] of [
    ['detonation (sandbox + strace)', tracedSeconds],
    ['baseline (same sandbox, no tracer)', bareSeconds],
  ]) {
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(
      `| ${name} | ${quantile(xs, 0.5).toFixed(2)} | ${quantile(xs, 0.99).toFixed(2)} | ${mean.toFixed(2)} |`,
    );
  }
  console.log(
    `ratio p50 ${(quantile(tracedSeconds, 0.5) / quantile(bareSeconds, 0.5)).toFixed(2)}, p99 ${(quantile(tracedSeconds, 0.99) / quantile(bareSeconds, 0.99)).toFixed(2)}`,
  );

  // What the detonation alone sees, over every runnable case (the timed ones reused).
  const seen = new Map(traced.map((r) => [r.c.id, r.result]));
  for (const c of runnable) if (!seen.has(c.id)) seen.set(c.id, await detonate(c.bundle, c.skill));
  for (const source of ['corpus', 'held-out']) {
    const hostile = runnable.filter((c) => c.source === source && c.hostile);
    const benign = runnable.filter((c) => c.source === source && !c.hostile);
    // What C16 fails, as the check decides it (a skill declaring network_outbound may try the network).
    const fails = (c) =>
      detonationFindings(seen.get(c.id), {
        declaresNetwork: c.skill?.permissions.includes('network_outbound') ?? false,
      }).some((f) => f.severity === 'critical' || f.severity === 'high');
    const caught = hostile.filter(fails);
    const flagged = benign.filter(fails);
    console.log(
      `\n${source}: hostile with something to run ${hostile.length}, failed by C16 ${caught.length}; benign ${benign.length}, failed by C16 ${flagged.length}`,
    );
    for (const c of benign.filter((b) => seen.get(b.id).events.length > 0)) {
      console.log(
        `  events of benign ${c.id}${flagged.includes(c) ? ' (failed)' : ''}: ${seen
          .get(c.id)
          .events.map((e) => `${e.kind} ${e.detail}`)
          .join('; ')}`,
      );
    }
    const kinds = {};
    for (const c of caught) for (const e of seen.get(c.id).events) kinds[e.kind] = (kinds[e.kind] ?? 0) + 1;
    console.log(`  events in caught hostile: ${JSON.stringify(kinds)}`);
  }

  // The worker's default (DETONATION_CONCURRENCY=2, the rest waiting their turn), then all at once.
  for (const concurrency of [2, IN_FLIGHT]) {
    const load = await inFlight(sample, concurrency);
    console.log(
      `\n${IN_FLIGHT} detonations in flight, ${concurrency} at once: RSS ${(load.before / MIB).toFixed(0)} MiB before, peak ${(load.peak / MIB).toFixed(0)} MiB (+${((load.peak - load.before) / MIB).toFixed(0)}), ${load.runs} programs in ${load.seconds.toFixed(1)} s, ${load.timedOut} stopped at the time limit`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
