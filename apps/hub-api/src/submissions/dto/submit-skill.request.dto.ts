import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';

/** Exactly what Kazma's `kazma hub submit` sends. */
export class SubmitSkillRequestDto {
  @ApiProperty({ description: 'The parsed skill_manifest.yaml.', type: 'object', additionalProperties: true })
  @IsObject()
  manifest: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Where the source lives.' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @IsUrl({ protocols: ['http', 'https', 'git', 'ssh'], require_tld: false }, { message: 'source_url must be a URL' })
  source_url?: string;

  @ApiPropertyOptional({ description: "The submitter's self-declared id (not authenticated)." })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  submitter_id?: string;
}
