import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  NamespaceRepository,
  PublisherTokenRepository,
  type PublisherToken,
  type TokenScope,
} from '@skillhub/database';
import { ForbiddenError, InvalidTokenError } from '../auth/auth.errors';
import type { Principal } from '../auth/principal';
import { displayPrefix, generateTokenSecret, hashToken } from '../auth/token-secret';
import type { CreateTokenRequestDto } from './dto/create-token.request.dto';
import { CreatedTokenResponseDto, TokenResponseDto } from './dto/token.response.dto';
import { PublisherRequiredError, TokenNotFoundError } from './tokens.errors';

const DEFAULT_LIFETIME_DAYS = 90;
const DAY_MS = 24 * 3600 * 1000;

@Injectable()
export class TokensService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly tokens: PublisherTokenRepository,
    private readonly namespaces: NamespaceRepository,
  ) {}

  /**
   * The operator mints tokens for any namespace (creating and claiming it for a new
   * publisher when it is unknown) or publisher; a publisher's token with the
   * `tokens` scope mints tokens for its own publisher, never wider than itself and never
   * outliving itself: the child's expiry is capped at its parent's.
   */
  create(principal: Principal, dto: CreateTokenRequestDto): Promise<CreatedTokenResponseDto> {
    return this.dataSource.transaction(async (m) => {
      const scopes = [...new Set<TokenScope>(dto.scopes ?? ['publish'])];
      const parent = principal.kind === 'admin' ? null : await this.lockLiveParent(m, principal.tokenId);
      const { publisher, namespace } =
        principal.kind === 'admin'
          ? await this.ownerForAdmin(m, dto)
          : await this.ownerForPublisher(m, principal, dto, scopes);
      const asked = new Date(Date.now() + (dto.expires_in_days ?? DEFAULT_LIFETIME_DAYS) * DAY_MS);
      const secret = generateTokenSecret();
      const token = await this.tokens.add(m, {
        publisherId: publisher.id,
        name: dto.name ?? (namespace ? `${namespace.slug} token` : `${publisher.name} token`),
        prefix: displayPrefix(secret),
        tokenHash: hashToken(secret),
        scopes,
        namespaceId: namespace?.id ?? null,
        parentId: parent?.id ?? null,
        expiresAt: parent?.expiresAt && parent.expiresAt < asked ? parent.expiresAt : asked,
      });
      token.publisher = publisher;
      token.namespace = namespace;
      return { ...TokenResponseDto.from(token), token: secret };
    });
  }

  /** The operator sees every token; a publisher's token its publisher's, or only its namespace's when bound to one. */
  async list(principal: Principal): Promise<TokenResponseDto[]> {
    const tokens = await this.tokens.list(principal.kind === 'admin' ? null : principal);
    return tokens.map((t) => TokenResponseDto.from(t));
  }

  /**
   * Revokes a token and every token it made, transitively: the operator any, a token itself, a
   * `tokens`-scoped token those it can see (its publisher's, or its namespace's when bound to one).
   */
  async revoke(principal: Principal, id: string): Promise<TokenResponseDto> {
    return this.dataSource.transaction(async (m) => {
      const token = await this.tokens.lockForRevoke(m, id);
      const allowed =
        token &&
        (principal.kind === 'admin' ||
          principal.tokenId === id ||
          (principal.scopes.includes('tokens') && isVisibleTo(token, principal)));
      if (!token || !allowed) throw new TokenNotFoundError(id);
      token.revokedAt ??= new Date();
      await this.tokens.revokeWithDescendants(m, token.id, token.revokedAt);
      return TokenResponseDto.from(token);
    });
  }

  /**
   * The calling token, locked against a concurrent revocation: a token revoked (or expired) since
   * it was authenticated makes nothing, and a revocation of it waits for this transaction.
   */
  private async lockLiveParent(m: EntityManager, tokenId: string): Promise<PublisherToken> {
    const parent = await this.tokens.shareLock(m, tokenId);
    if (!parent || parent.revokedAt) throw new InvalidTokenError('revoked');
    if (parent.expiresAt && parent.expiresAt.getTime() <= Date.now()) throw new InvalidTokenError('expired');
    return parent;
  }

  private async ownerForAdmin(m: EntityManager, dto: CreateTokenRequestDto) {
    if (dto.namespace) {
      const existing = await this.namespaces.withOwner(m, dto.namespace);
      if (existing) return { publisher: existing.owner!, namespace: existing };
      const publisher = await this.namespaces.publisherNamed(m, dto.publisher ?? dto.namespace);
      const namespace = await this.namespaces.claim(m, dto.namespace, publisher.id);
      if (namespace.ownerId !== publisher.id)
        throw new ForbiddenError(`Namespace "${dto.namespace}" was just claimed by another publisher.`);
      return { publisher, namespace };
    }
    if (!dto.publisher) throw new PublisherRequiredError();
    return { publisher: await this.namespaces.publisherNamed(m, dto.publisher), namespace: null };
  }

  private async ownerForPublisher(
    m: EntityManager,
    principal: TokenPrincipal,
    dto: CreateTokenRequestDto,
    scopes: TokenScope[],
  ) {
    if (!principal.scopes.includes('tokens')) throw new ForbiddenError('This token lacks the "tokens" scope.');
    const wider = scopes.filter((s) => !principal.scopes.includes(s));
    if (wider.length) throw new ForbiddenError(`A token cannot grant scopes it does not hold: ${wider.join(', ')}.`);
    if (dto.publisher) throw new ForbiddenError('Only the operator can create tokens for another publisher.');
    const publisher = await this.namespaces.publisherById(m, principal.publisherId);
    if (!dto.namespace) {
      if (principal.namespaceId)
        throw new ForbiddenError('A namespace-bound token can only create tokens for its namespace.');
      return { publisher, namespace: null };
    }
    const namespace = await this.namespaces.bySlug(dto.namespace, m);
    const mayUse =
      namespace?.ownerId === publisher.id && (!principal.namespaceId || principal.namespaceId === namespace.id);
    if (!namespace || !mayUse) throw new ForbiddenError(`Namespace "${dto.namespace}" is not yours.`);
    return { publisher, namespace };
  }
}

type TokenPrincipal = Extract<Principal, { kind: 'token' }>;

/** The tokens a publisher's token may see: its publisher's, narrowed to its namespace when it is bound to one. */
const isVisibleTo = (token: PublisherToken, principal: TokenPrincipal): boolean =>
  token.publisherId === principal.publisherId &&
  (!principal.namespaceId || token.namespaceId === principal.namespaceId);
