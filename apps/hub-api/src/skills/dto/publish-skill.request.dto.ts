import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** Query parameters of a publish or validate request: what a bundle's files may not say. */
export class PublishSkillQueryDto {
  @ApiPropertyOptional({
    description: "Namespace for formats without an author (Agent Skills, SwarmKit); defaults to the token's namespace.",
    example: 'acme-labs',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9-]{0,38}$/, { message: 'namespace must match ^[a-z0-9][a-z0-9-]{0,38}$' })
  namespace?: string;

  @ApiPropertyOptional({
    description: "Version for formats without one (Agent Skills); must equal the manifest's where it has one.",
    example: '1.0.0',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  version?: string;
}
