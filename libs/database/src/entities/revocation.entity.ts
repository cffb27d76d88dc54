import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { SkillVersion } from './skill-version.entity';

/** A version withdrawn from trust, with the reason and its place in the log. */
@Entity({ name: 'revocations' })
export class Revocation {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('revocations_version_key', { unique: true })
  @Column({ name: 'skill_version_id', type: 'uuid' })
  skillVersionId: string;

  @ManyToOne(() => SkillVersion, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'skill_version_id' })
  skillVersion?: SkillVersion;

  @Column({ type: 'varchar', length: 1000 })
  reason: string;

  /** `operator`, or the id of the publisher whose token revoked it. */
  @Column({ name: 'revoked_by', type: 'varchar', length: 64 })
  revokedBy: string;

  @Column({ name: 'log_index', type: 'bigint' })
  logIndex: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
