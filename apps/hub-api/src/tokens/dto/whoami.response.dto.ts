import { ApiProperty } from '@nestjs/swagger';
import { TOKEN_SCOPES, type TokenScope } from '@skillhub/database';
import { EXAMPLE } from '../../common/dto/api-examples';

/** A namespace the caller acts for (publishes to, with the publish scope), and whether the hub can verify its Kazma signatures (C4). */
export class WhoamiNamespaceDto {
  @ApiProperty({ example: 'acme-labs' }) slug: string;
  @ApiProperty({
    description:
      'Whether the namespace registered a Kazma secret (PUT /api/v1/namespaces/{slug}/kazma-secret); without one, ' +
      "a signed Kazma skill fails C4.no-secret unless the hub's own secret signed it.",
    example: true,
  })
  kazma_secret: boolean;
}

/** Who the bearer token is: the operator, or a publisher's token with its scopes and namespaces. */
export class WhoamiResponseDto {
  @ApiProperty({ enum: ['admin', 'token'], example: 'token', description: '`admin`: the operator (HUB_ADMIN_TOKEN).' })
  kind: 'admin' | 'token';
  @ApiProperty({ nullable: true, type: String, example: 'acme', description: 'Null for the operator.' })
  publisher: string | null;
  @ApiProperty({ nullable: true, type: String, example: EXAMPLE.tokenId, description: 'Null for the operator.' })
  token_id: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'ci' }) token_name: string | null;
  @ApiProperty({ enum: TOKEN_SCOPES, isArray: true, example: ['publish', 'manage'] }) scopes: TokenScope[];
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'acme-labs',
    description: 'The one namespace the token is bound to; null when it acts for all its publisher’s.',
  })
  bound_namespace: string | null;
  @ApiProperty({
    type: [WhoamiNamespaceDto],
    description:
      'The namespaces it acts for now (its publisher’s, or the bound one; at most 100, by slug). The operator acts for every namespace, listed as none.',
  })
  namespaces: WhoamiNamespaceDto[];
  @ApiProperty({ nullable: true, type: String, example: '2026-01-19T09:30:00.000Z' }) expires_at: string | null;
}
