import type { JsonDocument } from './json-document';
import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { DeclaredTool, McpServerRef, SkillFormat } from '@skillhub/skill-formats';
import { Blob } from './blob.entity';
import { Skill } from './skill.entity';

export const VERSION_STATUSES = ['active', 'deprecated', 'yanked'] as const;
export type VersionStatus = (typeof VERSION_STATUSES)[number];

export interface StoredFile {
  path: string;
  size: number;
  sha256: string;
  mode: number;
}

/**
 * One published version: immutable content (bundle, manifest, files) plus a
 * lifecycle status the owner may change. `author/name@version` never changes bytes.
 */
@Entity({ name: 'skill_versions' })
@Index('skill_versions_skill_version_key', ['skillId', 'version'], { unique: true })
@Index('skill_versions_skill_order_idx', ['skillId', 'major', 'minor', 'patch'])
// Keyset orders of every-version lists (skill-search.repository.ts).
@Index('skill_versions_created_id_idx', ['createdAt', 'id'])
@Index('skill_versions_downloads_id_idx', ['downloads', 'id'])
@Index('skill_versions_order_id_idx', ['major', 'minor', 'patch', 'id'])
@Check('skill_versions_status_check', `"status" IN ('active', 'deprecated', 'yanked')`)
@Check('skill_versions_format_check', `"format" IN ('kazma', 'swarmkit', 'agent-skill')`)
export class SkillVersion {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'skill_id', type: 'uuid' })
  skillId: string;

  @ManyToOne(() => Skill, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'skill_id' })
  skill?: Skill;

  @Column({ type: 'varchar', length: 64 })
  version: string;

  /** Numeric parts of the version, so "latest" is an index scan rather than a sort in the app. */
  @Column({ type: 'integer' })
  major: number;

  @Column({ type: 'integer' })
  minor: number;

  @Column({ type: 'integer' })
  patch: number;

  @Column({ type: 'varchar', length: 64, nullable: true })
  prerelease: string | null;

  @Column({ type: 'varchar', length: 16 })
  format: SkillFormat;

  /** The author as the manifest wrote it ("Kazma Team"); the namespace holds the slug. */
  @Column({ type: 'varchar', length: 200 })
  author: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  license: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  category: string | null;

  @Index('skill_versions_capabilities_idx', { synchronize: false })
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  capabilities: string[];

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  permissions: string[];

  @Index('skill_versions_tags_idx', { synchronize: false })
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  tags: string[];

  @Column({ type: 'jsonb', default: () => "'[]'" })
  tools: DeclaredTool[];

  @Column({ name: 'mcp_servers', type: 'jsonb', default: () => "'[]'" })
  mcpServers: McpServerRef[];

  @Column({ name: 'entry_point', type: 'varchar', length: 512, nullable: true })
  entryPoint: string | null;

  @Column({ name: 'manifest_path', type: 'varchar', length: 512 })
  manifestPath: string;

  /** The manifest document as parsed (JSON), for checks and display. */
  @Column({ type: 'jsonb' })
  manifest: JsonDocument;

  @Column({ type: 'jsonb' })
  files: StoredFile[];

  @Column({ name: 'bundle_sha256', type: 'char', length: 64 })
  bundleSha256: string;

  @ManyToOne(() => Blob, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'bundle_sha256' })
  bundle?: Blob;

  @Column({ name: 'bundle_size', type: 'integer' })
  bundleSize: number;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status: VersionStatus;

  @Column({ name: 'status_message', type: 'varchar', length: 1000, nullable: true })
  statusMessage: string | null;

  @Column({ name: 'status_changed_at', type: 'timestamptz', nullable: true })
  statusChangedAt: Date | null;

  @Column({ name: 'published_by', type: 'uuid' })
  publishedBy: string;

  @Column({ name: 'downloads', type: 'bigint', default: 0 })
  downloads: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
