/** The log on real PostgreSQL: proofs verify at every size, concurrent appends never fork, rewriting is caught. */
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { loadConfig } from '@skillhub/config';
import {
  backfillLogNodes,
  buildDataSourceOptions,
  SigningKeyRepository,
  TransparencyLogRepository,
} from '@skillhub/database';
import {
  leafHash,
  merkleRoot,
  publicKeyFromPem,
  verifyCheckpoint,
  verifyConsistency,
  verifyInclusion,
} from '@skillhub/signing';
import { createTestDatabase, type TestDatabase } from '@skillhub/testing';
import { SigningKeyService } from './signing-key.service';
import { TransparencyLog } from './transparency-log.service';

const ENTRIES = 100;

describe('TransparencyLog', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let log: TransparencyLog;
  let keys: SigningKeyService;
  const config = loadConfig({
    HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    HUB_LOG_ORIGIN: 'test.skillhub/log',
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = new DataSource(buildDataSourceOptions(db.url, { poolSize: 8 }));
    await ds.initialize();
    keys = new SigningKeyService(ds, new SigningKeyRepository(ds), config);
    log = new TransparencyLog(new TransparencyLogRepository(ds), keys, config);
    // Appends race on eight connections; the lock must keep indexes dense and the tree single.
    const indexes = await Promise.all(
      Array.from({ length: ENTRIES }, (_, i) =>
        ds.transaction((m) => log.append(m, () => ({ kind: 'certification', data: `entry ${i}`, summary: { i } }))),
      ),
    );
    expect([...indexes].sort((a, b) => a - b)).toEqual(Array.from({ length: ENTRIES }, (_, i) => i));
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const leaves = async () =>
    ((await ds.query(`SELECT leaf_data FROM log_entries ORDER BY index`)) as Array<{ leaf_data: string }>).map((r) =>
      leafHash(Buffer.from(r.leaf_data, 'utf8')),
    );

  it('signs a checkpoint for every size, each over the root of the leaves so far', async () => {
    const hashes = await leaves();
    const publicKeys = (await keys.publicKeys()).map((k) => publicKeyFromPem(k.publicKeyPem));
    const rows: Array<{ tree_size: string; root_hash: string; note: string }> = await ds.query(
      `SELECT tree_size, root_hash, note FROM log_checkpoints ORDER BY tree_size`,
    );
    expect(rows).toHaveLength(ENTRIES);
    for (const row of rows) {
      const size = Number(row.tree_size);
      expect(row.root_hash).toBe(merkleRoot(hashes.slice(0, size)).toString('hex'));
      const cp = verifyCheckpoint(row.note, 'test.skillhub/log', publicKeys);
      expect(cp.treeSize).toBe(size);
    }
  });

  it('serves inclusion proofs that verify for every entry at every size up to 100', async () => {
    const hashes = await leaves();
    for (let size = 1; size <= ENTRIES; size++) {
      const root = merkleRoot(hashes.slice(0, size));
      for (let index = 0; index < size; index++) {
        const proof = (await log.inclusion(index, size)).map((h) => Buffer.from(h, 'hex'));
        if (!verifyInclusion(hashes[index]!, index, size, proof, root)) throw new Error(`inclusion ${index}/${size}`);
      }
    }
  });

  it('serves consistency proofs between every pair of sizes', async () => {
    const hashes = await leaves();
    for (let second = 1; second <= ENTRIES; second += 7) {
      for (let first = 1; first <= second; first++) {
        const proof = (await log.consistency(first, second)).map((h) => Buffer.from(h, 'hex'));
        const ok = verifyConsistency(
          first,
          second,
          merkleRoot(hashes.slice(0, first)),
          merkleRoot(hashes.slice(0, second)),
          proof,
        );
        if (!ok) throw new Error(`consistency ${first}→${second}`);
      }
    }
  });

  it('appends on a checkpoint an older instance wrote (no frontier, no subtree roots) and proves again', async () => {
    // An instance older than the frontier and log_nodes migrations appended entries 64..99.
    await ds.query(`UPDATE log_checkpoints SET frontier = NULL WHERE tree_size = $1`, [String(await log.size())]);
    await ds.query(`DELETE FROM log_nodes WHERE (index + 1) * power(2, level) > 64`);
    await ds.transaction((m) => log.append(m, () => ({ kind: 'certification', data: 'after upgrade', summary: {} })));
    const [row] = await ds.query(
      `SELECT tree_size, root_hash, frontier FROM log_checkpoints ORDER BY tree_size DESC LIMIT 1`,
    );
    expect(Number(row.tree_size)).toBe(ENTRIES + 1);
    expect(row.root_hash).toBe(merkleRoot(await leaves()).toString('hex'));
    expect(row.frontier).toHaveLength((ENTRIES + 1).toString(2).replace(/0/g, '').length);
    const hashes = await leaves();
    const root = merkleRoot(hashes);
    for (let index = 0; index < hashes.length; index++) {
      const proof = (await log.inclusion(index, hashes.length)).map((h) => Buffer.from(h, 'hex'));
      expect(verifyInclusion(hashes[index]!, index, hashes.length, proof, root)).toBe(true);
    }
  });

  it('refuses to append on a frontier that does not give the stored root, and writes nothing', async () => {
    const size = await log.size();
    const [row] = await ds.query(`SELECT frontier FROM log_checkpoints WHERE tree_size = $1`, [String(size)]);
    const forged = [...row.frontier.slice(0, -1), leafHash(Buffer.from('forged')).toString('hex')];
    await ds.query(`UPDATE log_checkpoints SET frontier = $1 WHERE tree_size = $2`, [
      JSON.stringify(forged),
      String(size),
    ]);
    try {
      await expect(
        ds.transaction((m) => log.append(m, () => ({ kind: 'certification', data: 'on a fork', summary: {} }))),
      ).rejects.toMatchObject({ code: 'LOG.CORRUPT' });
      expect(await log.size()).toBe(size);
      expect(Number((await ds.query(`SELECT count(*) AS n FROM log_entries`))[0].n)).toBe(size);
    } finally {
      await ds.query(`UPDATE log_checkpoints SET frontier = $1 WHERE tree_size = $2`, [
        JSON.stringify(row.frontier),
        String(size),
      ]);
    }
  });

  it('stores every perfect subtree an append completes, the same the migration backfills from the leaves', async () => {
    const size = await log.size();
    const stored = await ds.query(`SELECT level, index, hash FROM log_nodes ORDER BY level, index`);
    let expected = 0;
    for (let span = 2; span <= size; span *= 2) expected += Math.floor(size / span);
    expect(stored).toHaveLength(expected);
    await ds.query(`DELETE FROM log_nodes`);
    await backfillLogNodes(ds);
    expect(await ds.query(`SELECT level, index, hash FROM log_nodes ORDER BY level, index`)).toEqual(stored);
    // A repair: only upper levels are missing, the lower ones (nothing to add there) are complete.
    await ds.query(`DELETE FROM log_nodes WHERE level >= 3`);
    await backfillLogNodes(ds);
    expect(await ds.query(`SELECT level, index, hash FROM log_nodes ORDER BY level, index`)).toEqual(stored);
  });

  it('refuses to prove from a log missing a subtree root, rather than prove something else', async () => {
    const [node] = await ds.query(`SELECT level, index, hash FROM log_nodes WHERE level = 1 AND index = 1`);
    await ds.query(`DELETE FROM log_nodes WHERE level = 1 AND index = 1`);
    try {
      await expect(log.inclusion(0, 10)).rejects.toMatchObject({ code: 'LOG.CORRUPT' });
    } finally {
      await ds.query(`INSERT INTO log_nodes (level, index, hash) VALUES ($1, $2, $3)`, [
        node.level,
        node.index,
        node.hash,
      ]);
    }
    expect(await log.inclusion(0, 10)).toHaveLength(4);
  });

  it('lets a client holding an older checkpoint detect a rewritten entry', async () => {
    const oldSize = 40;
    const oldRoot = merkleRoot((await leaves()).slice(0, oldSize));
    // History is rewritten: entry 17 gets other content, and the log keeps growing.
    await ds.query(`UPDATE log_entries SET leaf_data = 'forged', leaf_hash = $1 WHERE index = 17`, [
      leafHash(Buffer.from('forged')).toString('hex'),
    ]);
    await ds.transaction((m) => log.append(m, () => ({ kind: 'revocation', data: 'after the rewrite', summary: {} })));
    const newSize = await log.size();
    const newRoot = merkleRoot(await leaves());
    const proof = (await log.consistency(oldSize, newSize)).map((h) => Buffer.from(h, 'hex'));
    expect(verifyConsistency(oldSize, newSize, oldRoot, newRoot, proof)).toBe(false);
  });
});
