/** Revoking on real PostgreSQL: a log entry, the revocation and every certification row change in one commit, once. */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '@skillhub/config';
import {
  CertificationRepository,
  RevocationRepository,
  SigningKeyRepository,
  TransparencyLogRepository,
} from '@skillhub/database';
import { openTestDatabase, seedVerdict, seedVersion, type OpenDatabase } from '@skillhub/database/testing';
import { AlreadyRevokedError, RevocationsService } from './revocations.service';
import { SigningKeyService } from './signing-key.service';
import { TransparencyLog } from './transparency-log.service';

describe('RevocationsService', () => {
  let db: OpenDatabase;
  let revocations: RevocationsService;
  let log: TransparencyLog;
  let rows: RevocationRepository;
  beforeAll(async () => {
    db = await openTestDatabase();
    const config = loadConfig({ HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex'), HUB_LOG_ORIGIN: 'test/log' });
    const keys = new SigningKeyService(db.ds, new SigningKeyRepository(db.ds), config);
    log = new TransparencyLog(new TransparencyLogRepository(db.ds), keys, config);
    rows = new RevocationRepository(db.ds);
    revocations = new RevocationsService(log, rows, new CertificationRepository(db.ds));
  });
  afterAll(() => db.close());

  const revoke = (v: Awaited<ReturnType<typeof seedVersion>>, reason: string) =>
    db.ds.transaction((m) =>
      revocations.revoke(
        m,
        { versionId: v.versionId, skill: `${v.namespace}/${v.name}`, version: v.version, bundleSha256: v.bundleSha256 },
        reason,
        'operator',
      ),
    );

  it('appends the revocation to the log, records it, and marks every certification of the version revoked', async () => {
    const v = await seedVersion(db.ds);
    await seedVerdict(db.ds, v.versionId);
    const index = await revoke(v, 'leaked a secret');
    const entry = (await log.entry(index))!;
    expect(entry.kind).toBe('revocation');
    expect(JSON.parse(entry.leafData)).toMatchObject({
      type: 'revocation',
      skill: `${v.namespace}/${v.name}`,
      version: '1.0.0',
      bundleSha256: v.bundleSha256,
      reason: 'leaked a secret',
    });
    expect(await rows.isRevoked(v.versionId)).toBe(true);
    expect(
      await db.ds.query(`SELECT status, level FROM certifications WHERE skill_version_id = $1`, [v.versionId]),
    ).toEqual([{ status: 'revoked', level: 'none' }]);
  });

  it('refuses to revoke a version twice, and writes nothing the second time', async () => {
    const v = await seedVersion(db.ds);
    await revoke(v, 'first');
    const size = await log.size();
    await expect(revoke(v, 'second')).rejects.toBeInstanceOf(AlreadyRevokedError);
    expect(await log.size()).toBe(size);
  });

  it('lists every revocation in log order, for the signed list', async () => {
    const [a, b] = [await seedVersion(db.ds), await seedVersion(db.ds)];
    const ia = await revoke(a, 'a');
    const ib = await revoke(b, 'b');
    const listed = (await rows.all()).filter((r) => r.logIndex === ia || r.logIndex === ib);
    expect(listed).toEqual([
      expect.objectContaining({ skill: `${a.namespace}/${a.name}`, version: '1.0.0', reason: 'a', logIndex: ia }),
      expect.objectContaining({ skill: `${b.namespace}/${b.name}`, bundleSha256: b.bundleSha256, logIndex: ib }),
    ]);
    expect(listed.map((r) => r.logIndex)).toEqual([...listed.map((r) => r.logIndex)].sort((x, y) => x - y));
  });
});
