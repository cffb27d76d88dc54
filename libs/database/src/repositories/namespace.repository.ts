/** Namespaces (an author's slug, its owner and its sealed Kazma secret) and the publishers who own them. */
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Namespace } from '../entities/namespace.entity';
import { Publisher } from '../entities/publisher.entity';

@Injectable()
export class NamespaceRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** `lock` takes the row until the caller's transaction ends. */
  bySlug(slug: string, m: EntityManager = this.dataSource.manager, lock = false): Promise<Namespace | null> {
    return m.findOne(Namespace, { where: { slug }, ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  byId(id: string): Promise<Namespace | null> {
    return this.dataSource.manager.findOneBy(Namespace, { id });
  }

  /** With its owner loaded. */
  withOwner(m: EntityManager, slug: string): Promise<Namespace | null> {
    return m.findOne(Namespace, { where: { slug }, relations: { owner: true } });
  }

  exists(slug: string): Promise<boolean> {
    return this.dataSource.manager.existsBy(Namespace, { slug });
  }

  /** Claims `slug` for `ownerId` unless someone has it; returns the namespace, whoever owns it. */
  async claim(m: EntityManager, slug: string, ownerId: string): Promise<Namespace> {
    await m.createQueryBuilder().insert().into(Namespace).values({ slug, ownerId }).orIgnore().execute();
    return m.findOneByOrFail(Namespace, { slug });
  }

  /** The namespace with its sealed Kazma secret, which no other read selects. */
  withSecret(id: string): Promise<Namespace> {
    return this.dataSource
      .getRepository(Namespace)
      .createQueryBuilder('n')
      .addSelect('n.kazmaSecretSealed')
      .where('n.id = :id', { id })
      .getOneOrFail();
  }

  /**
   * The slugs `ownerId` owns (only `onlyId` when given: a token bound to one namespace), in order,
   * at most `limit`, with whether each has a Kazma secret (never the secret).
   */
  async ownedBy(
    ownerId: string,
    { onlyId, limit }: { onlyId: string | null; limit: number },
  ): Promise<Array<{ slug: string; hasKazmaSecret: boolean }>> {
    const query = this.dataSource
      .getRepository(Namespace)
      .createQueryBuilder('n')
      .select('n.slug', 'slug')
      .addSelect('n.kazma_secret_sealed IS NOT NULL', 'has_secret')
      .where('n.owner_id = :ownerId', { ownerId })
      .orderBy('n.slug')
      .limit(limit);
    if (onlyId) query.andWhere('n.id = :onlyId', { onlyId });
    const rows = await query.getRawMany<{ slug: string; has_secret: boolean }>();
    return rows.map((row) => ({ slug: row.slug, hasKazmaSecret: row.has_secret === true }));
  }

  async setSecret(m: EntityManager, id: string, sealed: string | null): Promise<void> {
    await m.update(Namespace, id, { kazmaSecretSealed: sealed });
  }

  /** The publisher named so, created when there is none (race-safe under the unique name). */
  async publisherNamed(m: EntityManager, name: string): Promise<Publisher> {
    await m.createQueryBuilder().insert().into(Publisher).values({ name }).orIgnore().execute();
    return m.findOneByOrFail(Publisher, { name });
  }

  publisherById(m: EntityManager, id: string): Promise<Publisher> {
    return m.findOneByOrFail(Publisher, { id });
  }
}
