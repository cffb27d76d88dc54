import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Namespace, Publisher, PublisherToken, type TokenScope } from '@skillhub/registry';
import { ForbiddenError } from '../auth/auth.errors';
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
   * `tokens` scope mints tokens for its own publisher, never wider than itself.
   */
  create(principal: Principal, dto: CreateTokenRequestDto): Promise<CreatedTokenResponseDto> {
    return this.dataSource.transaction(async (m) => {
      const scopes = [...new Set<TokenScope>(dto.scopes ?? ['publish'])];
      const { publisher, namespace } =
        principal.kind === 'admin'
          ? await this.ownerForAdmin(m, dto)
          : await this.ownerForPublisher(m, principal, dto, scopes);
      const secret = generateTokenSecret();
      const token = m.create(PublisherToken, {
        publisherId: publisher.id,
        name: dto.name ?? (namespace ? `${namespace.slug} token` : `${publisher.name} token`),
        prefix: displayPrefix(secret),
        tokenHash: hashToken(secret),
        scopes,
        namespaceId: namespace?.id ?? null,
        expiresAt: new Date(Date.now() + (dto.expires_in_days ?? DEFAULT_LIFETIME_DAYS) * DAY_MS),
        revokedAt: null,
        lastUsedAt: null,
      });
      await m.save(token);
      token.publisher = publisher;
      token.namespace = namespace;
      return { ...TokenResponseDto.from(token), token: secret };
    });
  }

  async list(principal: Principal): Promise<TokenResponseDto[]> {
    const tokens = await this.dataSource.getRepository(PublisherToken).find({
      where: principal.kind === 'admin' ? {} : { publisherId: principal.publisherId },
      relations: { namespace: true, publisher: true },
      order: { createdAt: 'DESC' },
      take: 1000,
    });
    return tokens.map((t) => TokenResponseDto.from(t));
  }

  /** Revokes a token: the operator any, a token itself, a `tokens`-scoped token its publisher's. */
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
          (principal.publisherId === token.publisherId && principal.scopes.includes('tokens')));
      if (!token || !allowed) throw new TokenNotFoundError(id);
      if (!token.revokedAt) {
        token.revokedAt = new Date();
        await m.update(PublisherToken, token.id, { revokedAt: token.revokedAt });
      }
      return TokenResponseDto.from(token);
    });
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
    principal: Extract<Principal, { kind: 'token' }>,
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
