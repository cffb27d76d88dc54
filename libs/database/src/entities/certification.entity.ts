import type { JsonDocument } from './json-document';
import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { SkillVersion } from './skill-version.entity';

import type { CertificationLevel, CertificationStatus } from './certification-verdict';

export * from './certification-verdict';

/** The verdict on one version under one policy version; starts `pending` at publish. */
@Entity({ name: 'certifications' })
@Index('certifications_version_policy_key', ['skillVersionId', 'policyVersion'], { unique: true })
@Check(
  'certifications_status_check',
  `"status" IN ('pending', 'certified', 'failed', 'inconclusive', 'revoked', 'expired')`,
)
@Check('certifications_level_check', `"level" IN ('none', 'basic', 'standard')`)
export class Certification {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'skill_version_id', type: 'uuid' })
  skillVersionId: string;

  @ManyToOne(() => SkillVersion, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'skill_version_id' })
  skillVersion?: SkillVersion;

  @Column({ name: 'policy_version', type: 'integer' })
  policyVersion: number;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: CertificationStatus;

  @Column({ type: 'varchar', length: 16, default: 'none' })
  level: CertificationLevel;

  /** When the certificate was issued and until when it holds; null until certified. */
  @Column({ name: 'issued_at', type: 'timestamptz', nullable: true })
  issuedAt: Date | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  /** Every requirement by name (Kazma's six among them) and whether it was met. */
  @Column({ name: 'requirements_met', type: 'jsonb', default: () => "'{}'" })
  requirementsMet: Record<string, boolean>;

  /** Findings and requirements, filled by the certifier. */
  @Column({ type: 'jsonb', nullable: true })
  report: JsonDocument | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
