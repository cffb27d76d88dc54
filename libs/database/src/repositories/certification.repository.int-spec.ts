/** Verdicts on real PostgreSQL: the current policy's row only, the report through the codec, "certified now" said once. */
import { CertificationRepository } from './certification.repository';
import { certifiedNowSql, CURRENT_POLICY, isCertifiedNow, statusNow } from './current-certification';
import {
  openTestDatabase,
  seedVerdict,
  seedVersion,
  setCertification,
  type OpenDatabase,
} from '../testing/database-fixtures';
import { certifiedReport } from '../testing/report-fixtures';
import type { CertificationStatus } from '../entities/certification.entity';
import { decodeReport } from '../report-codec';

describe('CertificationRepository', () => {
  let db: OpenDatabase;
  let certifications: CertificationRepository;
  beforeAll(async () => {
    db = await openTestDatabase();
    certifications = new CertificationRepository(db.ds);
  });
  afterAll(() => db.close());

  it("reads a version's certification under the current policy only, alone or many at once", async () => {
    const judged = await seedVersion(db.ds);
    const older = await seedVersion(db.ds);
    const id = await seedVerdict(db.ds, judged.versionId);
    const oldId = await seedVerdict(db.ds, older.versionId);
    await setCertification(db.ds, oldId, { policyVersion: CURRENT_POLICY - 1 });

    expect((await certifications.current(judged.versionId))?.id).toBe(id);
    expect(await certifications.current(older.versionId)).toBeNull();
    const many = await certifications.currentOf([judged.versionId, older.versionId]);
    expect([...many.keys()]).toEqual([judged.versionId]);
    expect(await certifications.currentOf([])).toEqual(new Map());
  });

  it('asks for the judgment of a new version under the current policy, and finds the row the job names', async () => {
    const v = await seedVersion(db.ds);
    const job = await db.ds.transaction((m) => certifications.addPending(m, v.versionId));
    expect(job).toEqual({ skillVersionId: v.versionId, policyVersion: CURRENT_POLICY });
    expect(await certifications.forJudgment(job)).toMatchObject({ status: 'pending', level: 'none', report: null });
    expect(await certifications.forJudgment({ ...job, policyVersion: CURRENT_POLICY + 1 })).toBeNull();
  });

  it('stores a verdict with its columns and gives the report back through the codec', async () => {
    const v = await seedVersion(db.ds);
    const report = certifiedReport({ level: 'basic' });
    await seedVerdict(db.ds, v.versionId, report);
    const row = await certifications.current(v.versionId);
    expect(row).toMatchObject({
      status: 'certified',
      level: 'basic',
      requirementsMet: report.requirementsMet,
      issuedAt: new Date(report.issuedAt!),
      expiresAt: new Date(report.expiresAt!),
    });
    expect(decodeReport(row!.report)).toEqual(report);
  });

  it('refuses to store a report that is not the current shape, and writes nothing', async () => {
    const v = await seedVersion(db.ds);
    await expect(seedVerdict(db.ds, v.versionId, { score: 'high' as never })).rejects.toMatchObject({
      code: 'REPORT.CORRUPT',
    });
    expect(await certifications.current(v.versionId)).toBeNull();
  });

  it('revokes every row of a version, under every policy', async () => {
    const v = await seedVersion(db.ds);
    const old = await seedVerdict(db.ds, v.versionId);
    await setCertification(db.ds, old, { policyVersion: CURRENT_POLICY - 1 });
    await seedVerdict(db.ds, v.versionId);
    await db.ds.transaction((m) => certifications.revokeVersion(m, v.versionId));
    const rows = await db.ds.query(`SELECT status, level FROM certifications WHERE skill_version_id = $1`, [
      v.versionId,
    ]);
    expect(rows).toEqual([
      { status: 'revoked', level: 'none' },
      { status: 'revoked', level: 'none' },
    ]);
  });

  it("serves the current certification's certificate, not an older policy's", async () => {
    const v = await seedVersion(db.ds);
    const old = await seedVerdict(db.ds, v.versionId);
    const certificate = (certificationId: string, keyId: string) =>
      db.ds.transaction((m) =>
        certifications.addCertificate(m, {
          certificationId,
          keyId,
          envelope: { payload: keyId },
          logIndex: 7,
          issuedAt: new Date('2025-06-01T12:00:00Z'),
          expiresAt: new Date('2025-08-30T12:00:00Z'),
        }),
      );
    await certificate(old, 'a'.repeat(64));
    await setCertification(db.ds, old, { policyVersion: CURRENT_POLICY - 1 });
    expect(await certifications.certificateOf(v.versionId)).toBeNull();
    await certificate(await seedVerdict(db.ds, v.versionId), 'b'.repeat(64));
    expect(await certifications.certificateOf(v.versionId)).toMatchObject({ keyId: 'b'.repeat(64), logIndex: '7' });
  });

  it('lists for the re-probe only certified versions of the current policy that pin packages', async () => {
    const pins = await seedVersion(db.ds);
    const none = await seedVersion(db.ds);
    const failed = await seedVersion(db.ds);
    await seedVerdict(db.ds, pins.versionId);
    await seedVerdict(db.ds, none.versionId, { pinnedPackages: [] });
    await seedVerdict(db.ds, failed.versionId, { status: 'failed', level: 'none', issuedAt: null, expiresAt: null });
    const listed = (await certifications.pinnedVersions()).filter((p) =>
      [pins, none, failed].some((v) => v.versionId === p.versionId),
    );
    expect(listed).toEqual([
      {
        versionId: pins.versionId,
        skill: `${pins.namespace}/${pins.name}`,
        version: '1.0.0',
        bundleSha256: pins.bundleSha256,
        pinned: certifiedReport().pinnedPackages,
      },
    ]);
  });

  it('counts current-policy certifications by status and level', async () => {
    const before = await certifications.countsByStatus();
    const v = await seedVersion(db.ds);
    const old = await seedVerdict(db.ds, v.versionId);
    await setCertification(db.ds, old, { policyVersion: CURRENT_POLICY - 1 });
    expect(await certifications.countsByStatus()).toEqual(before);
    await seedVerdict(db.ds, v.versionId, { level: 'basic' });
    const n = (rows: typeof before) => rows.find((r) => r.status === 'certified' && r.level === 'basic')?.n ?? 0;
    expect(n(await certifications.countsByStatus())).toBe(n(before) + 1);
  });

  it('says "certified now" the same in SQL and in code, for every status and expiry', async () => {
    const v = await seedVersion(db.ds);
    const id = await seedVerdict(db.ds, v.versionId);
    const statuses: CertificationStatus[] = ['pending', 'certified', 'failed', 'inconclusive', 'revoked', 'expired'];
    const expiries = [null, new Date(Date.now() - 60_000), new Date(Date.now() + 60_000)];
    for (const status of statuses) {
      for (const expiresAt of expiries) {
        await setCertification(db.ds, id, { status, expiresAt });
        const [{ sql }] = await db.ds.query(
          `SELECT coalesce(${certifiedNowSql('c')}, false) AS sql FROM certifications c WHERE c.id = $1`,
          [id],
        );
        const row = (await certifications.current(v.versionId))!;
        expect([status, expiresAt, isCertifiedNow(row)]).toEqual([status, expiresAt, sql]);
        expect(statusNow(row)).toBe(status === 'certified' && expiresAt && expiresAt < new Date() ? 'expired' : status);
      }
    }
    expect(statusNow(null)).toBe('pending');
  });
});
