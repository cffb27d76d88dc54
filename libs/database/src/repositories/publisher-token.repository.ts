/** Publishers' API tokens: found by the hash of their secret, made, listed and revoked with what they made. */
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { PublisherToken } from '../entities/publisher-token.entity';

/** What creating a token stores; the secret itself never is. */
export type NewToken = Pick<
  PublisherToken,
  'publisherId' | 'name' | 'prefix' | 'tokenHash' | 'scopes' | 'namespaceId' | 'parentId' | 'expiresAt'
>;

/** The most tokens a list returns. */
const MAX_LISTED = 1000;

@Injectable()
export class PublisherTokenRepository {
  constructor(private readonly dataSource: DataSource) {}

  byHash(tokenHash: string): Promise<PublisherToken | null> {
    return this.dataSource.manager.findOneBy(PublisherToken, { tokenHash });
  }

  /** With its publisher and bound namespace loaded. */
  withOwner(id: string): Promise<PublisherToken | null> {
    return this.dataSource.manager.findOne(PublisherToken, {
      where: { id },
      relations: { publisher: true, namespace: true },
    });
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.dataSource.manager.update(PublisherToken, id, { lastUsedAt: at });
  }

  async add(m: EntityManager, token: NewToken): Promise<PublisherToken> {
    const row = m.create(PublisherToken, { ...token, revokedAt: null, lastUsedAt: null });
    await m.save(row);
    return row;
  }

  /**
   * Newest first, with namespace and publisher loaded: every token (`owner` null), or a
   * publisher's, narrowed to one namespace's when `owner.namespaceId` is set.
   */
  list(owner: { publisherId: string; namespaceId: string | null } | null): Promise<PublisherToken[]> {
    return this.dataSource.manager.find(PublisherToken, {
      where: !owner
        ? {}
        : owner.namespaceId
          ? { publisherId: owner.publisherId, namespaceId: owner.namespaceId }
          : { publisherId: owner.publisherId },
      relations: { namespace: true, publisher: true },
      order: { createdAt: 'DESC' },
      take: MAX_LISTED,
    });
  }

  /**
   * The token, share-locked: a revocation of it waits for the caller's transaction, so what the
   * caller creates from it is seen, and revoked, by that revocation.
   */
  shareLock(m: EntityManager, id: string): Promise<PublisherToken | null> {
    return m.findOne(PublisherToken, {
      where: { id },
      lock: { mode: 'pessimistic_read', tables: ['publisher_tokens'] },
    });
  }

  /** The token with its namespace and publisher, locked for revoking. */
  lockForRevoke(m: EntityManager, id: string): Promise<PublisherToken | null> {
    return m.findOne(PublisherToken, {
      where: { id },
      relations: { namespace: true, publisher: true },
      lock: { mode: 'pessimistic_write', tables: ['publisher_tokens'] },
    });
  }

  /**
   * Revokes the token and everything it made, transitively (a descendant revoked earlier keeps
   * its time). One generation per statement, so each sees the rows committed before it: a child
   * created while the revocation waited on its parent's lock is found by the next generation.
   */
  async revokeWithDescendants(m: EntityManager, id: string, revokedAt: Date): Promise<void> {
    await m.update(PublisherToken, id, { revokedAt });
    let generation = [id];
    while (generation.length) {
      const [rows] = (await m.query(
        `UPDATE "publisher_tokens" SET "revoked_at" = COALESCE("revoked_at", $2)
         WHERE "parent_id" = ANY($1::uuid[]) RETURNING "id"`,
        [generation, revokedAt],
      )) as [Array<{ id: string }>, number];
      generation = rows.map((row) => row.id);
    }
  }
}
