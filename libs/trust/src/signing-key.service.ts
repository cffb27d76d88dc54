/**
 * The hub's Ed25519 signing key: created on first use (under a lock, so two workers
 * never create two), sealed at rest, rotated by retiring the current key (`not_after`)
 * while keeping it published so the certificates it signed still verify.
 */
import type { KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { SigningKeyRepository, type SigningKey } from '@skillhub/database';
import { generateHubKey, keyId, loadPrivateKey, openSecret, publicKeyFromPem, sealSecret } from '@skillhub/signing';
import { encryptionKey } from './encryption-key';

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
    private readonly keys: SigningKeyRepository,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  /**
   * Pass the caller's transaction when there is one: a second connection could be
   * unavailable (the embedded database has exactly one).
   */
  async activeKey(m?: EntityManager): Promise<ActiveKey> {
    // Asked every time (one indexed row): another process may have rotated the key.
    const existing = await this.keys.active(m);
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
    return this.keys.published();
  }

  /** Retires the signing key and makes a new one; certificates signed before stay valid. */
  async rotate(): Promise<string> {
    const created = await this.dataSource.transaction(async (m) => {
      await this.keys.lock(m);
      const now = new Date();
      await this.keys.retire(m, now);
      return this.insert(m, now);
    });
    return created.keyId;
  }

  private async create(m: EntityManager): Promise<SigningKey> {
    await this.keys.lock(m);
    return (await this.keys.active(m)) ?? this.insert(m, new Date());
  }

  private insert(m: EntityManager, notBefore: Date): Promise<SigningKey> {
    const pair = generateHubKey();
    return this.keys.add(m, {
      keyId: keyId(publicKeyFromPem(pair.publicKeyPem)),
      publicKeyPem: pair.publicKeyPem,
      privateKeySealed: sealSecret(pair.privateKeyPem, encryptionKey(this.config)),
      notBefore,
    });
  }
}
