/**
 * The one queue interface the outbox relay, the processors and the watchdog use. Two transports
 * implement it: BullMQ on Redis (required with DATABASE_URL), and this process itself, straight
 * from the outbox (the embedded default while Redis is unreachable).
 */

export type JobTransport = 'bullmq' | 'in-process';

/** A job the outbox hands over. */
export interface QueuedJob {
  /** Unique for ever (see job-identity.ts). */
  id: string;
  /** What it is about; a second job for a subject that has one waiting or running is not added. */
  subject: string;
  queue: string;
  name: string;
  data: unknown;
}

/** What the outbox does with a job's row once the queue is done with it. */
export type JobEnd =
  /** Held by BullMQ, run to its end in this process, or the same work already queued: the row goes. */
  | { outcome: 'done' }
  /** Discarded, or out of attempts, in this process: the row goes and keeps the reason. */
  | { outcome: 'failed'; error: string }
  /** Not taken after all (no free slot, shutting down): the row stays and is handed over again. */
  | { outcome: 'returned' };

/** One run of a job, as a processor sees it. */
export interface JobRun {
  id: string;
  name: string;
  data: unknown;
  /** 1 for the first run. */
  attempt: number;
}

/** Resolves to a short outcome; throws DiscardJobError for a job nothing will ever make work, anything else to retry. */
export type JobHandler = (job: JobRun) => Promise<string>;

/** A job that fails for good (what it names does not exist): not retried. */
export class DiscardJobError extends Error {
  override readonly name = 'DiscardJobError';
}

export interface JobQueue {
  /** Where the jobs handed over now go. */
  readonly transport: JobTransport;
  /** How many jobs it takes now; 0 while it cannot run any (every slot busy, no processor, closed). */
  room(): number;
  /**
   * Takes jobs. Resolves, once they are taken, to each job's end: at once when a durable queue
   * holds it (BullMQ), later when it runs here. Rejects when none was taken (Redis went away):
   * the outbox keeps them.
   */
  add(jobs: readonly QueuedJob[]): Promise<Array<JobEnd | Promise<JobEnd>>>;
  /** Whether a job for `subject` waits, is delayed for a retry, or runs; null when it cannot tell now. */
  hasLiveJob(queue: string, subject: string): Promise<boolean | null>;
  /** The processor's side: runs `handler` for every job of `queue`. */
  consume(queue: string, handler: JobHandler): void;
  /**
   * Stops taking and running jobs; resolves once the running ones ended, or after CLOSE_GRACE_MS
   * without them (their work stays pending, for the watchdog to queue again). Idempotent.
   */
  close(): Promise<void>;
}

/** How long closing a queue waits for its running jobs (and BullMQ for Redis) before it lets go. */
export const CLOSE_GRACE_MS = 10_000;
