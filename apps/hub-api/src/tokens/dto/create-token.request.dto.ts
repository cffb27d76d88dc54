import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { TOKEN_SCOPES, type TokenScope } from '@skillhub/database';

export class CreateTokenRequestDto {
  @ApiPropertyOptional({
    description: 'Namespace the token may act on; created and claimed for a new publisher if unknown.',
    example: 'acme-labs',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9-]{0,38}$/, { message: 'namespace must match ^[a-z0-9][a-z0-9-]{0,38}$' })
  namespace?: string;

  @ApiPropertyOptional({
    description: 'Publisher the token belongs to (operator only; defaults to the namespace owner).',
    example: 'acme',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/, {
    message: 'publisher must be 1-100 letters, digits, spaces, dots, dashes or underscores',
  })
  publisher?: string;

  @ApiPropertyOptional({ enum: TOKEN_SCOPES, isArray: true, example: ['publish'], default: ['publish'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TOKEN_SCOPES.length)
  @IsIn(TOKEN_SCOPES, { each: true })
  scopes?: TokenScope[];

  @ApiPropertyOptional({ description: 'A label to tell tokens apart.', example: 'ci' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'Lifetime in days (1-365).', default: 90, example: 30 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(365)
  expires_in_days?: number;
}
