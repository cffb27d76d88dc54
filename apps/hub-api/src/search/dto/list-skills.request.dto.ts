import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@skillhub/search';
import { SKILL_FORMATS, type SkillFormat } from '@skillhub/skill-formats';

export const SORTS = ['relevance', 'name', 'updated', 'downloads', 'version'] as const;
export type SkillSort = (typeof SORTS)[number];

const csv = ({ value }: { value: unknown }) =>
  typeof value === 'string'
    ? value
        .slice(0, 2000)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : value;
const bool = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

/** Filters and paging of `GET /api/v1/skills` (Kazma's list and search, extended). */
export class ListSkillsQueryDto {
  @ApiPropertyOptional({
    description: 'Search text: quoted phrases, -exclude, or; the last word matches as a prefix.',
    example: 'weather -beta',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;

  @ApiPropertyOptional({ description: 'Comma list; every one must be declared.', example: ['weather', 'forecast'] })
  @IsOptional()
  @Transform(csv)
  @IsArray()
  @ArrayMaxSize(20)
  @MaxLength(64, { each: true })
  capabilities?: string[];

  @ApiPropertyOptional({ description: 'Comma list; any one may match.', example: ['github', 'ci'] })
  @IsOptional()
  @Transform(csv)
  @IsArray()
  @ArrayMaxSize(20)
  @MaxLength(64, { each: true })
  tags?: string[];

  @ApiPropertyOptional({ description: 'Namespace slug.', example: 'acme-labs' })
  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9-]{0,38}$/, { message: 'author must be a namespace slug' })
  author?: string;

  @ApiPropertyOptional({ example: 'utilities' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  category?: string;

  @ApiPropertyOptional({ enum: SKILL_FORMATS, example: 'kazma' })
  @IsOptional()
  @IsIn(SKILL_FORMATS)
  format?: SkillFormat;

  @ApiPropertyOptional({
    description: 'Only skills whose listed version holds a valid certificate (or only those that do not).',
    example: true,
  })
  @IsOptional()
  @Transform(bool)
  @IsBoolean({ message: 'certified must be true or false' })
  certified?: boolean;

  @ApiPropertyOptional({
    enum: SORTS,
    description: "Default: relevance with q, else name. `version` is Kazma's (newest first).",
    example: 'downloads',
  })
  @IsOptional()
  @IsIn(SORTS)
  sort?: SkillSort;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 10_000, default: 1, example: 2 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_000)
  page?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    example: 50,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  per_page?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: 'Cursor paging: page size (use instead of page/per_page).',
    example: 100,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;

  @ApiPropertyOptional({
    description: 'Cursor paging: `next_cursor` of the previous answer.',
    example: 'eyJrIjpbIndlYXRoZXIiXX0',
  })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;

  @ApiPropertyOptional({
    description: 'One item per version instead of one per skill (its latest non-yanked version).',
    example: false,
  })
  @IsOptional()
  @Transform(bool)
  @IsBoolean({ message: 'all_versions must be true or false' })
  all_versions?: boolean;
}

/** Kazma's `GET /api/v1/skills/search?q&category&certified`. */
export class KazmaSearchQueryDto {
  @ApiPropertyOptional({ description: 'Search text, as for GET /api/v1/skills.', example: 'weather' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;

  @ApiPropertyOptional({ example: 'utilities' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  category?: string;

  @ApiPropertyOptional({ example: true })
  @IsOptional()
  @Transform(bool)
  @IsBoolean({ message: 'certified must be true or false' })
  certified?: boolean;
}
