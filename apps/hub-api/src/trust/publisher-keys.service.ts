/**
 * Publishers' own Ed25519 keys, registered per namespace (C14). Registering one makes publisher
 * signatures required for every later certification there; removing one makes its signatures
 * stop verifying (a lost or stolen key is removed, not deleted, so the record stays).
 */
import type { KeyObject } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NamespaceRepository, PublisherKeyRepository, type PublisherKey } from '@skillhub/database';
import { DomainError } from '@skillhub/errors';
import { keyId, publicKeyFromPem } from '@skillhub/signing';
import { assertCanActOn } from '../auth/namespace-access';
import type { Principal } from '../auth/principal';
import type { PublisherKeyDto, PublisherKeysResponseDto } from './dto/publisher-keys.dto';
import { namespaceOrFail, TrustNotFoundError } from './trust.service';

/** Enough for every machine and person of a team; more is a mistake or abuse. */
export const MAX_ACTIVE_PUBLISHER_KEYS = 10;

@Injectable()
export class PublisherKeysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly namespaces: NamespaceRepository,
    private readonly keys: PublisherKeyRepository,
  ) {}

  async list(slug: string): Promise<PublisherKeysResponseDto> {
    const namespace = await namespaceOrFail(this.namespaces, slug);
    const rows = await this.keys.ofNamespace(namespace.id);
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
      throw new DomainError('invalid', 'PUBLISHER_KEY.INVALID', `public_key: ${message}`, [
        { path: 'public_key', message, severity: 'error' },
      ]);
    }
    const id = keyId(publicKey);
    return this.dataSource.transaction(async (m) => {
      const namespace = await namespaceOrFail(this.namespaces, slug, m, true);
      assertCanActOn(principal, namespace);
      if (await this.keys.find(m, namespace.id, id)) {
        throw new DomainError(
          'conflict',
          'PUBLISHER_KEY.EXISTS',
          `Key ${id} is already registered with ${slug} (a removed key cannot come back: generate a new one).`,
        );
      }
      const active = await this.keys.countActive(m, namespace.id);
      if (active >= MAX_ACTIVE_PUBLISHER_KEYS) {
        throw new DomainError(
          'conflict',
          'PUBLISHER_KEY.CONFLICT',
          `${slug} already has ${MAX_ACTIVE_PUBLISHER_KEYS} active keys; remove one first.`,
        );
      }
      const row = await this.keys.add(m, {
        namespaceId: namespace.id,
        keyId: id,
        publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        name,
      });
      return toDto(row);
    });
  }

  async remove(principal: Principal, slug: string, id: string): Promise<PublisherKeyDto> {
    return this.dataSource.transaction(async (m) => {
      const namespace = await namespaceOrFail(this.namespaces, slug, m, true);
      assertCanActOn(principal, namespace);
      const row = await this.keys.find(m, namespace.id, id);
      if (!row) throw new TrustNotFoundError(`No key ${id} is registered with ${slug}.`);
      return toDto(await this.keys.remove(m, row));
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
