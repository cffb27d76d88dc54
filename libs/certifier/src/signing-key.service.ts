/**
 * The hub's Ed25519 signing key: created on first use (under a lock, so two workers
 * never create two), sealed at rest, rotated by retiring the current key (`not_after`)
 * while keeping it published so the certificates it signed still verify.
 */
import type { KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { SigningKey } from '@skillhub/database';
import { generateHubKey, keyId, loadPrivateKey, openSecret, publicKeyFromPem, sealSecret } from '@skillhub/signing';
import { encryptionKey } from './encryption-key';

/** pg_advisory_xact_lock key for creating or rotating the signing key. */
const SIGNING_KEY_LOCK = 0x5b1_4e7;

export interface ActiveKey {
  keyId: string;
  privateKey: KeyObject;
}

@Injectable()
export class SigningKeyService {
  /** Decrypted private keys by key id (opening one costs a decryption and a parse). */
  private readonly opened = new Map<string, KeyObject>();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  /**
   * Pass the caller's transaction when there is one: a second connection could be
   * unavailable (the embedded database has exactly one).
   */
  async activeKey(m?: EntityManager): Promise<ActiveKey> {
    // Asked every time (one indexed row): another process may have rotated the key.
    const existing = await this.current(m ?? this.dataSource.manager);
    const row = existing ?? (m ? await this.create(m) : await this.dataSource.transaction((tx) => this.create(tx)));
    let privateKey = this.opened.get(row.keyId);
    if (!privateKey) {
      privateKey = loadPrivateKey(openSecret(row.privateKeySealed, encryptionKey(this.config)));
      this.opened.set(row.keyId, privateKey);
    }
    return { keyId: row.keyId, privateKey };
  }

  /** Every key ever used, newest first, with its validity window (public parts only). */
  publicKeys(): Promise<SigningKey[]> {
    return this.dataSource.getRepository(SigningKey).find({ order: { notBefore: 'DESC' } });
  }

  /** Retires the signing key and makes a new one; certificates signed before stay valid. */
  async rotate(): Promise<string> {
    const created = await this.dataSource.transaction(async (m) => {
      await m.query('SELECT pg_advisory_xact_lock($1)', [SIGNING_KEY_LOCK]);
      const now = new Date();
      await m.update(SigningKey, { notAfter: IsNull() }, { notAfter: now });
      return this.insert(m, now);
    });
    return created.keyId;
  }

  private async current(m: EntityManager): Promise<SigningKey | null> {
    return m
      .getRepository(SigningKey)
      .createQueryBuilder('k')
      .addSelect('k.privateKeySealed')
      .where('k.not_after IS NULL')
      .orderBy('k.not_before', 'DESC')
      .getOne();
  }

  private async create(m: EntityManager): Promise<SigningKey> {
    await m.query('SELECT pg_advisory_xact_lock($1)', [SIGNING_KEY_LOCK]);
    return (await this.current(m)) ?? this.insert(m, new Date());
  }

  private async insert(m: EntityManager, notBefore: Date): Promise<SigningKey> {
    const pair = generateHubKey();
    const row = m.create(SigningKey, {
      keyId: keyId(publicKeyFromPem(pair.publicKeyPem)),
      publicKeyPem: pair.publicKeyPem,
      privateKeySealed: sealSecret(pair.privateKeyPem, encryptionKey(this.config)),
      notBefore,
      notAfter: null,
    });
    await m.insert(SigningKey, row);
    return row;
  }
}
