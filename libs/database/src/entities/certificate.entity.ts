import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { JsonDocument } from './json-document';
import { Certification } from './certification.entity';

/** A signed certificate: the DSSE envelope over the statement, and where it sits in the log. */
@Entity({ name: 'certificates' })
export class Certificate {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('certificates_certification_key', { unique: true })
  @Column({ name: 'certification_id', type: 'uuid' })
  certificationId: string;

  @ManyToOne(() => Certification, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'certification_id' })
  certification?: Certification;

  @Column({ name: 'key_id', type: 'char', length: 64 })
  keyId: string;

  @Column({ type: 'jsonb' })
  envelope: JsonDocument;

  @Column({ name: 'log_index', type: 'bigint' })
  logIndex: string;

  @Column({ name: 'issued_at', type: 'timestamptz' })
  issuedAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
