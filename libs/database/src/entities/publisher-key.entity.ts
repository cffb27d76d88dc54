import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Namespace } from './namespace.entity';

/**
 * A publisher's Ed25519 public key, registered with a namespace (C14). Once a namespace has one,
 * every version published there must carry `.skillhub-signature.json` signed by one of its keys.
 * A removed key gets `removed_at` and signs nothing from then on; the row stays for the record.
 */
@Entity({ name: 'publisher_keys' })
@Index('publisher_keys_namespace_key_id_key', ['namespaceId', 'keyId'], { unique: true })
export class PublisherKey {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'namespace_id', type: 'uuid' })
  namespaceId: string;

  @ManyToOne(() => Namespace, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'namespace_id' })
  namespace?: Namespace;

  /** SHA-256 of the SPKI public key, lowercase hex. */
  @Column({ name: 'key_id', type: 'char', length: 64 })
  keyId: string;

  @Column({ name: 'public_key_pem', type: 'text' })
  publicKeyPem: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'removed_at', type: 'timestamptz', nullable: true })
  removedAt: Date | null;
}
