/**
 * Publishers' own Ed25519 keys, registered per namespace (C14). Registering one makes publisher
 * signatures required for every later certification there; removing one makes its signatures
 * stop verifying (a lost or stolen key is removed, not deleted, so the record stays).
 */
import type { KeyObject } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { DomainError } from '@skillhub/errors';
import { PublisherKey } from '@skillhub/database';
import { keyId, publicKeyFromPem } from '@skillhub/signing';
import { assertCanActOn } from '../auth/namespace-access';
import type { Principal } from '../auth/principal';
import type { PublisherKeyDto, PublisherKeysResponseDto } from './dto/publisher-keys.dto';
import { namespaceOrFail, TrustNotFoundError } from './trust.service';

/** Enough for every machine and person of a team; more is a mistake or abuse. */
export const MAX_ACTIVE_PUBLISHER_KEYS = 10;

@Injectable()
export class PublisherKeysService {
  constructor(private readonly dataSource: DataSource) {}

  async list(slug: string): Promise<PublisherKeysResponseDto> {
    const namespace = await namespaceOrFail(this.dataSource.manager, slug);
    const rows = await this.dataSource
      .getRepository(PublisherKey)
      .find({ where: { namespaceId: namespace.id }, order: { createdAt: 'ASC' } });
    return {
      namespace: slug,
      signatures_required: rows.some((row) => row.removedAt === null),
      keys: rows.map(toDto),
    };
  }

  async register(principal: Principal, slug: string, publicKeyPem: string, name: string): Promise<PublisherKeyDto> {
    let publicKey: KeyObject;
    try {
      publicKey = publicKeyFromPem(publicKeyPem);
    } catch (error) {
      const message = error instanceof DomainError ? error.message : 'not a public key PEM';
      throw new DomainError('PUBLISHER_KEY.INVALID', `public_key: ${message}`, [
        { path: 'public_key', message, severity: 'error' },
      ]);
    }
    const id = keyId(publicKey);
    return this.dataSource.transaction(async (m) => {
      const namespace = await namespaceOrFail(m, slug, true);
      assertCanActOn(principal, namespace);
      if (await m.existsBy(PublisherKey, { namespaceId: namespace.id, keyId: id })) {
        throw new DomainError(
          'PUBLISHER_KEY.EXISTS',
          `Key ${id} is already registered with ${slug} (a removed key cannot come back: generate a new one).`,
        );
      }
      const active = await m.countBy(PublisherKey, { namespaceId: namespace.id, removedAt: IsNull() });
      if (active >= MAX_ACTIVE_PUBLISHER_KEYS) {
        throw new DomainError(
          'PUBLISHER_KEY.CONFLICT',
          `${slug} already has ${MAX_ACTIVE_PUBLISHER_KEYS} active keys; remove one first.`,
        );
      }
      const row = await m.save(
        m.create(PublisherKey, {
          namespaceId: namespace.id,
          keyId: id,
          publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
          name,
          removedAt: null,
        }),
      );
      return toDto(row);
    });
  }

  async remove(principal: Principal, slug: string, id: string): Promise<PublisherKeyDto> {
    return this.dataSource.transaction(async (m) => {
      const namespace = await namespaceOrFail(m, slug, true);
      assertCanActOn(principal, namespace);
      const row = await m.findOneBy(PublisherKey, { namespaceId: namespace.id, keyId: id });
      if (!row) throw new TrustNotFoundError(`No key ${id} is registered with ${slug}.`);
      if (row.removedAt === null) {
        row.removedAt = new Date();
        await m.save(row);
      }
      return toDto(row);
    });
  }
}

const toDto = (row: PublisherKey): PublisherKeyDto => ({
  key_id: row.keyId,
  name: row.name,
  public_key_pem: row.publicKeyPem,
  created_at: row.createdAt.toISOString(),
  removed_at: row.removedAt?.toISOString() ?? null,
});
