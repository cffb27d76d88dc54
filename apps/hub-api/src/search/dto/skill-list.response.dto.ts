import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CERTIFICATION_LEVELS, type CertificationLevel } from '@skillhub/database';
import { SKILL_FORMATS, type SkillFormat } from '@skillhub/skill-formats';

/** Kazma's list item (`id … downloads`) plus what a richer client shows. */
export class SkillListItemDto {
  @ApiProperty({ example: 'kazma-hub://acme-labs/weather@1.0.0' }) id: string;
  @ApiProperty({ example: 'weather' }) name: string;
  @ApiProperty({ description: 'Namespace slug.', example: 'acme-labs' }) author: string;
  @ApiProperty({ example: 'Current weather and forecasts for a city.' }) description: string;
  @ApiProperty({ example: '1.0.0' }) version: string;
  @ApiProperty({ nullable: true, type: String, example: 'utilities' }) category: string | null;
  @ApiProperty({ type: [String], example: ['weather', 'demo'] }) tags: string[];
  @ApiProperty({ example: true }) certified: boolean;
  @ApiProperty({ type: 'integer', example: 42 }) downloads: number;
  @ApiProperty({ type: [String], example: ['weather.current', 'weather.forecast'] }) capabilities: string[];
  @ApiProperty({ enum: SKILL_FORMATS, example: 'kazma' }) format: SkillFormat;
  @ApiProperty({ enum: CERTIFICATION_LEVELS, example: 'standard' }) certification_level: CertificationLevel;
  @ApiProperty({ example: '2025-10-21T09:30:00.000Z' }) updated_at: string;
}

const TOTAL_DESCRIPTION =
  'Matches in all pages: exact up to 300 (and at any count for a one-word search without filters, or when the full-text index holds few enough candidates to be read whole, as for most phrases), above that an estimate (then `total_is_estimate` is true). When more than 300 match, relevance ranks the best 300 by static score (certified level, downloads, recency) and the best 100 name matches, and its pages end there; other sorts page through every match.';
const TOTAL_IS_ESTIMATE_DESCRIPTION =
  'Present, and true, only when more than 300 items match and `total` is an estimate rather than a count.';

export class SkillListResponseDto {
  @ApiProperty({ type: [SkillListItemDto] }) items: SkillListItemDto[];
  @ApiProperty({ type: 'integer', description: TOTAL_DESCRIPTION, example: 1 }) total: number;
  @ApiPropertyOptional({ description: TOTAL_IS_ESTIMATE_DESCRIPTION, enum: [true], example: true })
  total_is_estimate?: true;
  @ApiPropertyOptional({ type: 'integer', description: 'Page paging.', example: 1 }) page?: number;
  @ApiPropertyOptional({ type: 'integer', description: 'Page paging.', example: 20 }) per_page?: number;
  @ApiPropertyOptional({
    description: 'Cursor paging: pass as `cursor` for the next items; null at the end.',
    nullable: true,
    type: String,
    example: 'eyJrIjpbIndlYXRoZXIiXX0',
  })
  next_cursor?: string | null;
}

export class KazmaSearchResponseDto {
  @ApiProperty({ type: [SkillListItemDto] }) items: SkillListItemDto[];
  @ApiProperty({ type: 'integer', description: TOTAL_DESCRIPTION, example: 1 }) total: number;
  @ApiPropertyOptional({ description: TOTAL_IS_ESTIMATE_DESCRIPTION, enum: [true], example: true })
  total_is_estimate?: true;
  @ApiProperty({ description: 'The search text, as sent (empty when none).', example: 'weather' }) query: string;
}

export class StatsResponseDto {
  @ApiProperty({ type: 'integer', description: 'Skills with at least one version not yanked.', example: 12 })
  total_skills: number;
  @ApiProperty({ type: 'integer', description: 'Of those, the ones whose listed version is certified.', example: 9 })
  certified_count: number;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, example: { utilities: 7, devops: 5 } })
  by_category: Record<string, number>;
}
