#!/usr/bin/env node
// Detection and false-positive rates on labelled corpora nobody here wrote, through the real
// pipeline (the corpus judge: fake npm/PyPI, package cache, sandbox, every check), and on the
// held-out corpus (test/fixtures/held-out-corpus). The public corpora are read from fetched copies
// of their repositories and never committed:
//   - cisco-ai-defense/skill-scanner `evals/` (Apache-2.0): folders under safe*/ are benign, the
//     rest hostile;
//   - bolhasec/post-Empirically-Testing-Skill-Scanners `skills/`: every skill is the moltbook skill
//     with an installer hidden to evade scanners; `original-moltbook` is ClawHavoc's own (base64 | bash).
// Usage: npm run build:bench && node bench/certify/public-corpora-bench.js <cisco git dir> <bolhasec git dir>
// (git dirs as `fetch` leaves them: /work/.mirror/<owner>+<name>/repo). Either may be '-' to skip it.
const { rmSync } = require('node:fs');
const { join } = require('node:path');
const { exportTree, skillCases } = require('./fetched-corpora');

const dist = (p) => require(`../../dist-bench/${p}`);
const { startCorpusJudge } = dist('test/fixtures/certification-corpus/corpus-judge');
const heldOut = dist('test/fixtures/held-out-corpus');

function publicCorpora(ciscoGit, bolhaGit) {
  const corpora = [];
  if (ciscoGit && ciscoGit !== '-') {
    const root = exportTree(ciscoGit, 'evals');
    corpora.push({
      name: 'cisco-ai-defense/skill-scanner evals',
      cases: skillCases(join(root, 'evals'), (path) => (/(^|\/)safe[^/]*\//.test(path) ? 'benign' : 'hostile')),
      cleanup: root,
    });
  }
  if (bolhaGit && bolhaGit !== '-') {
    const root = exportTree(bolhaGit, 'skills');
    corpora.push({
      name: 'bolhasec/post-Empirically-Testing-Skill-Scanners',
      cases: skillCases(join(root, 'skills'), () => 'hostile'),
      cleanup: root,
    });
  }
  return corpora;
}

async function rates(judge, name, cases) {
  const rows = [];
  for (const testCase of cases) {
    const started = process.hrtime.bigint();
    const verdict = await judge.judge(testCase);
    rows.push({ testCase, verdict, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
  }
  const hostile = rows.filter(({ testCase }) => testCase.label === 'hostile');
  const benign = rows.filter(({ testCase }) => testCase.label === 'benign');
  const certified = hostile.filter(({ verdict }) => verdict.status === 'certified');
  const standard = certified.filter(({ verdict }) => verdict.level === 'standard');
  const refused = benign.filter(({ verdict }) => verdict.status !== 'certified');
  const rules = (verdict) =>
    [...new Set(verdict.findings.filter((f) => f.severity === 'critical' || f.severity === 'high').map((f) => f.rule))]
      .slice(0, 4)
      .join(', ');
  console.log(`\n${name}: ${hostile.length} hostile, ${benign.length} benign`);
  console.log(
    `  hostile certified: ${certified.length}/${hostile.length} (${pct(certified.length, hostile.length)}), at standard: ${standard.length}`,
  );
  for (const { testCase, verdict } of certified) console.log(`    missed ${testCase.id} (${verdict.level})`);
  console.log(`  benign refused: ${refused.length}/${benign.length} (${pct(refused.length, benign.length)})`);
  for (const { testCase, verdict } of refused)
    console.log(`    refused ${testCase.id}: ${verdict.status} ${rules(verdict)}`);
  for (const { testCase, verdict } of hostile.filter(({ verdict: v }) => v.status !== 'certified'))
    console.log(`    caught ${testCase.id}: ${rules(verdict)}`);
  return rows;
}

const pct = (n, d) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);

async function main() {
  const [ciscoGit, bolhaGit] = process.argv.slice(2);
  const corpora = publicCorpora(ciscoGit, bolhaGit);
  const label = (testCase) => ({ ...testCase, label: testCase.expectLevel ? 'benign' : 'hostile' });
  corpora.push({
    name: 'held-out corpus (test/fixtures/held-out-corpus)',
    cases: [...heldOut.HELD_OUT_HOSTILE, ...heldOut.HELD_OUT_BENIGN].map(label),
  });
  const judge = await startCorpusJudge({ detonate: true });
  try {
    for (const corpus of corpora) await rates(judge, corpus.name, corpus.cases);
  } finally {
    await judge.close();
    for (const corpus of corpora) if (corpus.cleanup) rmSync(corpus.cleanup, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
