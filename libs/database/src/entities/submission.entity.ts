import type { JsonDocument } from './json-document';
import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { Problem } from '@skillhub/errors';
import { SkillVersion } from './skill-version.entity';

export const SUBMISSION_STATUSES = ['quarantined', 'claimed'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/**
 * A manifest sent by Kazma's `hub submit`, which carries no credentials. It is
 * quarantined (not listed, not installable) until an owner of its namespace claims
 * it, and is treated as gone once `expires_at` has passed.
 */
@Entity({ name: 'submissions' })
@Index('submissions_client_created_idx', ['clientAddress', 'createdAt'])
@Check('submissions_status_check', `"status" IN ('quarantined', 'claimed')`)
export class Submission {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'namespace_slug', type: 'varchar', length: 39 })
  namespaceSlug: string;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'varchar', length: 64 })
  version: string;

  @Column({ type: 'jsonb' })
  manifest: JsonDocument;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  problems: Problem[];

  /** The checks that apply to a manifest alone (C1, C7–C10, C12, C13), filled by the certifier. */
  @Column({ type: 'jsonb', nullable: true })
  report: JsonDocument | null;

  @Column({ name: 'source_url', type: 'varchar', length: 2048, nullable: true })
  sourceUrl: string | null;

  @Column({ name: 'submitter_id', type: 'varchar', length: 200, nullable: true })
  submitterId: string | null;

  @Column({ name: 'client_address', type: 'varchar', length: 64 })
  clientAddress: string;

  @Column({ type: 'varchar', length: 16, default: 'quarantined' })
  status: SubmissionStatus;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'claimed_at', type: 'timestamptz', nullable: true })
  claimedAt: Date | null;

  @Column({ name: 'skill_version_id', type: 'uuid', nullable: true })
  skillVersionId: string | null;

  @ManyToOne(() => SkillVersion, { onDelete: 'RESTRICT', nullable: true })
  @JoinColumn({ name: 'skill_version_id' })
  skillVersion?: SkillVersion | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
