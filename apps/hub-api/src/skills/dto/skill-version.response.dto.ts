import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CERTIFICATION_LEVELS, CERTIFICATION_STATUSES, VERSION_STATUSES } from '@skillhub/database';
import type {
  Certification,
  CertificationLevel,
  CertificationStatus,
  SkillVersion,
  VersionStatus,
} from '@skillhub/database';
import { SKILL_FORMATS, type SkillFormat } from '@skillhub/skill-formats';
import { kazmaSkillId } from '../skill-ref';

export class CertificationSummaryDto {
  @ApiProperty({ enum: CERTIFICATION_STATUSES }) status: CertificationStatus;
  @ApiProperty({ enum: CERTIFICATION_LEVELS }) level: CertificationLevel;

  static from(c: Certification | null | undefined): CertificationSummaryDto {
    return { status: c?.status ?? 'pending', level: c?.level ?? 'none' };
  }
}

export class DeclaredToolDto {
  @ApiProperty() name: string;
  @ApiProperty() description: string;
}

export class PackageRefDto {
  @ApiProperty({ enum: ['npm', 'pypi'] }) registry: 'npm' | 'pypi';
  @ApiProperty() name: string;
  @ApiProperty({ nullable: true, type: String }) version: string | null;
  @ApiProperty() source: string;
}

export class McpServerDto {
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['stdio', 'sse', 'streamable-http'] }) transport: string;
  @ApiProperty({ nullable: true, type: [String] }) command: string[] | null;
  @ApiProperty({ nullable: true, type: String }) url: string | null;
  @ApiProperty({ type: [PackageRefDto] }) packages: PackageRefDto[];
}

export class BundleFileDto {
  @ApiProperty() path: string;
  @ApiProperty() size: number;
  @ApiProperty() sha256: string;
  @ApiProperty() mode: number;
}

/** A version as users read it; the first nine fields are the list item of Kazma's hub. */
export class SkillVersionResponseDto {
  @ApiProperty({ example: 'kazma-hub://acme-labs/weather@1.0.0' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Namespace slug.' }) author: string;
  @ApiProperty() description: string;
  @ApiProperty() version: string;
  @ApiProperty({ nullable: true, type: String }) category: string | null;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ description: 'True when this version holds a valid certificate.' }) certified: boolean;
  @ApiProperty() downloads: number;

  @ApiProperty({ description: 'The author as the manifest wrote it.' }) author_display: string;
  @ApiProperty({ enum: SKILL_FORMATS }) format: SkillFormat;
  @ApiProperty({ nullable: true, type: String }) license: string | null;
  @ApiProperty({ type: [String] }) capabilities: string[];
  @ApiProperty({ type: [String] }) permissions: string[];
  @ApiProperty({ type: [DeclaredToolDto] }) tools: DeclaredToolDto[];
  @ApiProperty({ type: [McpServerDto] }) mcp_servers: McpServerDto[];
  @ApiProperty({ nullable: true, type: String }) entry_point: string | null;
  @ApiProperty() manifest_path: string;
  @ApiProperty() bundle_sha256: string;
  @ApiProperty() bundle_size: number;
  @ApiProperty({ type: [BundleFileDto] }) files: BundleFileDto[];
  @ApiProperty({ enum: VERSION_STATUSES }) status: VersionStatus;
  @ApiPropertyOptional({ nullable: true, type: String }) status_message: string | null;
  @ApiProperty() published_at: string;
  @ApiProperty({ type: CertificationSummaryDto }) certification: CertificationSummaryDto;
  @ApiProperty({ example: '/api/v1/skills/acme-labs/weather/versions/1.0.0/bundle' }) download_url: string;

  static from(
    v: SkillVersion,
    namespace: string,
    name: string,
    cert: Certification | null | undefined,
  ): SkillVersionResponseDto {
    const certification = CertificationSummaryDto.from(cert);
    return {
      id: kazmaSkillId(namespace, name, v.version),
      name,
      author: namespace,
      description: v.description,
      version: v.version,
      category: v.category,
      tags: v.tags,
      certified: certification.status === 'certified',
      downloads: Number(v.downloads),
      author_display: v.author,
      format: v.format,
      license: v.license,
      capabilities: v.capabilities,
      permissions: v.permissions,
      tools: v.tools,
      mcp_servers: v.mcpServers,
      entry_point: v.entryPoint,
      manifest_path: v.manifestPath,
      bundle_sha256: v.bundleSha256,
      bundle_size: v.bundleSize,
      files: v.files,
      status: v.status,
      status_message: v.statusMessage,
      published_at: v.createdAt.toISOString(),
      certification,
      download_url: `/api/v1/skills/${namespace}/${name}/versions/${v.version}/bundle`,
    };
  }
}

export class VersionSummaryDto {
  @ApiProperty() version: string;
  @ApiProperty({ enum: VERSION_STATUSES }) status: VersionStatus;
  @ApiPropertyOptional({ nullable: true, type: String }) status_message: string | null;
  @ApiProperty() bundle_sha256: string;
  @ApiProperty() published_at: string;
  @ApiProperty({ type: CertificationSummaryDto }) certification: CertificationSummaryDto;
}

export class SkillResponseDto {
  @ApiProperty({ example: 'kazma-hub://acme-labs/weather' }) id: string;
  @ApiProperty() author: string;
  @ApiProperty() name: string;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
  @ApiProperty({
    type: SkillVersionResponseDto,
    nullable: true,
    description: 'The newest version that is not yanked (else the newest).',
  })
  latest: SkillVersionResponseDto | null;
  @ApiProperty({ type: [VersionSummaryDto], description: 'Newest first, by semver.' }) versions: VersionSummaryDto[];
}

export class PublishResponseDto {
  @ApiProperty({ example: 'kazma-hub://acme-labs/weather@1.0.0' }) id: string;
  @ApiProperty() author: string;
  @ApiProperty() name: string;
  @ApiProperty() version: string;
  @ApiProperty({ enum: SKILL_FORMATS }) format: SkillFormat;
  @ApiProperty() bundle_sha256: string;
  @ApiProperty({ type: CertificationSummaryDto }) certification: CertificationSummaryDto;
}
