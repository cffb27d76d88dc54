/** Publishers' Ed25519 keys per namespace (C14): registered, removed (never deleted) and read by the certifier. */
import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { PublisherKey } from '../entities/publisher-key.entity';

export type NewPublisherKey = Pick<PublisherKey, 'namespaceId' | 'keyId' | 'publicKeyPem' | 'name'>;

@Injectable()
export class PublisherKeyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Every key the namespace ever registered, removed ones included, oldest first. */
  ofNamespace(namespaceId: string): Promise<PublisherKey[]> {
    return this.dataSource.manager.find(PublisherKey, { where: { namespaceId }, order: { createdAt: 'ASC' } });
  }

  find(m: EntityManager, namespaceId: string, keyId: string): Promise<PublisherKey | null> {
    return m.findOneBy(PublisherKey, { namespaceId, keyId });
  }

  countActive(m: EntityManager, namespaceId: string): Promise<number> {
    return m.countBy(PublisherKey, { namespaceId, removedAt: IsNull() });
  }

  add(m: EntityManager, key: NewPublisherKey): Promise<PublisherKey> {
    return m.save(m.create(PublisherKey, { ...key, removedAt: null }));
  }

  /** Marks the key removed now, once: a key removed earlier keeps its time. */
  async remove(m: EntityManager, key: PublisherKey): Promise<PublisherKey> {
    if (key.removedAt !== null) return key;
    key.removedAt = new Date();
    return m.save(key);
  }
}
