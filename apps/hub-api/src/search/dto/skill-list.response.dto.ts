import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CERTIFICATION_LEVELS, type CertificationLevel } from '@skillhub/database';
import { SKILL_FORMATS, type SkillFormat } from '@skillhub/skill-formats';

/** Kazma's list item (`id … downloads`) plus what a richer client shows. */
export class SkillListItemDto {
  @ApiProperty({ example: 'kazma-hub://acme-labs/weather@1.0.0' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Namespace slug.' }) author: string;
  @ApiProperty() description: string;
  @ApiProperty() version: string;
  @ApiProperty({ nullable: true, type: String }) category: string | null;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty() certified: boolean;
  @ApiProperty() downloads: number;
  @ApiProperty({ type: [String] }) capabilities: string[];
  @ApiProperty({ enum: SKILL_FORMATS }) format: SkillFormat;
  @ApiProperty({ enum: CERTIFICATION_LEVELS }) certification_level: CertificationLevel;
  @ApiProperty() updated_at: string;
}

export class SkillListResponseDto {
  @ApiProperty({ type: [SkillListItemDto] }) items: SkillListItemDto[];
  @ApiProperty() total: number;
  @ApiPropertyOptional({ description: 'Page paging.' }) page?: number;
  @ApiPropertyOptional({ description: 'Page paging.' }) per_page?: number;
  @ApiPropertyOptional({
    description: 'Cursor paging: pass as `cursor` for the next items; null at the end.',
    nullable: true,
    type: String,
  })
  next_cursor?: string | null;
}

export class KazmaSearchResponseDto {
  @ApiProperty({ type: [SkillListItemDto] }) items: SkillListItemDto[];
  @ApiProperty() total: number;
  @ApiProperty() query: string;
}

export class StatsResponseDto {
  @ApiProperty({ description: 'Skills with at least one version not yanked.' }) total_skills: number;
  @ApiProperty({ description: 'Of those, the ones whose listed version is certified.' }) certified_count: number;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' }, example: { utilities: 12 } })
  by_category: Record<string, number>;
}
