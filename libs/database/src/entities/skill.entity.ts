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
import { Namespace } from './namespace.entity';

/** A skill name under a namespace; its content lives in immutable versions. */
@Entity({ name: 'skills' })
@Index('skills_namespace_name_key', ['namespaceId', 'name'], { unique: true })
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
  @Index('skills_name_idx')
  @Column({ type: 'varchar', length: 64 })
  name: string;

  /**
   * The version lists and search show: the highest stable version not yanked, else the
   * highest not yanked. Kept current on publish and on status changes. (No foreign key:
   * versions are never deleted, and the relation would make the two entities import each other.)
   */
  @Column({ name: 'latest_version_id', type: 'uuid', nullable: true })
  latestVersionId: string | null;

  /**
   * The listed version's full-text document, weighted: A name, B description, C tags
   * and capabilities, D tool names and descriptions. Rewritten with `latest_version_id`;
   * kept on the skill so a search reads one table (its GIN index comes from a migration).
   */
  @Index('skills_search_idx', { synchronize: false })
  @Column({ name: 'search_vector', type: 'tsvector', select: false, nullable: true })
  searchVector: string | null;

  /** Sum of the versions' downloads, kept beside them by the batched counter. */
  @Index('skills_downloads_idx')
  @Column({ type: 'bigint', default: 0 })
  downloads: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Index('skills_updated_at_idx')
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
