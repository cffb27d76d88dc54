/** Work waiting for the certifier on real PostgreSQL: a raised policy, the watchdog's look, the re-probe's day. */
import { randomUUID } from 'node:crypto';
import { CertificationRepository } from './certification.repository';
import { CURRENT_POLICY } from './current-certification';
import { PendingWorkRepository } from './pending-work.repository';
import { SubmissionRepository } from './submission.repository';
import {
  openTestDatabase,
  seedVerdict,
  seedVersion,
  setCertification,
  uniqueSlug,
  type OpenDatabase,
} from '../testing/database-fixtures';

const CERTIFY = { queue: 'certification', name: 'certify' };
const SUBMISSION = { queue: 'certification', name: 'certify-submission' };
const REPROBE = { queue: 'certification', name: 'reprobe' };

describe('PendingWorkRepository', () => {
  let db: OpenDatabase;
  let work: PendingWorkRepository;
  beforeAll(async () => {
    db = await openTestDatabase();
    work = new PendingWorkRepository(db.ds);
  });
  afterAll(() => db.close());

  const outbox = (job: string) =>
    db.ds.query(`SELECT payload FROM outbox WHERE job_name = $1 AND dispatched_at IS NULL ORDER BY id`, [
      job,
    ]) as Promise<Array<{ payload: Record<string, unknown> }>>;
  const deliverAll = () => db.ds.query(`UPDATE outbox SET dispatched_at = now() WHERE dispatched_at IS NULL`);

  it('brings every version under a raised policy in batches, once, and carries a revocation over with its report', async () => {
    const policy = CURRENT_POLICY + 1;
    await deliverAll();
    const kept = await Promise.all([1, 2, 3].map(() => seedVersion(db.ds)));
    const revoked = await seedVersion(db.ds);
    const revokedRow = await seedVerdict(db.ds, revoked.versionId, { score: 42 });
    await setCertification(db.ds, revokedRow, { status: 'revoked' });
    await db.ds.query(
      `INSERT INTO revocations (skill_version_id, reason, revoked_by, log_index) VALUES ($1, 'bad', 'operator', 0)`,
      [revoked.versionId],
    );

    await work.carryRevocations(policy);
    await work.carryRevocations(policy);
    const [carried] = await db.ds.query(
      `SELECT status, level, report->>'score' AS score FROM certifications WHERE skill_version_id = $1 AND policy_version = $2`,
      [revoked.versionId, policy],
    );
    expect(carried).toEqual({ status: 'revoked', level: 'none', score: '42' });

    let queued = 0;
    for (let round = 0; round < 10; round++) {
      const n = await work.queueUnjudged(policy, CERTIFY, 2);
      expect(n).toBeLessThanOrEqual(2);
      queued += n;
      if (n < 2) break;
    }
    expect(await work.queueUnjudged(policy, CERTIFY, 2)).toBe(0);
    const jobs = (await outbox('certify')).map((r) => r.payload);
    expect(jobs).toHaveLength(queued);
    expect(jobs).toEqual(
      expect.arrayContaining(kept.map((v) => ({ skillVersionId: v.versionId, policyVersion: policy }))),
    );
    expect(jobs).not.toContainEqual(expect.objectContaining({ skillVersionId: revoked.versionId }));
    await deliverAll();
  });

  it('finds open certifications no undelivered job is about, and queues each again once', async () => {
    const certifications = new CertificationRepository(db.ds);
    const waiting = await seedVersion(db.ds);
    const stuck = await seedVersion(db.ds);
    const judged = await seedVersion(db.ds);
    for (const v of [waiting, stuck]) await db.ds.transaction((m) => certifications.addPending(m, v.versionId));
    await seedVerdict(db.ds, judged.versionId);
    await db.ds.query(`INSERT INTO outbox (queue, job_name, payload) VALUES ('certification', 'certify', $1)`, [
      { skillVersionId: waiting.versionId, policyVersion: CURRENT_POLICY },
    ]);
    const open = (await work.openCertifications(CERTIFY, 1000)).map((r) => r.skillVersionId);
    expect(open).toContain(stuck.versionId);
    expect(open).not.toContain(waiting.versionId);
    expect(open).not.toContain(judged.versionId);

    const refs = [stuck, judged].map((v) => ({ skillVersionId: v.versionId, policyVersion: CURRENT_POLICY }));
    expect(await work.requeueCertifications(CERTIFY, refs)).toBe(1);
    expect(await work.requeueCertifications(CERTIFY, refs)).toBe(0);
    await deliverAll();
  });

  it('finds live quarantined submissions without a report or a job, and queues each again once', async () => {
    const submissions = new SubmissionRepository(db.ds);
    const add = (expiresAt: Date) =>
      db.ds.transaction((m) =>
        submissions.add(m, {
          namespaceSlug: uniqueSlug(),
          name: 'weather',
          version: '1.0.0',
          manifest: {},
          problems: [],
          sourceUrl: null,
          submitterId: null,
          clientAddress: 'test',
          expiresAt,
        }),
      );
    const live = await add(new Date(Date.now() + 86_400_000));
    const gone = await add(new Date(Date.now() - 1000));
    const open = (await work.openSubmissions(SUBMISSION, 1000)).map((r) => r.submissionId);
    expect(open).toContain(live.id);
    expect(open).not.toContain(gone.id);
    expect(await work.requeueSubmissions(SUBMISSION, [live.id, randomUUID()])).toBe(1);
    expect(await work.requeueSubmissions(SUBMISSION, [live.id])).toBe(0);
    expect((await work.openSubmissions(SUBMISSION, 1000)).map((r) => r.submissionId)).not.toContain(live.id);
    expect(await work.undelivered()).toBe(1);
    await deliverAll();
    expect(await work.undelivered()).toBe(0);
  });

  it('asks for the re-probe of a day once, and only when a certified version pins packages', async () => {
    await db.ds.query(`UPDATE certifications SET status = 'failed' WHERE status = 'certified'`);
    await work.askForReprobe(REPROBE, '2031-01-01');
    expect(await outbox('reprobe')).toEqual([]);
    await seedVerdict(db.ds, (await seedVersion(db.ds)).versionId);
    await work.askForReprobe(REPROBE, new Date().toISOString().slice(0, 10));
    await work.askForReprobe(REPROBE, new Date().toISOString().slice(0, 10));
    expect(await outbox('reprobe')).toEqual([{ payload: { day: new Date().toISOString().slice(0, 10) } }]);
  });
});
