import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { VERSION_STATUSES, type VersionStatus } from '@skillhub/database';

export class UpdateVersionStatusRequestDto {
  @ApiProperty({
    enum: VERSION_STATUSES,
    description:
      'deprecated: still installable, with a warning; yanked: no longer resolved by ranges. Bytes are never deleted.',
    example: 'deprecated',
  })
  @IsIn(VERSION_STATUSES)
  status: VersionStatus;

  @ApiPropertyOptional({
    description: 'Why, shown to users.',
    maxLength: 1000,
    example: 'use 2.x: 1.x calls a retired endpoint',
  })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  message?: string;
}
