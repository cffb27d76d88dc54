import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Namespace } from './namespace.entity';
import { Publisher } from './publisher.entity';

export const TOKEN_SCOPES = ['publish', 'claim', 'manage', 'tokens'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/**
 * A publisher's API token. Only the SHA-256 of the secret is stored; the secret is
 * shown once at creation. `prefix` is the first characters, so a user can tell tokens apart.
 */
@Entity({ name: 'publisher_tokens' })
export class PublisherToken {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('publisher_tokens_publisher_id_idx')
  @Column({ name: 'publisher_id', type: 'uuid' })
  publisherId: string;

  @ManyToOne(() => Publisher, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'publisher_id' })
  publisher?: Publisher;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  prefix: string;

  @Index('publisher_tokens_hash_key', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash: string;

  @Column({ type: 'text', array: true })
  scopes: TokenScope[];

  /** When set, the token may act on this namespace only. */
  @Column({ name: 'namespace_id', type: 'uuid', nullable: true })
  namespaceId: string | null;

  @ManyToOne(() => Namespace, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'namespace_id' })
  namespace?: Namespace | null;

  /**
   * The token that created this one; null when the operator did. Its expiry caps this one's, and
   * revoking it revokes this one (and, through it, everything this one made).
   */
  @Index('publisher_tokens_parent_id_idx')
  @Column({ name: 'parent_id', type: 'uuid', nullable: true })
  parentId: string | null;

  @ManyToOne(() => PublisherToken, { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'parent_id' })
  parent?: PublisherToken | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
