import type { JsonDocument } from './json-document';
import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A job written in the same transaction as the change that calls for it. The relay
 * moves undispatched rows into BullMQ, so a Redis outage delays jobs but never loses one.
 */
@Entity({ name: 'outbox' })
@Index('outbox_pending_idx', ['availableAt'], { where: '"dispatched_at" IS NULL' })
export class OutboxMessage {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  queue: string;

  @Column({ name: 'job_name', type: 'varchar', length: 64 })
  jobName: string;

  @Column({ type: 'jsonb' })
  payload: JsonDocument;

  @Column({ name: 'available_at', type: 'timestamptz', default: () => 'now()' })
  availableAt: Date;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError: string | null;

  @Column({ name: 'dispatched_at', type: 'timestamptz', nullable: true })
  dispatchedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
