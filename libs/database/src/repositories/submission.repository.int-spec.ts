/** Submissions on real PostgreSQL: the per-address window under its lock, the live one, the report, a claim. */
import { SubmissionRepository, type NewSubmission } from './submission.repository';
import { decodeReport } from '../report-codec';
import { openTestDatabase, seedVersion, uniqueSlug, type OpenDatabase } from '../testing/database-fixtures';
import { certifiedReport } from '../testing/report-fixtures';

describe('SubmissionRepository', () => {
  let db: OpenDatabase;
  let submissions: SubmissionRepository;
  beforeAll(async () => {
    db = await openTestDatabase(8);
    submissions = new SubmissionRepository(db.ds);
  });
  afterAll(() => db.close());

  const submission = (o: Partial<NewSubmission> = {}): NewSubmission => ({
    namespaceSlug: uniqueSlug(),
    name: 'weather',
    version: '1.0.0',
    manifest: { name: 'weather' },
    problems: [],
    sourceUrl: null,
    submitterId: null,
    clientAddress: uniqueSlug('addr'),
    expiresAt: new Date(Date.now() + 86_400_000),
    ...o,
  });

  it('lets no more than the limit through when one address submits many at once', async () => {
    const clientAddress = uniqueSlug('addr');
    const LIMIT = 3;
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () =>
        db.ds.transaction(async (m) => {
          const window = await submissions.lockWindow(m, clientAddress, new Date(Date.now() - 3600_000));
          if (window.count >= LIMIT) return 'refused';
          await submissions.add(m, submission({ clientAddress }));
          return 'stored';
        }),
      ),
    );
    expect(outcomes.filter((o) => o === 'stored')).toHaveLength(LIMIT);
    const window = await db.ds.transaction((m) => submissions.lockWindow(m, clientAddress, new Date(0)));
    expect(window.count).toBe(LIMIT);
    expect(window.oldest).toBeInstanceOf(Date);
    const later = await db.ds.transaction((m) => submissions.lockWindow(m, clientAddress, new Date(Date.now() + 1000)));
    expect(later).toEqual({ count: 0, oldest: null });
  });

  it('finds the newest live quarantined submission, at a version when asked', async () => {
    const namespaceSlug = uniqueSlug();
    const add = (o: Partial<NewSubmission>) =>
      db.ds.transaction((m) => submissions.add(m, submission({ namespaceSlug, ...o })));
    await add({ version: '1.0.0' });
    const newer = await add({ version: '1.1.0' });
    await add({ version: '1.2.0', expiresAt: new Date(Date.now() - 1000) });
    expect((await submissions.newestLive(namespaceSlug, 'weather'))?.id).toBe(newer.id);
    expect((await submissions.newestLive(namespaceSlug, 'weather', '1.0.0'))?.version).toBe('1.0.0');
    expect(await submissions.newestLive(namespaceSlug, 'weather', '1.2.0')).toBeNull();
    expect(await submissions.newestLive(namespaceSlug, 'other')).toBeNull();
  });

  it('stores the report through the codec only while quarantined, and claims once', async () => {
    const v = await seedVersion(db.ds);
    const s = await db.ds.transaction((m) => submissions.add(m, submission()));
    const report = certifiedReport({ status: 'inconclusive', level: 'none', issuedAt: null, expiresAt: null });
    await submissions.recordReport(s.id, report);
    expect(decodeReport((await submissions.byId(s.id))!.report)).toEqual(report);

    await db.ds.transaction(async (m) => {
      expect((await submissions.lock(m, s.id))?.status).toBe('quarantined');
      await submissions.markClaimed(m, s.id, v.versionId);
    });
    expect(await submissions.byId(s.id)).toMatchObject({ status: 'claimed', skillVersionId: v.versionId });
    await submissions.recordReport(s.id, { ...report, score: 1 });
    expect(decodeReport((await submissions.byId(s.id))!.report).score).toBe(report.score);
  });
});
