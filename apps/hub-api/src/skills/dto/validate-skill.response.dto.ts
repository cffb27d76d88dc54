import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SKILL_FORMATS, type SkillFormat } from '@skillhub/skill-formats';
import { FieldProblemDto } from '../../common/dto/problem.response.dto';
import { BundleFileDto } from './skill-version.response.dto';
import { EXAMPLE } from '../../common/dto/api-examples';

/** A dry run's answer: what a publish would store, and every warning; nothing was written. */
export class ValidateSkillResponseDto {
  @ApiProperty({ enum: [true], example: true }) valid: true;
  @ApiProperty({ example: 'kazma-hub://acme-labs/weather@1.0.0' }) id: string;
  @ApiProperty({ example: 'acme-labs' }) author: string;
  @ApiProperty({ example: 'weather' }) name: string;
  @ApiProperty({ example: '1.0.0' }) version: string;
  @ApiProperty({ enum: SKILL_FORMATS, example: 'kazma' }) format: SkillFormat;
  @ApiProperty({ example: EXAMPLE.bundleSha256 }) bundle_sha256: string;
  @ApiProperty({ type: [BundleFileDto] }) files: BundleFileDto[];
  @ApiProperty({ type: [FieldProblemDto], description: 'Warnings (errors make the request fail with 4xx).' })
  problems: FieldProblemDto[];
  @ApiProperty({
    description: 'Whether the token sent (if any) may publish this; null without a token.',
    nullable: true,
    type: Boolean,
    example: true,
  })
  publishable: boolean | null;
  @ApiPropertyOptional({
    type: [String],
    description: 'A SwarmKit workspace: the id of every skill it would publish (the first is described above).',
    example: ['kazma-hub://acme-labs/say-hello@1.0.0', 'kazma-hub://acme-labs/summarise@1.0.0'],
  })
  workspace?: string[];
}
