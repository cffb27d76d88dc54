import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TOKEN_SCOPES, type PublisherToken, type TokenScope } from '@skillhub/database';

export class TokenResponseDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The first characters of the secret, to tell tokens apart.', example: 'shp_Ab3dE7gH' })
  prefix: string;
  @ApiProperty({ enum: TOKEN_SCOPES, isArray: true }) scopes: TokenScope[];
  @ApiProperty({ nullable: true, type: String }) namespace: string | null;
  @ApiProperty() publisher: string;
  @ApiProperty({ nullable: true, type: String }) expires_at: string | null;
  @ApiProperty({ nullable: true, type: String }) revoked_at: string | null;
  @ApiProperty({ nullable: true, type: String }) last_used_at: string | null;
  @ApiProperty() created_at: string;

  static from(t: PublisherToken): TokenResponseDto {
    return {
      id: t.id,
      name: t.name,
      prefix: t.prefix,
      scopes: t.scopes,
      namespace: t.namespace?.slug ?? null,
      publisher: t.publisher?.name ?? t.publisherId,
      expires_at: t.expiresAt?.toISOString() ?? null,
      revoked_at: t.revokedAt?.toISOString() ?? null,
      last_used_at: t.lastUsedAt?.toISOString() ?? null,
      created_at: t.createdAt.toISOString(),
    };
  }
}

export class CreatedTokenResponseDto extends TokenResponseDto {
  @ApiPropertyOptional({ description: 'The secret. Shown once: the hub keeps only its SHA-256.' })
  token: string;
}
