/**
 * The append-only transparency log in PostgreSQL. Appends take one advisory lock, so
 * concurrent workers never fork the tree; each append stores a signed checkpoint of
 * the new size and root, and the tree's frontier, so the next append costs O(log n)
 * whatever the log's size. Proofs follow RFC 6962 / RFC 9162.
 */
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { DomainError } from '@skillhub/errors';
import { backfillLogNodes, LogCheckpoint, LogEntry, LogNode } from '@skillhub/database';
import {
  consistencyProofFrom,
  frontierAppend,
  frontierOf,
  frontierRoot,
  inclusionProofFrom,
  leafHash,
  signCheckpoint,
  subtreesRead,
  type SubtreeSource,
} from '@skillhub/signing';
import { SigningKeyService } from './signing-key.service';

const LOG_APPEND_LOCK = 0x10_6a99;

export class LogRangeError extends DomainError {
  constructor(message: string, path: string) {
    super('LOG.INVALID', message, [{ path, message, severity: 'error' }]);
  }
}

/** The stored state does not add up: the log refuses to sign on top of it. */
export class LogCorruptError extends DomainError {
  constructor(message: string) {
    super('LOG.CORRUPT', message);
  }
}

export interface LogLeaf {
  kind: LogEntry['kind'];
  /** The exact text hashed into the leaf. */
  data: string;
  summary: object;
}

@Injectable()
export class TransparencyLog {
  constructor(
    private readonly dataSource: DataSource,
    private readonly keys: SigningKeyService,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  /**
   * Appends inside the caller's transaction. `build` learns the index first, because a
   * certificate states its own log index; the lock is held until the caller commits.
   */
  async append(m: EntityManager, build: (index: number) => LogLeaf | Promise<LogLeaf>): Promise<number> {
    await m.query('SELECT pg_advisory_xact_lock($1)', [LOG_APPEND_LOCK]);
    const { size, frontier } = await this.head(m);
    const leaf = await build(size);
    const hash = leafHash(Buffer.from(leaf.data, 'utf8'));
    await m.insert(LogEntry, {
      index: String(size),
      kind: leaf.kind,
      leafData: leaf.data,
      leafHash: hash.toString('hex'),
      summary: leaf.summary,
    });
    const { frontier: next, completed } = frontierAppend(frontier, size, hash);
    if (completed.length > 0) {
      await m.insert(
        LogNode,
        completed.map((node) => ({ level: node.level, index: String(node.index), hash: node.hash.toString('hex') })),
      );
    }
    const root = frontierRoot(next, size + 1);
    const { privateKey } = await this.keys.activeKey(m);
    const note = signCheckpoint(
      { origin: this.config.HUB_LOG_ORIGIN, treeSize: size + 1, rootHash: root, timestamp: new Date() },
      privateKey,
    );
    await m.insert(LogCheckpoint, {
      treeSize: String(size + 1),
      rootHash: root.toString('hex'),
      note,
      frontier: next.map((h) => h.toString('hex')),
    });
    return size;
  }

  /**
   * The size and frontier the next append builds on, from the latest checkpoint (every append
   * writes one in its transaction). A checkpoint from before frontiers were stored has its
   * frontier rebuilt from the leaves, and the subtree roots proofs read are filled in, once. A frontier that does not give the checkpoint's root
   * is a corrupt log: the append fails rather than sign a forked tree.
   */
  private async head(m: EntityManager): Promise<{ size: number; frontier: Buffer[] }> {
    const latest = await m.findOne(LogCheckpoint, { where: {}, order: { treeSize: 'DESC' } });
    if (!latest) return { size: 0, frontier: [] };
    const size = Number(latest.treeSize);
    let frontier: Buffer[];
    if (latest.frontier) {
      frontier = latest.frontier.map((h) => Buffer.from(h, 'hex'));
    } else {
      // Written by an older instance: it stored no subtree roots either.
      frontier = frontierOf(await this.leafHashes(m, size));
      await backfillLogNodes(m);
    }
    if (frontierRoot(frontier, size).toString('hex') !== latest.rootHash) {
      throw new LogCorruptError(`The stored frontier does not give the root of checkpoint ${size}`);
    }
    return { size, frontier };
  }

  async checkpoint(): Promise<LogCheckpoint | null> {
    return this.dataSource.getRepository(LogCheckpoint).findOne({ where: {}, order: { treeSize: 'DESC' } });
  }

  async entry(index: number): Promise<LogEntry | null> {
    return this.dataSource.getRepository(LogEntry).findOneBy({ index: String(index) });
  }

  async inclusion(index: number, treeSize: number): Promise<string[]> {
    const size = await this.size();
    if (treeSize < 1 || treeSize > size)
      throw new LogRangeError(`tree_size must be between 1 and ${size}`, 'tree_size');
    if (index < 0 || index >= treeSize) throw new LogRangeError(`index must be below tree_size ${treeSize}`, 'index');
    return this.prove((source) => inclusionProofFrom(index, treeSize, source));
  }

  async consistency(first: number, second: number): Promise<string[]> {
    const size = await this.size();
    if (second < 1 || second > size) throw new LogRangeError(`second must be between 1 and ${size}`, 'second');
    if (first < 1 || first > second) throw new LogRangeError(`first must be between 1 and second (${second})`, 'first');
    return this.prove((source) => consistencyProofFrom(first, second, source));
  }

  /**
   * Runs a proof over the stored subtree roots: once to learn which it reads, then again on
   * those, fetched in two queries. A root the log should hold but does not is a corrupt log.
   */
  private async prove(proof: (source: SubtreeSource) => Buffer[]): Promise<string[]> {
    const wanted = subtreesRead(proof);
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
    const byId = new Map(rows.map((r) => [`${r.level}/${r.index}`, Buffer.from(r.hash, 'hex')]));
    return proof((level, index) => {
      const hash = byId.get(`${level}/${index}`);
      if (!hash) throw new LogCorruptError(`The log holds no subtree root at level ${level}, index ${index}`);
      return hash;
    }).map((h) => h.toString('hex'));
  }

  /** The latest checkpoint's size (an index lookup; every append writes one). */
  async size(): Promise<number> {
    const latest = await this.checkpoint();
    return latest ? Number(latest.treeSize) : 0;
  }

  private async leafHashes(m: EntityManager, count: number): Promise<Buffer[]> {
    const rows: Array<{ leaf_hash: string }> = await m.query(
      `SELECT "leaf_hash" FROM "log_entries" WHERE "index" < $1 ORDER BY "index"`,
      [count],
    );
    return rows.map((r) => Buffer.from(r.leaf_hash, 'hex'));
  }
}
