/**
 * The MCP Registry's read shapes (`ServerList`, `ServerResponse`, `ServerDetail`, API version
 * 2025-12-01), restricted to what Skill Hub fills, with its certification under `_meta`
 * (docs/mcp-registry.md). The tests validate the answers against the registry's own documents.
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CERTIFICATE_LEVELS, type CertificateLevel } from '@skillhub/signing';
import { EXAMPLE } from '../../common/dto/api-examples';

export const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';
export const CERTIFICATION_META = 'dev.skillhub/certification';

const EXAMPLE_CERTIFICATE = 'https://hub.example.com/api/v1/skills/acme-labs/weather/versions/1.0.0/certificate';
const EXAMPLE_TOOLS = { get_forecast: EXAMPLE.bundleSha256 };
const stringMap = (description: string, example: Record<string, string>, nullable = false) =>
  ({ type: 'object', additionalProperties: { type: 'string' }, nullable, description, example }) as const;

export class StdioTransportDto {
  @ApiProperty({ enum: ['stdio'], example: 'stdio' }) type: 'stdio';
}

export class RemoteTransportDto {
  @ApiProperty({ enum: ['sse', 'streamable-http'], example: 'streamable-http' }) type: 'sse' | 'streamable-http';
  @ApiProperty({ example: 'https://mcp.example.com/mcp' }) url: string;
}

export class PackageDto {
  @ApiProperty({ enum: ['npm', 'pypi'], example: 'npm' }) registryType: 'npm' | 'pypi';
  @ApiProperty({ description: 'The registry the hub probed the pin at.', example: 'https://registry.npmjs.org' })
  registryBaseUrl: string;
  @ApiProperty({ example: '@acme/weather-mcp' }) identifier: string;
  @ApiProperty({ description: 'The exact version certificates pin.', example: '1.2.3' }) version: string;
  @ApiProperty({ enum: ['npx', 'uvx'], example: 'npx' }) runtimeHint: 'npx' | 'uvx';
  @ApiProperty({ type: StdioTransportDto }) transport: StdioTransportDto;
}

export class ServerDetailDto {
  @ApiProperty({
    description: 'Reverse-DNS name derived from the package or URL (docs/mcp-registry.md).',
    example: 'dev.skillhub.npm.acme/weather-mcp',
  })
  name: string;
  @ApiProperty({ maxLength: 100, example: '@acme/weather-mcp (npm): get_forecast' }) description: string;
  @ApiProperty({ maxLength: 100, example: '@acme/weather-mcp' }) title: string;
  @ApiProperty({ example: '1.2.3' }) version: string;
  @ApiPropertyOptional({ type: [PackageDto] }) packages?: PackageDto[];
  @ApiPropertyOptional({ type: [RemoteTransportDto] }) remotes?: RemoteTransportDto[];
}

export class OfficialMetaDto {
  @ApiProperty({ enum: ['active'], description: 'Only servers certified now are listed.', example: 'active' })
  status: 'active';
  @ApiProperty({ description: 'The first certificate that pins this version.', example: EXAMPLE.publishedAt })
  publishedAt: string;
  @ApiProperty({ description: 'The latest certificate that pins this version.', example: EXAMPLE.publishedAt })
  updatedAt: string;
  @ApiProperty({ example: true }) isLatest: boolean;
}

export class PinnedPackageDto {
  @ApiProperty({ enum: ['npm', 'pypi'], example: 'npm' }) registry: 'npm' | 'pypi';
  @ApiProperty({ example: '@acme/weather-mcp' }) name: string;
  @ApiProperty({ example: '1.2.3' }) version: string;
  @ApiProperty({ description: "npm's dist.integrity, or the PyPI file's sha256.", example: 'sha512-…' })
  integrity: string;
}

/** One certified skill version that runs the server, as its certificate lists it. */
export class CertifiedUseDto {
  @ApiProperty({ example: 'acme-labs/weather' }) skill: string;
  @ApiProperty({ example: '1.0.0' }) version: string;
  @ApiProperty({ enum: CERTIFICATE_LEVELS, example: 'standard' }) level: CertificateLevel;
  @ApiProperty({ example: EXAMPLE_CERTIFICATE }) certificate: string;
  @ApiProperty({ example: 42 }) logIndex: number;
  @ApiProperty({ example: EXAMPLE.publishedAt }) issuedAt: string;
  @ApiProperty({ example: '2026-10-21T09:30:00.000Z' }) expiresAt: string;
  @ApiProperty({ description: 'The server as the skill names it.', example: 'weather' }) server: string;
  @ApiProperty({ type: [String], example: ['npx', '-y', '@acme/weather-mcp@1.2.3'] }) argv: string[];
  @ApiProperty(stringMap('As declared; `${VAR}` is filled by the runtime.', { UNITS: 'metric' })) env: Record<
    string,
    string
  >;
  @ApiProperty(stringMap('Live tool name → tool-definition hash; null when not recorded.', EXAMPLE_TOOLS, true))
  tools: Record<string, string> | null;
}

export class CertificationMetaDto {
  @ApiProperty({ enum: ['certified'], example: 'certified' }) status: 'certified';
  @ApiProperty({
    enum: CERTIFICATE_LEVELS,
    description: 'The highest level of the skills that run it.',
    example: 'standard',
  })
  level: CertificateLevel;
  @ApiProperty({ description: 'The most recent certificate that pins it.', example: EXAMPLE_CERTIFICATE })
  certificate: string;
  @ApiProperty({ description: "That certificate's transparency-log entry.", example: 42 }) logIndex: number;
  @ApiProperty({ example: EXAMPLE.publishedAt }) issuedAt: string;
  @ApiProperty({ example: '2026-10-21T09:30:00.000Z' }) expiresAt: string;
  @ApiProperty({ type: PinnedPackageDto, nullable: true, description: 'null for a remote server.' })
  package: PinnedPackageDto | null;
  @ApiProperty({ type: String, nullable: true, description: "A remote server's URL; else null.", example: null })
  url: string | null;
  @ApiProperty(stringMap('Live tool pins of the most recent certificate; null when not recorded.', EXAMPLE_TOOLS, true))
  tools: Record<string, string> | null;
  @ApiProperty({ description: 'How many certified skill versions run it.', example: 1 }) skillCount: number;
  @ApiProperty({ type: [CertifiedUseDto], description: 'Them, the most recently certified first (at most 50).' })
  skills: CertifiedUseDto[];
}

export class ServerMetaDto {
  @ApiProperty({ name: OFFICIAL_META, type: OfficialMetaDto }) [OFFICIAL_META]: OfficialMetaDto;
  @ApiProperty({ name: CERTIFICATION_META, type: CertificationMetaDto }) [CERTIFICATION_META]: CertificationMetaDto;
}

export class ServerResponseDto {
  @ApiProperty({ type: ServerDetailDto }) server: ServerDetailDto;
  @ApiProperty({ type: ServerMetaDto }) _meta: ServerMetaDto;
}

export class ServerListMetadataDto {
  @ApiPropertyOptional({ description: 'Absent on the last page.', example: 'WyJkZXYuc2tpbGxodWIubnBtL3giLCIxLjAuMCJd' })
  nextCursor?: string;
  @ApiProperty({ example: 30 }) count: number;
}

export class ServerListDto {
  @ApiProperty({ type: [ServerResponseDto] }) servers: ServerResponseDto[];
  @ApiProperty({ type: ServerListMetadataDto }) metadata: ServerListMetadataDto;
}
