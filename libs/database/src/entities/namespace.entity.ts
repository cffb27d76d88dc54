import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Publisher } from './publisher.entity';

/** An author's slug (`kazma-team`): skills live under it, and only its owner publishes there. */
@Entity({ name: 'namespaces' })
@Check('namespaces_slug_format', `"slug" ~ '^[a-z0-9][a-z0-9-]{0,38}$'`)
export class Namespace {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('namespaces_slug_key', { unique: true })
  @Column({ type: 'varchar', length: 39 })
  slug: string;

  @Column({ name: 'owner_id', type: 'uuid' })
  ownerId: string;

  @ManyToOne(() => Publisher, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'owner_id' })
  owner?: Publisher;

  /** The namespace's Kazma HMAC secret (C4), sealed with AES-256-GCM under HUB_ENCRYPTION_KEY. */
  @Column({ name: 'kazma_secret_sealed', type: 'varchar', length: 512, nullable: true, select: false })
  kazmaSecretSealed: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
