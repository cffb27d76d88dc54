/** The hub's Ed25519 keys: the one that signs (newest without `not_after`), and every key ever published. */
import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { SigningKey } from '../entities/signing-key.entity';

/** pg_advisory_xact_lock key for creating or rotating the signing key. */
const SIGNING_KEY_LOCK = 0x5b1_4e7;

@Injectable()
export class SigningKeyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The key that signs now, its sealed private key selected; null before the hub's first. */
  active(m: EntityManager = this.dataSource.manager): Promise<SigningKey | null> {
    return m
      .getRepository(SigningKey)
      .createQueryBuilder('k')
      .addSelect('k.privateKeySealed')
      .where('k.not_after IS NULL')
      .orderBy('k.not_before', 'DESC')
      .getOne();
  }

  /** Every key, newest first, public parts only. */
  published(): Promise<SigningKey[]> {
    return this.dataSource.manager.find(SigningKey, { order: { notBefore: 'DESC' } });
  }

  /** Serializes creating and rotating keys until the caller's transaction ends, so two workers never make two. */
  async lock(m: EntityManager): Promise<void> {
    await m.query('SELECT pg_advisory_xact_lock($1)', [SIGNING_KEY_LOCK]);
  }

  /** Ends the signing key's validity at `at`; it stays published. */
  async retire(m: EntityManager, at: Date): Promise<void> {
    await m.update(SigningKey, { notAfter: IsNull() }, { notAfter: at });
  }

  async add(m: EntityManager, key: Pick<SigningKey, 'keyId' | 'publicKeyPem' | 'privateKeySealed' | 'notBefore'>) {
    const row = m.create(SigningKey, { ...key, notAfter: null });
    await m.insert(SigningKey, row);
    return row;
  }
}
