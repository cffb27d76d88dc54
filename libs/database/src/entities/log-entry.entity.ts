import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { JsonDocument } from './json-document';

/**
 * One leaf of the append-only transparency log (RFC 6962 hashing). Appends are
 * serialized, so indexes are dense from 0 and no two writers fork the tree.
 */
@Entity({ name: 'log_entries' })
@Check('log_entries_kind_check', `"kind" IN ('certification', 'revocation')`)
export class LogEntry {
  @PrimaryColumn({ name: 'index', type: 'bigint' })
  index: string;

  @Column({ type: 'varchar', length: 16 })
  kind: 'certification' | 'revocation';

  /** The exact bytes that were hashed into the leaf (a DSSE envelope or a revocation statement, as JSON). */
  @Column({ name: 'leaf_data', type: 'text' })
  leafData: string;

  @Column({ name: 'leaf_hash', type: 'char', length: 64 })
  leafHash: string;

  @Column({ type: 'jsonb' })
  summary: JsonDocument;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
