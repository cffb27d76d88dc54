/** The hub's signing key on real PostgreSQL: one key however many processes ask first, rotation keeps the old one published. */
import { randomBytes, sign, verify } from 'node:crypto';
import { loadConfig } from '@skillhub/config';
import { SigningKeyRepository } from '@skillhub/database';
import { openTestDatabase, type OpenDatabase } from '@skillhub/database/testing';
import { publicKeyFromPem } from '@skillhub/signing';
import { SigningKeyService } from './signing-key.service';

describe('SigningKeyService', () => {
  let db: OpenDatabase;
  const config = loadConfig({ HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex') });
  beforeAll(async () => {
    db = await openTestDatabase(8);
  });
  afterAll(() => db.close());

  // Separate services, as separate processes would be: nothing is shared but the database.
  const service = () => new SigningKeyService(db.ds, new SigningKeyRepository(db.ds), config);

  it('creates exactly one key when several processes ask for it first, at once', async () => {
    const keys = await Promise.all(Array.from({ length: 6 }, () => service().activeKey()));
    expect(new Set(keys.map((k) => k.keyId)).size).toBe(1);
    const published = await service().publicKeys();
    expect(published).toHaveLength(1);
    expect(published[0]!.privateKeySealed).toBeUndefined();
    const signature = sign(null, Buffer.from('checkpoint'), keys[0]!.privateKey);
    expect(verify(null, Buffer.from('checkpoint'), publicKeyFromPem(published[0]!.publicKeyPem), signature)).toBe(true);
  });

  it('rotates to a new key and keeps the retired one published with its window', async () => {
    const before = await service().activeKey();
    const rotated = await service().rotate();
    const after = await service().activeKey();
    expect(after.keyId).toBe(rotated);
    expect(rotated).not.toBe(before.keyId);
    const published = await service().publicKeys();
    expect(published.map((k) => k.keyId)).toEqual([rotated, before.keyId]);
    expect(published[1]!.notAfter).toBeInstanceOf(Date);
    expect(published[0]!.notAfter).toBeNull();
  });

  it('stores the private key sealed, never in the clear', async () => {
    const [row] = await db.ds.query(`SELECT private_key_sealed FROM signing_keys WHERE not_after IS NULL`);
    expect(row.private_key_sealed).not.toContain('PRIVATE KEY');
    await expect(
      new SigningKeyService(
        db.ds,
        new SigningKeyRepository(db.ds),
        loadConfig({ HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex') }),
      ).activeKey(),
    ).rejects.toThrow();
  });
});
