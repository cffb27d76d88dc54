#!/usr/bin/env node
// Real skills as their projects ship them, through the real pipeline (the corpus judge: fake
// npm/PyPI, package cache, sandbox, every check, detonation on): how many the hub refuses (4xx),
// fails, and certifies at basic and at standard, and why each failure and each basic. Read from
// fetched copies of their repositories, never committed:
//   - anthropics/skills (`skills/`), obra/superpowers (`skills/`): Agent Skills, each folder as named
//     in the repository;
//   - delivstat/swarmkit: every workspace in SwarmKit's layout, split into its skills as publish
//     splits it, and the loose skills of `reference/skills`, each alone.
// Usage: npm run build:bench && node bench/certify/real-skills-bench.js <repo git dir>…
// (git dirs as `fetch` leaves them: /work/.mirror/<owner>+<name>/repo).
const { rmSync } = require('node:fs');
const { basename, dirname } = require('node:path');
const { exportTree, skillCases, swarmkitCases } = require('./fetched-corpora');

const dist = (p) => require(`../../dist-bench/${p}`);
const { startCorpusJudge } = dist('test/fixtures/certification-corpus/corpus-judge');
const { workspaceSkills } = dist('libs/skill-formats/src');

const BLOCKING = new Set(['critical', 'high']);

function outcome(verdict) {
  // A manifest that does not parse is refused at publish (422) before any verdict.
  if (verdict.findings.some((f) => f.rule === 'C1.manifest-error')) return '4xx';
  if (verdict.status !== 'certified') return 'failed';
  return verdict.level;
}

async function main() {
  const gitDirs = process.argv.slice(2);
  if (gitDirs.length === 0) throw new Error('usage: real-skills-bench.js <repo git dir>…');
  const judge = await startCorpusJudge({ detonate: true });
  const table = [];
  try {
    for (const gitDir of gitDirs) {
      const name = basename(dirname(gitDir)).replace('+', '/');
      // SwarmKit's repository holds large media the fetched copy leaves out: only its skills are read.
      const root = exportTree(gitDir, name.endsWith('/swarmkit') ? ['examples', 'reference'] : undefined);
      try {
        const cases = name.endsWith('/swarmkit')
          ? swarmkitCases(root, workspaceSkills)
          : skillCases(root, () => 'benign', { folder: 'actual' });
        const counts = { '4xx': 0, failed: 0, basic: 0, standard: 0 };
        console.log(`\n${name}: ${cases.length} skills`);
        for (const testCase of cases) {
          const verdict = await judge.judge(testCase);
          const result = outcome(verdict);
          counts[result]++;
          if (result === 'standard') continue;
          const shown = verdict.findings.filter((f) =>
            result === 'basic' ? f.severity === 'medium' : BLOCKING.has(f.severity),
          );
          const why = [
            ...new Set(shown.map((f) => `${f.rule}@${f.file ?? ''}:${f.line ?? ''} ${f.message.slice(0, 110)}`)),
          ];
          console.log(`  ${result.padEnd(6)} ${testCase.id}`);
          for (const line of why.slice(0, 4)) console.log(`           ${line}`);
          if (why.length === 0 && result === 'basic')
            console.log(
              `           requirements not met: ${Object.entries(verdict.requirementsMet ?? {})
                .filter(([, v]) => !v)
                .map(([k]) => k)
                .join(', ')}`,
            );
        }
        table.push({ name, total: cases.length, ...counts });
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }
  } finally {
    await judge.close();
  }
  console.log('\n| corpus | published | 4xx | failed | basic | standard |');
  console.log('|---|---|---|---|---|---|');
  for (const row of table)
    console.log(`| ${row.name} | ${row.total} | ${row['4xx']} | ${row.failed} | ${row.basic} | ${row.standard} |`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
