import { ApiProperty } from '@nestjs/swagger';
import { TOKEN_SCOPES, type PublisherToken, type TokenScope } from '@skillhub/database';
import { EXAMPLE } from '../../common/dto/api-examples';

export class TokenResponseDto {
  @ApiProperty({ example: EXAMPLE.tokenId }) id: string;
  @ApiProperty({ example: 'ci' }) name: string;
  @ApiProperty({ description: 'The first characters of the secret, to tell tokens apart.', example: 'shp_Ab3dE7gH' })
  prefix: string;
  @ApiProperty({ enum: TOKEN_SCOPES, isArray: true, example: ['publish', 'manage'] }) scopes: TokenScope[];
  @ApiProperty({ nullable: true, type: String, description: 'The namespace it is bound to.', example: 'acme-labs' })
  namespace: string | null;
  @ApiProperty({ example: 'acme' }) publisher: string;
  @ApiProperty({ nullable: true, type: String, example: '2026-01-19T09:30:00.000Z' }) expires_at: string | null;
  @ApiProperty({ nullable: true, type: String, example: null }) revoked_at: string | null;
  @ApiProperty({ nullable: true, type: String, example: '2025-10-21T10:02:11.000Z' }) last_used_at: string | null;
  @ApiProperty({ example: EXAMPLE.publishedAt }) created_at: string;

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
  @ApiProperty({
    description: 'The secret. Shown once: the hub keeps only its SHA-256.',
    example: 'shp_Ab3dE7gH9kLmN2pQ4rStU6vWxY8zA1bC3dE5fG7hJ9k',
  })
  token: string;
}
