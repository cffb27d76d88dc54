import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { BADGE_STYLES, type BadgeStyle, MAX_BADGE_LABEL_LENGTH } from '../badge-style';

export class BadgeQueryDto {
  @ApiPropertyOptional({ description: 'A version; default: the listed (latest) version.', example: '1.0.0' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  version?: string;

  @ApiPropertyOptional({ enum: BADGE_STYLES, default: 'flat', example: 'for-the-badge' })
  @IsOptional()
  @IsIn(BADGE_STYLES)
  style?: BadgeStyle;

  @ApiPropertyOptional({
    description: `Left-hand text (at most ${MAX_BADGE_LABEL_LENGTH} characters).`,
    default: 'skill hub',
    example: 'certified by',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_BADGE_LABEL_LENGTH * 4)
  label?: string;
}
