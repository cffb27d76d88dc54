import { Injectable } from '@nestjs/common';
import { NamespaceRepository, PublisherTokenRepository, TOKEN_SCOPES } from '@skillhub/database';
import { InvalidTokenError } from '../auth/auth.errors';
import type { Principal } from '../auth/principal';
import type { WhoamiResponseDto } from './dto/whoami.response.dto';

/** The most namespaces `whoami` lists. */
const MAX_NAMESPACES = 100;

/** `GET /api/v1/whoami`: what `skillhub login` checks a token against before storing it. */
@Injectable()
export class WhoamiService {
  constructor(
    private readonly tokens: PublisherTokenRepository,
    private readonly namespaces: NamespaceRepository,
  ) {}

  async whoami(principal: Principal): Promise<WhoamiResponseDto> {
    if (principal.kind === 'admin') {
      return {
        kind: 'admin',
        publisher: null,
        token_id: null,
        token_name: null,
        scopes: [...TOKEN_SCOPES],
        bound_namespace: null,
        namespaces: [],
        expires_at: null,
      };
    }
    const token = await this.tokens.withOwner(principal.tokenId);
    // Authenticated a moment ago; gone only when the publisher was deleted in between.
    if (!token) throw new InvalidTokenError('unknown');
    return {
      kind: 'token',
      publisher: token.publisher?.name ?? token.publisherId,
      token_id: token.id,
      token_name: token.name,
      scopes: token.scopes,
      bound_namespace: token.namespace?.slug ?? null,
      namespaces: (
        await this.namespaces.ownedBy(token.publisherId, { onlyId: token.namespaceId, limit: MAX_NAMESPACES })
      ).map(({ slug, hasKazmaSecret }) => ({ slug, kazma_secret: hasKazmaSecret })),
      expires_at: token.expiresAt?.toISOString() ?? null,
    };
  }
}
