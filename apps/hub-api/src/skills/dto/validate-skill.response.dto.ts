import { ApiProperty } from '@nestjs/swagger';
import { SKILL_FORMATS, type SkillFormat } from '@skillhub/skill-formats';
import { BundleFileDto } from './skill-version.response.dto';

export class ProblemDto {
  @ApiProperty() path: string;
  @ApiProperty() message: string;
  @ApiProperty({ enum: ['error', 'warning'] }) severity: 'error' | 'warning';
}

/** A dry run's answer: what a publish would store, and every warning; nothing was written. */
export class ValidateSkillResponseDto {
  @ApiProperty() valid: true;
  @ApiProperty({ example: 'kazma-hub://acme-labs/weather@1.0.0' }) id: string;
  @ApiProperty() author: string;
  @ApiProperty() name: string;
  @ApiProperty() version: string;
  @ApiProperty({ enum: SKILL_FORMATS }) format: SkillFormat;
  @ApiProperty() bundle_sha256: string;
  @ApiProperty({ type: [BundleFileDto] }) files: BundleFileDto[];
  @ApiProperty({ type: [ProblemDto], description: 'Warnings (errors make the request fail with 4xx).' })
  problems: ProblemDto[];
  @ApiProperty({
    description: 'Whether the token sent (if any) may publish this; null without a token.',
    nullable: true,
    type: Boolean,
  })
  publishable: boolean | null;
}
