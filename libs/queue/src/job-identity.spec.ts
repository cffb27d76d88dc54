import { jobIdentity, jobSubject } from './job-identity';

const sv = '0b7c3f0e-9a51-4c1e-8d2e-3f1a2b4c5d6e';
const row = (over: Partial<Parameters<typeof jobIdentity>[0]> = {}) => ({
  id: '1',
  jobName: 'certify',
  payload: { skillVersionId: sv, policyVersion: 3 },
  createdMicros: '1767225600123456',
  ...over,
});

describe('job identity', () => {
  it('names a certification by its skill version and policy, never by the outbox serial alone', () => {
    const { subject, id } = jobIdentity(row());
    expect(subject).toBe(`certify.${sv}.p3`);
    expect(id).toBe(`certify.${sv}.p3.1767225600123456.1`);
    // A wiped data folder starts the serial at 1 again, but its versions are new uuids.
    const other = jobIdentity(
      row({ payload: { skillVersionId: '1f7c3f0e-9a51-4c1e-8d2e-3f1a2b4c5d6e', policyVersion: 3 } }),
    );
    expect(other.id).not.toBe(id);
    expect(other.subject).not.toBe(subject);
  });

  it('gives the same row the same id, and a later round of the same certification another id', () => {
    expect(jobIdentity(row()).id).toBe(jobIdentity(row()).id);
    const retry = jobIdentity(row({ id: '7', createdMicros: '1767229200000001' }));
    expect(retry.subject).toBe(jobIdentity(row()).subject);
    expect(retry.id).not.toBe(jobIdentity(row()).id);
    // A restored database repeats serials, not creation times.
    expect(jobIdentity(row({ createdMicros: '1767300000000000' })).id).not.toBe(jobIdentity(row()).id);
  });

  it('tells policies apart: a re-judgment under a new policy is other work', () => {
    expect(jobIdentity(row({ payload: { skillVersionId: sv, policyVersion: 4 } })).subject).toBe(`certify.${sv}.p4`);
  });

  it('names a submission by its id, and a day of re-probes by its day alone', () => {
    const submission = jobIdentity(row({ jobName: 'certify-submission', payload: { submissionId: sv } }));
    expect(submission.subject).toBe(`certify-submission.${sv}`);
    expect(submission.id.startsWith(`certify-submission.${sv}.`)).toBe(true);
    const a = jobIdentity(row({ jobName: 'reprobe', payload: { day: '2026-01-01' } }));
    const b = jobIdentity(row({ id: '9', jobName: 'reprobe', payload: { day: '2026-01-01' }, createdMicros: '9' }));
    expect(a).toEqual({ subject: 'reprobe.2026-01-01', id: 'reprobe.2026-01-01' });
    expect(b).toEqual(a);
  });

  it('gives a malformed payload an id of its own that BullMQ accepts (no colon, not a number)', () => {
    for (const bad of [
      row({ payload: { skillVersionId: 'x:y', policyVersion: 3 } }),
      row({ payload: null }),
      row({ jobName: 'reprobe', payload: { day: '2026:01:01' } }),
      row({ jobName: 'we:ird name', payload: {} }),
    ]) {
      const { id, subject } = jobIdentity(bad);
      expect(id).not.toContain(':');
      expect(subject).toBe(id);
      expect(String(parseInt(id, 10))).not.toBe(id);
      expect(id.endsWith(`.${bad.createdMicros}.${bad.id}`)).toBe(true);
    }
    expect(jobSubject('certify', { skillVersionId: sv, policyVersion: 2.5 })).toBeNull();
  });
});
