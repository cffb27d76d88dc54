/**
 * The append-only transparency log in PostgreSQL. Appends take one advisory lock, so
 * concurrent workers never fork the tree; each append stores a signed checkpoint of
 * the new size and root, and the tree's frontier, so the next append costs O(log n)
 * whatever the log's size. Proofs follow RFC 6962 / RFC 9162.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { DomainError } from '@skillhub/errors';
import { TransparencyLogRepository, type LogCheckpoint, type LogEntry } from '@skillhub/database';
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

export class LogRangeError extends DomainError {
  constructor(message: string, path: string) {
    super('invalid', 'LOG.INVALID', message, [{ path, message, severity: 'error' }]);
  }
}

/** The stored state does not add up: the log refuses to sign on top of it. */
export class LogCorruptError extends DomainError {
  constructor(message: string) {
    super('internal', 'LOG.CORRUPT', message);
  }
}

export interface LogLeaf {
  kind: LogEntry['kind'];
  /** The exact text hashed into the leaf. */
  data: string;
  summary: object;
}

const hex = (hash: Buffer): string => hash.toString('hex');
const bytes = (hash: string): Buffer => Buffer.from(hash, 'hex');

@Injectable()
export class TransparencyLog {
  constructor(
    private readonly rows: TransparencyLogRepository,
    private readonly keys: SigningKeyService,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  /**
   * Appends inside the caller's transaction. `build` learns the index first, because a
   * certificate states its own log index; the lock is held until the caller commits.
   */
  async append(m: EntityManager, build: (index: number) => LogLeaf | Promise<LogLeaf>): Promise<number> {
    await this.rows.lockAppends(m);
    const { size, frontier } = await this.head(m);
    const leaf = await build(size);
    const hash = leafHash(Buffer.from(leaf.data, 'utf8'));
    const { frontier: next, completed } = frontierAppend(frontier, size, hash);
    const root = frontierRoot(next, size + 1);
    const { privateKey } = await this.keys.activeKey(m);
    const note = signCheckpoint(
      { origin: this.config.HUB_LOG_ORIGIN, treeSize: size + 1, rootHash: root, timestamp: new Date() },
      privateKey,
    );
    await this.rows.append(
      m,
      { index: size, kind: leaf.kind, data: leaf.data, hash: hex(hash), summary: leaf.summary },
      completed.map((node) => ({ level: node.level, index: node.index, hash: hex(node.hash) })),
      { rootHash: hex(root), note, frontier: next.map(hex) },
    );
    return size;
  }

  /**
   * The size and frontier the next append builds on, from the latest checkpoint (every append
   * writes one in its transaction). A checkpoint from before frontiers were stored has its
   * frontier rebuilt from the leaves, and the subtree roots proofs read are filled in, once. A
   * frontier that does not give the checkpoint's root is a corrupt log: the append fails rather
   * than sign a forked tree.
   */
  private async head(m: EntityManager): Promise<{ size: number; frontier: Buffer[] }> {
    const latest = await this.rows.latestCheckpoint(m);
    if (!latest) return { size: 0, frontier: [] };
    const size = Number(latest.treeSize);
    let frontier: Buffer[];
    if (latest.frontier) {
      frontier = latest.frontier.map(bytes);
    } else {
      // Written by an older instance: it stored no subtree roots either.
      frontier = frontierOf((await this.rows.leafHashes(m, size)).map(bytes));
      await this.rows.backfillNodes(m);
    }
    if (hex(frontierRoot(frontier, size)) !== latest.rootHash) {
      throw new LogCorruptError(`The stored frontier does not give the root of checkpoint ${size}`);
    }
    return { size, frontier };
  }

  checkpoint(): Promise<LogCheckpoint | null> {
    return this.rows.latestCheckpoint();
  }

  /** The checkpoint the log signed at `size`, or null. */
  checkpointOfSize(size: number): Promise<LogCheckpoint | null> {
    return this.rows.checkpointOfSize(size);
  }

  entry(index: number): Promise<LogEntry | null> {
    return this.rows.entry(index);
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
   * those, fetched at once. A root the log should hold but does not is a corrupt log.
   */
  private async prove(proof: (source: SubtreeSource) => Buffer[]): Promise<string[]> {
    const stored = await this.rows.subtrees(subtreesRead(proof));
    const byId = new Map(stored.map((r) => [`${r.level}/${r.index}`, bytes(r.hash)]));
    return proof((level, index) => {
      const hash = byId.get(`${level}/${index}`);
      if (!hash) throw new LogCorruptError(`The log holds no subtree root at level ${level}, index ${index}`);
      return hash;
    }).map(hex);
  }

  /** The latest checkpoint's size (an index lookup; every append writes one). */
  async size(): Promise<number> {
    const latest = await this.checkpoint();
    return latest ? Number(latest.treeSize) : 0;
  }
}
