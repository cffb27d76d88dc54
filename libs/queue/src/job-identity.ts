/**
 * Job identities, derived from what a job is about and never from the outbox serial alone: a
 * serial starts again at 1 with every new database, and BullMQ keeps finished jobs for days, so
 * on a Redis that an earlier data folder, another hub or a restored database used, `outbox-1`
 * would be taken for a finished job and silently dropped.
 */
import { CERTIFY_JOB, CERTIFY_SUBMISSION_JOB, REPROBE_JOB } from './queue.constants';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** What BullMQ accepts in an id (no `:`), for the names of jobs this file does not know. */
const UNSAFE = /[^A-Za-z0-9_-]/g;

export interface JobIdentity {
  /**
   * What the job is about: one certification (a skill version under one policy), one submission,
   * one day's re-probe. Queued again while a job for it waits or runs, it is not added twice.
   */
  subject: string;
  /** Unique for ever: a different piece of work never gets it, the same one always does. */
  id: string;
}

/** The outbox row a job comes from, as the relay reads it. */
export interface OutboxJobRow {
  id: string;
  jobName: string;
  payload: unknown;
  /** `created_at` in microseconds since the epoch, as PostgreSQL stores it. */
  createdMicros: string;
}

/** The subject of a job, or null when its payload does not name one well-formed. */
export function jobSubject(jobName: string, payload: unknown): string | null {
  const p = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  switch (jobName) {
    case CERTIFY_JOB:
      return typeof p.skillVersionId === 'string' && UUID.test(p.skillVersionId) && Number.isInteger(p.policyVersion)
        ? `${CERTIFY_JOB}.${p.skillVersionId.toLowerCase()}.p${String(p.policyVersion)}`
        : null;
    case CERTIFY_SUBMISSION_JOB:
      return typeof p.submissionId === 'string' && UUID.test(p.submissionId)
        ? `${CERTIFY_SUBMISSION_JOB}.${p.submissionId.toLowerCase()}`
        : null;
    case REPROBE_JOB:
      return typeof p.day === 'string' && DAY.test(p.day) ? `${REPROBE_JOB}.${p.day}` : null;
    default:
      return null;
  }
}

/**
 * A day's re-probe is one piece of work, so its id is its subject: a second row for the same day
 * (two processes asked at once) is the same job. A certification or a submission is judged again
 * after an inconclusive verdict or a lost job, so each round's id adds the row that asked for it:
 * its creation time (which a restored database does not repeat) and its serial.
 */
export function jobIdentity(row: OutboxJobRow): JobIdentity {
  const subject = jobSubject(row.jobName, row.payload);
  if (subject?.startsWith(`${REPROBE_JOB}.`)) return { subject, id: subject };
  const round = `${row.createdMicros}.${row.id}`;
  // A payload that names no subject cannot be judged (the processor discards it); it still
  // gets an id of its own, so it cannot stand in for a well-formed job.
  const own = subject ?? `${row.jobName.replace(UNSAFE, '_').slice(0, 64)}.row`;
  return { subject: subject ?? `${own}.${round}`, id: `${own}.${round}` };
}
