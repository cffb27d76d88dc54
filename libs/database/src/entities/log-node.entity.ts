import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The root of an aligned perfect subtree of the transparency log: 2^level leaves from leaf
 * `index * 2^level` (level ≥ 1; the leaves are in `log_entries`). Written by the append that
 * completes it, never changed; proofs read O(log² n) of these instead of every leaf.
 */
@Entity({ name: 'log_nodes' })
export class LogNode {
  @PrimaryColumn({ type: 'smallint' })
  level: number;

  @PrimaryColumn({ type: 'bigint' })
  index: string;

  @Column({ type: 'char', length: 64 })
  hash: string;
}
