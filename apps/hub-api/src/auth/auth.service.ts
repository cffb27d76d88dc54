import { Inject, Injectable } from '@nestjs/common';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { PublisherTokenRepository } from '@skillhub/database';
import { AuthRequiredError, ForbiddenError, InvalidTokenError } from './auth.errors';
import { hasScope, type Principal } from './principal';
import { hashToken, secretsEqual } from './token-secret';
import type { TokenScope } from '@skillhub/database';

/** `last_used_at` is refreshed at most this often, so reads do not write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

@Injectable()
export class AuthService {
  constructor(
    private readonly tokens: PublisherTokenRepository,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  /** Resolves an `Authorization` header to a principal; null when the header is absent. */
  async authenticate(header: string | undefined): Promise<Principal | null> {
    if (!header) return null;
    const match = /^Bearer\s+(\S{1,200})$/i.exec(header.trim());
    if (!match) throw new InvalidTokenError('unknown');
    const secret = match[1]!;
    const admin = this.config.HUB_ADMIN_TOKEN;
    if (admin && secretsEqual(secret, admin)) return { kind: 'admin' };

    const token = await this.tokens.byHash(hashToken(secret));
    if (!token) throw new InvalidTokenError('unknown');
    if (token.revokedAt) throw new InvalidTokenError('revoked');
    const now = Date.now();
    if (token.expiresAt && token.expiresAt.getTime() <= now) throw new InvalidTokenError('expired');
    if (!token.lastUsedAt || now - token.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      await this.tokens.touch(token.id, new Date(now));
    }
    return {
      kind: 'token',
      tokenId: token.id,
      publisherId: token.publisherId,
      scopes: token.scopes,
      namespaceId: token.namespaceId,
    };
  }

  /** Like `authenticate`, but a missing header or scope is an error. */
  async require(header: string | undefined, scope?: TokenScope): Promise<Principal> {
    const principal = await this.authenticate(header);
    if (!principal) throw new AuthRequiredError();
    if (scope && !hasScope(principal, scope)) throw new ForbiddenError(`This token lacks the "${scope}" scope.`);
    return principal;
  }
}
