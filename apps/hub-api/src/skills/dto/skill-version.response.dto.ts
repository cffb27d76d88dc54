import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CERTIFICATION_LEVELS, CERTIFICATION_STATUSES, statusNow, VERSION_STATUSES } from '@skillhub/database';
import type {
  CertificationLevel,
  CertificationSummary,
  CertificationStatus,
  SkillVersion,
  VersionStatus,
} from '@skillhub/database';
import { SKILL_FORMATS, type SkillFormat } from '@skillhub/skill-formats';
import { kazmaSkillId } from '../skill-ref';
import { EXAMPLE } from '../../common/dto/api-examples';

export class CertificationSummaryDto {
  @ApiProperty({ enum: CERTIFICATION_STATUSES, example: 'certified' }) status: CertificationStatus;
  @ApiProperty({ enum: CERTIFICATION_LEVELS, example: 'standard' }) level: CertificationLevel;

  /** The status users see now (`statusNow`: a certificate past its expiry reads `expired`). */
  static from(c: CertificationSummary | null | undefined): CertificationSummaryDto {
    return { status: statusNow(c ?? null), level: c?.level ?? 'none' };
  }
}

export class DeclaredToolDto {
  @ApiProperty({ example: 'get_forecast' }) name: string;
  @ApiProperty({ example: 'The forecast for a city, day by day.' }) description: string;
}

export class PackageRefDto {
  @ApiProperty({ enum: ['npm', 'pypi'], example: 'pypi' }) registry: 'npm' | 'pypi';
  @ApiProperty({ example: 'requests' }) name: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'The pinned version; null when unpinned.',
    example: '2.32.3',
  })
  version: string | null;
  @ApiProperty({ description: 'Where the skill names it.', example: 'requirements.txt' }) source: string;
}

export class McpServerDto {
  @ApiProperty({ example: 'weather' }) name: string;
  @ApiProperty({ enum: ['stdio', 'sse', 'streamable-http'], example: 'stdio' }) transport: string;
  @ApiProperty({ nullable: true, type: [String], example: ['python', 'server.py'] }) command: string[] | null;
  @ApiProperty({ nullable: true, type: String, example: null }) url: string | null;
  @ApiProperty({ type: [PackageRefDto] }) packages: PackageRefDto[];
}

export class BundleFileDto {
  @ApiProperty({ description: 'Inside the skill folder.', example: 'main.py' }) path: string;
  @ApiProperty({ type: 'integer', description: 'Bytes.', example: 2048 }) size: number;
  @ApiProperty({ example: '3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b' }) sha256: string;
  @ApiProperty({ type: 'integer', description: 'Unix permission bits.', example: 420 }) mode: number;
}

/** A version as users read it; the first nine fields are the list item of Kazma's hub. */
export class SkillVersionResponseDto {
  @ApiProperty({ example: 'kazma-hub://acme-labs/weather@1.0.0' }) id: string;
  @ApiProperty({ example: 'weather' }) name: string;
  @ApiProperty({ description: 'Namespace slug.', example: 'acme-labs' }) author: string;
  @ApiProperty({ example: 'Current weather and forecasts for a city.' }) description: string;
  @ApiProperty({ example: '1.0.0' }) version: string;
  @ApiProperty({ nullable: true, type: String, example: 'utilities' }) category: string | null;
  @ApiProperty({ type: [String], example: ['weather', 'demo'] }) tags: string[];
  @ApiProperty({ description: 'True when this version holds a valid certificate.', example: true }) certified: boolean;
  @ApiProperty({ type: 'integer', example: 42 }) downloads: number;

  @ApiProperty({ description: 'The author as the manifest wrote it.', example: 'Acme Labs' }) author_display: string;
  @ApiProperty({ enum: SKILL_FORMATS, example: 'kazma' }) format: SkillFormat;
  @ApiProperty({ nullable: true, type: String, example: 'MIT' }) license: string | null;
  @ApiProperty({ type: [String], example: ['weather.current', 'weather.forecast'] }) capabilities: string[];
  @ApiProperty({ type: [String], example: ['network'] }) permissions: string[];
  @ApiProperty({ type: [DeclaredToolDto] }) tools: DeclaredToolDto[];
  @ApiProperty({ type: [McpServerDto] }) mcp_servers: McpServerDto[];
  @ApiProperty({ nullable: true, type: String, example: 'main.py' }) entry_point: string | null;
  @ApiProperty({ example: 'skill_manifest.yaml' }) manifest_path: string;
  @ApiProperty({ example: EXAMPLE.bundleSha256 }) bundle_sha256: string;
  @ApiProperty({ type: 'integer', description: 'Bytes, compressed.', example: 4096 }) bundle_size: number;
  @ApiProperty({ type: [BundleFileDto] }) files: BundleFileDto[];
  @ApiProperty({ enum: VERSION_STATUSES, example: 'active' }) status: VersionStatus;
  @ApiProperty({ nullable: true, type: String, description: 'Why it was deprecated or yanked.', example: null })
  status_message: string | null;
  @ApiProperty({ example: EXAMPLE.publishedAt }) published_at: string;
  @ApiProperty({ type: CertificationSummaryDto }) certification: CertificationSummaryDto;
  @ApiProperty({ example: '/api/v1/skills/acme-labs/weather/versions/1.0.0/bundle' }) download_url: string;

  static from(
    v: SkillVersion,
    namespace: string,
    name: string,
    cert: CertificationSummary | null | undefined,
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
  @ApiProperty({ example: '1.0.0' }) version: string;
  @ApiProperty({ enum: VERSION_STATUSES, example: 'active' }) status: VersionStatus;
  @ApiProperty({ nullable: true, type: String, example: null }) status_message: string | null;
  @ApiProperty({ example: EXAMPLE.bundleSha256 }) bundle_sha256: string;
  @ApiProperty({ example: EXAMPLE.publishedAt }) published_at: string;
  @ApiProperty({ type: CertificationSummaryDto }) certification: CertificationSummaryDto;
}

export class SkillResponseDto {
  @ApiProperty({ example: 'kazma-hub://acme-labs/weather' }) id: string;
  @ApiProperty({ example: 'acme-labs' }) author: string;
  @ApiProperty({ example: 'weather' }) name: string;
  @ApiProperty({ example: '2025-10-01T08:00:00.000Z' }) created_at: string;
  @ApiProperty({ example: EXAMPLE.publishedAt }) updated_at: string;
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
  @ApiProperty({ example: 'acme-labs' }) author: string;
  @ApiProperty({ example: 'weather' }) name: string;
  @ApiProperty({ example: '1.0.0' }) version: string;
  @ApiProperty({ enum: SKILL_FORMATS, example: 'kazma' }) format: SkillFormat;
  @ApiProperty({ example: EXAMPLE.bundleSha256 }) bundle_sha256: string;
  @ApiProperty({ type: CertificationSummaryDto }) certification: CertificationSummaryDto;
  @ApiPropertyOptional({
    type: () => [PublishResponseDto],
    description:
      'A SwarmKit workspace (workspace.yaml at the root, skills under skills/): every skill it published, each its own version, the first also described above.',
    example: [
      {
        id: 'kazma-hub://acme-labs/say-hello@1.0.0',
        author: 'acme-labs',
        name: 'say-hello',
        version: '1.0.0',
        format: 'swarmkit',
        bundle_sha256: EXAMPLE.bundleSha256,
        certification: { status: 'pending', level: 'none' },
      },
    ],
  })
  workspace?: PublishResponseDto[];
}
