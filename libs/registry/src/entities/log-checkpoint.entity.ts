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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
