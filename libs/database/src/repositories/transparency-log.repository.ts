/**
 * The transparency log's rows: leaves (`log_entries`), the roots of completed perfect subtrees
 * (`log_nodes`) and a signed checkpoint per size (`log_checkpoints`). The hashing and signing
 * are the log service's (libs/trust); this is only where they are kept.
 */
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { JsonDocument } from '../entities/json-document';
import { LogCheckpoint } from '../entities/log-checkpoint.entity';
import { LogEntry } from '../entities/log-entry.entity';
import { LogNode } from '../entities/log-node.entity';

const LOG_APPEND_LOCK = 0x10_6a99;

/** A stored hash of the tree: a leaf at level 0, a subtree root above. */
export interface StoredSubtree {
  level: number;
  index: number;
  hash: string;
}

/**
 * Fills `log_nodes` from the leaves in `log_entries`, one level at a time in SQL: node =
 * SHA-256(0x01 || left || right) over each complete pair of the level below (RFC 6962). Roots
 * already stored are kept, so it also repairs a log whose appends skipped them (an instance
 * older than the log_nodes migration appending during a rolling deploy); it stops at the first
 * level with no complete pair. The migration that made the table holds its own frozen copy.
 */
export async function backfillLogNodes(db: { query(sql: string): Promise<Array<{ pairs: number }>> }): Promise<void> {
  for (let level = 1; ; level++) {
    const below =
      level === 1
        ? `SELECT "index" AS idx, "leaf_hash" AS hash FROM "log_entries"`
        : `SELECT "index" AS idx, "hash" FROM "log_nodes" WHERE "level" = ${level - 1}`;
    const [{ pairs }] = await db.query(
      `WITH below AS (${below}),
       pairs AS (
         SELECT l.idx / 2 AS idx,
                encode(sha256('\\x01'::bytea || decode(l.hash, 'hex') || decode(r.hash, 'hex')), 'hex') AS hash
         FROM below l JOIN below r ON r.idx = l.idx + 1
         WHERE l.idx % 2 = 0),
       added AS (
         INSERT INTO "log_nodes" ("level", "index", "hash")
         SELECT ${level}, idx, hash FROM pairs
         ON CONFLICT DO NOTHING)
       SELECT count(*)::int AS pairs FROM pairs`,
    );
    if (pairs === 0) return;
  }
}

@Injectable()
export class TransparencyLogRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** One appender at a time, until the caller's transaction ends, so no two writers fork the tree. */
  async lockAppends(m: EntityManager): Promise<void> {
    await m.query('SELECT pg_advisory_xact_lock($1)', [LOG_APPEND_LOCK]);
  }

  /** The latest checkpoint (an index lookup; every append writes one), or null for an empty log. */
  latestCheckpoint(m: EntityManager = this.dataSource.manager): Promise<LogCheckpoint | null> {
    return m.findOne(LogCheckpoint, { where: {}, order: { treeSize: 'DESC' } });
  }

  checkpointOfSize(size: number): Promise<LogCheckpoint | null> {
    return this.dataSource.manager.findOneBy(LogCheckpoint, { treeSize: String(size) });
  }

  entry(index: number): Promise<LogEntry | null> {
    return this.dataSource.manager.findOneBy(LogEntry, { index: String(index) });
  }

  /**
   * One append's rows: the leaf, the subtree roots it completed and the checkpoint of the new
   * size with the tree's frontier (hex roots of its perfect subtrees, largest first).
   */
  async append(
    m: EntityManager,
    leaf: { index: number; kind: LogEntry['kind']; data: string; hash: string; summary: JsonDocument },
    completed: readonly StoredSubtree[],
    checkpoint: { rootHash: string; note: string; frontier: string[] },
  ): Promise<void> {
    await m.insert(LogEntry, {
      index: String(leaf.index),
      kind: leaf.kind,
      leafData: leaf.data,
      leafHash: leaf.hash,
      summary: leaf.summary,
    });
    if (completed.length > 0) {
      await m.insert(
        LogNode,
        completed.map((node) => ({ level: node.level, index: String(node.index), hash: node.hash })),
      );
    }
    await m.insert(LogCheckpoint, {
      treeSize: String(leaf.index + 1),
      rootHash: checkpoint.rootHash,
      note: checkpoint.note,
      frontier: checkpoint.frontier,
    });
  }

  /** The first `count` leaf hashes, in order. */
  async leafHashes(m: EntityManager, count: number): Promise<string[]> {
    const rows: Array<{ leaf_hash: string }> = await m.query(
      `SELECT "leaf_hash" FROM "log_entries" WHERE "index" < $1 ORDER BY "index"`,
      [count],
    );
    return rows.map((r) => r.leaf_hash);
  }

  /** Fills in the subtree roots an older instance's appends did not store. */
  backfillNodes(m: EntityManager): Promise<void> {
    return backfillLogNodes(m);
  }

  /** The stored hashes asked for, in two queries (leaves, then subtree roots); a missing one is simply absent. */
  async subtrees(wanted: ReadonlyArray<{ level: number; index: number }>): Promise<StoredSubtree[]> {
    const leaves = wanted.filter((n) => n.level === 0).map((n) => String(n.index));
    const nodes = wanted.filter((n) => n.level > 0);
    const rows: Array<{ level: number; index: string; hash: string }> = [
      ...(leaves.length === 0
        ? []
        : await this.dataSource.query(
            `SELECT 0 AS level, "index", "leaf_hash" AS hash FROM "log_entries" WHERE "index" = ANY($1::bigint[])`,
            [leaves],
          )),
      ...(nodes.length === 0
        ? []
        : await this.dataSource.query(
            `SELECT n."level", n."index", n."hash" FROM "log_nodes" n
             JOIN unnest($1::smallint[], $2::bigint[]) AS w("level", "index") USING ("level", "index")`,
            [nodes.map((n) => n.level), nodes.map((n) => String(n.index))],
          )),
    ];
    return rows.map((r) => ({ level: Number(r.level), index: Number(r.index), hash: r.hash }));
  }
}
