#!/usr/bin/env node
// Transparency-log append and proof latency against the log's size, on PostgreSQL. For each
// size, a fresh database is filled with that many entries (inserted by SQL, their subtree
// roots backfilled as the migration does, the checkpoint and frontier computed here). Then
// 200 appends through TransparencyLog.append (the stored frontier: O(log n)) and 100
// inclusion proofs of random entries through TransparencyLog.inclusion (stored subtree roots:
// O(log² n) reads). The baselines, in the same process on the same rows, are what the log did
// before: read every leaf hash, then recompute the root, or build the proof, over all of them.
// Run `npm run build` first; `npm run bench:log`.
//   BENCH_SIZES (default 1000,10000,100000) log sizes; BENCH_APPENDS (default 200).
const { randomBytes } = require('node:crypto');
const { performance } = require('node:perf_hooks');
const { DataSource } = require('typeorm');

const { withScratchDatabase } = require('../support/scratch-database');

const dist = (p) => require(`../../dist/${p}`);
const { loadConfig } = dist('libs/config/src');
const { backfillLogNodes, buildDataSourceOptions, SigningKeyRepository, TransparencyLogRepository } =
  dist('libs/database/src');
const { frontierOf, frontierRoot, inclusionProof, leafHash, merkleRoot } = dist('libs/signing/src');
const { SigningKeyService, TransparencyLog } = dist('libs/trust/src');

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const APPENDS = Number(process.env.BENCH_APPENDS ?? 200);
const BASELINE_RUNS = 20;
const PROOFS = 100;

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

async function measure(size) {
  return withScratchDatabase(async (url) => {
    const ds = new DataSource(buildDataSourceOptions(url, { poolSize: 2, migrationsRun: true }));
    await ds.initialize();
    try {
      const config = loadConfig({ HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex'), HUB_LOG_ORIGIN: 'bench/log' });
      const keys = new SigningKeyService(ds, new SigningKeyRepository(ds), config);
      const log = new TransparencyLog(new TransparencyLogRepository(ds), keys, config);
      // The log's first `size` entries, as an append would have written them.
      await ds.query(
        `INSERT INTO log_entries (index, kind, leaf_data, leaf_hash, summary)
         SELECT i, 'certification', 'entry ' || i, encode(sha256('\\x00'::bytea || convert_to('entry ' || i, 'UTF8')), 'hex'), '{}'
         FROM generate_series(0, $1 - 1) AS i`,
        [size],
      );
      await backfillLogNodes(ds);
      const hashes = Array.from({ length: size }, (_, i) => leafHash(Buffer.from(`entry ${i}`)));
      const frontier = frontierOf(hashes);
      await ds.query(
        `INSERT INTO log_checkpoints (tree_size, root_hash, note, frontier) VALUES ($1, $2, 'bench', $3)`,
        [size, frontierRoot(frontier, size).toString('hex'), JSON.stringify(frontier.map((h) => h.toString('hex')))],
      );

      const baseline = [];
      for (let i = 0; i < BASELINE_RUNS; i++) {
        const start = performance.now();
        const rows = await ds.query(`SELECT leaf_hash FROM log_entries WHERE index < $1 ORDER BY index`, [size + 1]);
        merkleRoot(rows.map((r) => Buffer.from(r.leaf_hash, 'hex')));
        baseline.push(performance.now() - start);
      }

      const appends = [];
      for (let i = 0; i < APPENDS; i++) {
        const start = performance.now();
        await ds.transaction((m) =>
          log.append(m, (index) => ({ kind: 'certification', data: `new ${index}`, summary: {} })),
        );
        appends.push(performance.now() - start);
      }
      const treeSize = size + APPENDS;
      const proofs = [];
      const oldProofs = [];
      for (let i = 0; i < PROOFS; i++) {
        const index = Math.floor(Math.random() * treeSize);
        let start = performance.now();
        const proof = await log.inclusion(index, treeSize);
        proofs.push(performance.now() - start);
        if (i < BASELINE_RUNS) {
          start = performance.now();
          const rows = await ds.query(`SELECT leaf_hash FROM log_entries WHERE index < $1 ORDER BY index`, [treeSize]);
          const old = inclusionProof(
            index,
            rows.map((r) => Buffer.from(r.leaf_hash, 'hex')),
          );
          oldProofs.push(performance.now() - start);
          if (old.map((h) => h.toString('hex')).join() !== proof.join()) throw new Error(`proof mismatch at ${index}`);
        }
      }
      const [check] = await ds.query(
        `SELECT tree_size, root_hash FROM log_checkpoints ORDER BY tree_size DESC LIMIT 1`,
      );
      const all = await ds.query(`SELECT leaf_hash FROM log_entries ORDER BY index`);
      const ok = check.root_hash === merkleRoot(all.map((r) => Buffer.from(r.leaf_hash, 'hex'))).toString('hex');
      if (!ok || Number(check.tree_size) !== size + APPENDS) throw new Error(`root mismatch at size ${size}`);
      return {
        size,
        appendP50: quantile(appends, 0.5),
        appendP99: quantile(appends, 0.99),
        baselineP50: quantile(baseline, 0.5),
        proofP50: quantile(proofs, 0.5),
        proofP99: quantile(proofs, 0.99),
        oldProofP50: quantile(oldProofs, 0.5),
      };
    } finally {
      await ds.destroy();
    }
  });
}

(async () => {
  const rows = [];
  for (const size of SIZES) rows.push(await measure(size));
  const ms = (x, digits = 2) => x.toFixed(digits);
  console.log('| log size | append p50 (p99) ms | old: root from all leaves p50 ms | ratio |');
  console.log('|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.size.toLocaleString('en')} | ${ms(r.appendP50)} (${ms(r.appendP99)}) | ${ms(r.baselineP50, 1)} | ${ms(r.baselineP50 / r.appendP50, 1)}× |`,
    );
  }
  console.log('');
  console.log('| log size | inclusion proof p50 (p99) ms | old: proof from all leaves p50 ms | ratio |');
  console.log('|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.size.toLocaleString('en')} | ${ms(r.proofP50)} (${ms(r.proofP99)}) | ${ms(r.oldProofP50, 1)} | ${ms(r.oldProofP50 / r.proofP50, 1)}× |`,
    );
  }
})().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
