import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsRFC3339, IsString, Max, MaxLength, Min } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@skillhub/search';

/** The versions routes take only `include_deleted`, as the registry defines them. */
export class ServerVersionsQueryDto {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: 'Accepted for registry clients; this hub lists no deleted servers (a revoked one is gone).',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'include_deleted must be true or false' })
  include_deleted?: 'true' | 'false';
}

/** `GET /v0.1/servers`: the MCP Registry's list parameters. */
export class ListServersQueryDto extends ServerVersionsQueryDto {
  @ApiPropertyOptional({ description: '`metadata.nextCursor` of the previous page.', maxLength: 512 })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, example: 30 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;

  @ApiPropertyOptional({ description: 'Part of the server name, any case.', maxLength: 200, example: 'weather' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({
    description: 'Only entries updated at or after this RFC 3339 time.',
    example: '2025-08-07T13:15:04.280Z',
  })
  @IsOptional()
  @IsRFC3339({ message: 'updated_since must be an RFC 3339 date-time' })
  updated_since?: string;

  @ApiPropertyOptional({ description: '`latest`, or one exact version.', maxLength: 255, example: 'latest' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  version?: string;
}
