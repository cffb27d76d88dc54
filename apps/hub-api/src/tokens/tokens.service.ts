import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type FindOptionsWhere } from 'typeorm';
import { Namespace, Publisher, PublisherToken, type TokenScope } from '@skillhub/database';
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
  constructor(private readonly dataSource: DataSource) {}

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
      const token = m.create(PublisherToken, {
        publisherId: publisher.id,
        name: dto.name ?? (namespace ? `${namespace.slug} token` : `${publisher.name} token`),
        prefix: displayPrefix(secret),
        tokenHash: hashToken(secret),
        scopes,
        namespaceId: namespace?.id ?? null,
        parentId: parent?.id ?? null,
        expiresAt: parent?.expiresAt && parent.expiresAt < asked ? parent.expiresAt : asked,
        revokedAt: null,
        lastUsedAt: null,
      });
      await m.save(token);
      token.publisher = publisher;
      token.namespace = namespace;
      return { ...TokenResponseDto.from(token), token: secret };
    });
  }

  /** The operator sees every token; a publisher's token its publisher's, or only its namespace's when bound to one. */
  async list(principal: Principal): Promise<TokenResponseDto[]> {
    const tokens = await this.dataSource.getRepository(PublisherToken).find({
      where: principal.kind === 'admin' ? {} : visibleTo(principal),
      relations: { namespace: true, publisher: true },
      order: { createdAt: 'DESC' },
      take: 1000,
    });
    return tokens.map((t) => TokenResponseDto.from(t));
  }

  /**
   * Revokes a token and every token it made, transitively: the operator any, a token itself, a
   * `tokens`-scoped token those it can see (its publisher's, or its namespace's when bound to one).
   */
  async revoke(principal: Principal, id: string): Promise<TokenResponseDto> {
    return this.dataSource.transaction(async (m) => {
      const token = await m.findOne(PublisherToken, {
        where: { id },
        relations: { namespace: true, publisher: true },
        lock: { mode: 'pessimistic_write', tables: ['publisher_tokens'] },
      });
      const allowed =
        token &&
        (principal.kind === 'admin' ||
          principal.tokenId === id ||
          (principal.scopes.includes('tokens') && isVisibleTo(token, principal)));
      if (!token || !allowed) throw new TokenNotFoundError(id);
      token.revokedAt ??= new Date();
      await m.update(PublisherToken, token.id, { revokedAt: token.revokedAt });
      await this.revokeDescendants(m, token.id, token.revokedAt);
      return TokenResponseDto.from(token);
    });
  }

  /**
   * The calling token, locked against a concurrent revocation: a token revoked (or expired) since
   * it was authenticated makes nothing. The share lock makes `revoke` wait for this transaction,
   * so the child it creates is seen, and revoked, by the revocation.
   */
  private async lockLiveParent(m: EntityManager, tokenId: string): Promise<PublisherToken> {
    const parent = await m.findOne(PublisherToken, {
      where: { id: tokenId },
      lock: { mode: 'pessimistic_read', tables: ['publisher_tokens'] },
    });
    if (!parent || parent.revokedAt) throw new InvalidTokenError('revoked');
    if (parent.expiresAt && parent.expiresAt.getTime() <= Date.now()) throw new InvalidTokenError('expired');
    return parent;
  }

  /**
   * One generation per statement, so each sees the rows committed before it: a child created
   * while the revocation waited on its parent's lock is found by the next generation's query.
   */
  private async revokeDescendants(m: EntityManager, rootId: string, revokedAt: Date): Promise<void> {
    let generation = [rootId];
    while (generation.length) {
      const [rows] = (await m.query(
        `UPDATE "publisher_tokens" SET "revoked_at" = COALESCE("revoked_at", $2)
         WHERE "parent_id" = ANY($1::uuid[]) RETURNING "id"`,
        [generation, revokedAt],
      )) as [Array<{ id: string }>, number];
      generation = rows.map((row) => row.id);
    }
  }

  private async ownerForAdmin(m: EntityManager, dto: CreateTokenRequestDto) {
    if (dto.namespace) {
      const existing = await m.findOne(Namespace, { where: { slug: dto.namespace }, relations: { owner: true } });
      if (existing) return { publisher: existing.owner!, namespace: existing };
      const publisher = await this.findOrCreatePublisher(m, dto.publisher ?? dto.namespace);
      await m
        .createQueryBuilder()
        .insert()
        .into(Namespace)
        .values({ slug: dto.namespace, ownerId: publisher.id })
        .orIgnore()
        .execute();
      const namespace = await m.findOneByOrFail(Namespace, { slug: dto.namespace });
      if (namespace.ownerId !== publisher.id)
        throw new ForbiddenError(`Namespace "${dto.namespace}" was just claimed by another publisher.`);
      return { publisher, namespace };
    }
    if (!dto.publisher) throw new PublisherRequiredError();
    return { publisher: await this.findOrCreatePublisher(m, dto.publisher), namespace: null };
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
    const publisher = await m.findOneByOrFail(Publisher, { id: principal.publisherId });
    if (!dto.namespace) {
      if (principal.namespaceId)
        throw new ForbiddenError('A namespace-bound token can only create tokens for its namespace.');
      return { publisher, namespace: null };
    }
    const namespace = await m.findOneBy(Namespace, { slug: dto.namespace });
    const mayUse =
      namespace?.ownerId === publisher.id && (!principal.namespaceId || principal.namespaceId === namespace.id);
    if (!namespace || !mayUse) throw new ForbiddenError(`Namespace "${dto.namespace}" is not yours.`);
    return { publisher, namespace };
  }

  private async findOrCreatePublisher(m: EntityManager, name: string): Promise<Publisher> {
    await m.createQueryBuilder().insert().into(Publisher).values({ name }).orIgnore().execute();
    return m.findOneByOrFail(Publisher, { name });
  }
}

type TokenPrincipal = Extract<Principal, { kind: 'token' }>;

/** The tokens a publisher's token may see: its publisher's, narrowed to its namespace when it is bound to one. */
const visibleTo = (principal: TokenPrincipal): FindOptionsWhere<PublisherToken> =>
  principal.namespaceId
    ? { publisherId: principal.publisherId, namespaceId: principal.namespaceId }
    : { publisherId: principal.publisherId };

const isVisibleTo = (token: PublisherToken, principal: TokenPrincipal): boolean =>
  token.publisherId === principal.publisherId &&
  (!principal.namespaceId || token.namespaceId === principal.namespaceId);
