import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * The hub's Ed25519 keys. The newest key without `not_after` signs; older keys stay
 * published with their validity windows so certificates they signed keep verifying.
 */
@Entity({ name: 'signing_keys' })
export class SigningKey {
  /** SHA-256 of the SPKI public key, lowercase hex. */
  @PrimaryColumn({ name: 'key_id', type: 'char', length: 64 })
  keyId: string;

  @Column({ name: 'public_key_pem', type: 'text' })
  publicKeyPem: string;

  /** PKCS#8 PEM sealed with AES-256-GCM under HUB_ENCRYPTION_KEY. */
  @Column({ name: 'private_key_sealed', type: 'text', select: false })
  privateKeySealed: string;

  @Column({ name: 'not_before', type: 'timestamptz' })
  notBefore: Date;

  @Column({ name: 'not_after', type: 'timestamptz', nullable: true })
  notAfter: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
