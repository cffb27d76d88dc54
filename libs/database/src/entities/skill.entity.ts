import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { SkillFormat } from '@skillhub/skill-formats';
import type { CertificationLevel, CertificationStatus } from './certification-verdict';
import { Namespace } from './namespace.entity';

/** A skill name under a namespace; its content lives in immutable versions. */
@Entity({ name: 'skills' })
@Index('skills_namespace_name_key', ['namespaceId', 'name'], { unique: true })
// Keyset orders of the lists, each on this one table (skill-search.repository.ts).
@Index('skills_name_id_idx', ['name', 'id'])
@Index('skills_downloads_id_idx', ['downloads', 'id'])
@Index('skills_updated_at_id_idx', ['updatedAt', 'id'])
@Index('skills_listed_version_idx', ['listedMajor', 'listedMinor', 'listedPatch', 'id'])
// Partial indexes of the certified list and of certificates past expiry (migration).
@Index('skills_certified_issued_idx', { synchronize: false })
@Index('skills_certified_expiry_idx', { synchronize: false })
export class Skill {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'namespace_id', type: 'uuid' })
  namespaceId: string;

  @ManyToOne(() => Namespace, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'namespace_id' })
  namespace?: Namespace;

  /** Also trigram-indexed (migration), so a misspelt query still finds the skill. */
  @Index('skills_name_trgm_idx', { synchronize: false })
  @Column({ type: 'varchar', length: 64 })
  name: string;

  /**
   * The version lists and search show: the highest stable version not yanked, else the
   * highest not yanked. Kept current on publish and on status changes. (No foreign key:
   * versions are never deleted, and the relation would make the two entities import each other.)
   */
  @Index('skills_latest_version_id_idx')
  @Column({ name: 'latest_version_id', type: 'uuid', nullable: true })
  latestVersionId: string | null;

  /**
   * The listed version's full-text document, weighted: A name, B description, C tags
   * and capabilities, D tool names and descriptions. Rewritten with `latest_version_id`;
   * kept on the skill so a search reads one table (its GIN index comes from a migration, as
   * does the index of its neighbouring word pairs, which phrases read).
   */
  @Index('skills_search_idx', { synchronize: false })
  @Index('skills_phrase_idx', { synchronize: false })
  @Column({ name: 'search_vector', type: 'tsvector', select: false, nullable: true })
  searchVector: string | null;

  /** Sum of the versions' downloads, kept beside them by the batched counter. */
  @Column({ type: 'bigint', default: 0 })
  downloads: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  // The columns below are kept by triggers (migrations 1796300000000-search-scale and
  // 1796400000000-search-postings), never by the application: the listed version's category,
  // format and numeric parts, and its certification under the newest policy that judged it, so
  // lists and search filter and sort on this table.

  @Column({ name: 'listed_category', type: 'varchar', length: 64, nullable: true })
  listedCategory: string | null;

  @Column({ name: 'listed_format', type: 'varchar', length: 16, nullable: true })
  listedFormat: SkillFormat | null;

  @Column({ name: 'listed_major', type: 'integer', nullable: true })
  listedMajor: number | null;

  @Column({ name: 'listed_minor', type: 'integer', nullable: true })
  listedMinor: number | null;

  @Column({ name: 'listed_patch', type: 'integer', nullable: true })
  listedPatch: number | null;

  @Column({ name: 'cert_policy', type: 'integer', nullable: true })
  certPolicy: number | null;

  @Column({ name: 'cert_status', type: 'varchar', length: 16, nullable: true })
  certStatus: CertificationStatus | null;

  @Column({ name: 'cert_level', type: 'varchar', length: 16, nullable: true })
  certLevel: CertificationLevel | null;

  @Column({ name: 'cert_issued_at', type: 'timestamptz', nullable: true })
  certIssuedAt: Date | null;

  @Column({ name: 'cert_expires_at', type: 'timestamptz', nullable: true })
  certExpiresAt: Date | null;

  /** Certified level, downloads and recency in one number: search takes its candidates in this order. */
  @Index('skills_static_score_idx')
  @Column({ name: 'static_score', type: 'double precision', default: 0 })
  staticScore: number;
}
