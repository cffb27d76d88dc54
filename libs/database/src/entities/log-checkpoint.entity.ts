import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A signed statement of the log's size and root after an append (C2SP signed-note text). */
@Entity({ name: 'log_checkpoints' })
export class LogCheckpoint {
  @PrimaryColumn({ name: 'tree_size', type: 'bigint' })
  treeSize: string;

  @Column({ name: 'root_hash', type: 'char', length: 64 })
  rootHash: string;

  @Column({ type: 'text' })
  note: string;

  /**
   * The tree's frontier after this append (hex roots of its perfect subtrees, largest first):
   * the next append computes its root from it in O(log n). Null on checkpoints written before it existed.
   */
  @Column({ type: 'jsonb', nullable: true })
  frontier: string[] | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
