/**
 * The job queue of the embedded default while Redis is unreachable: jobs run in this process,
 * straight from the outbox. Nothing is held in memory that the outbox does not also hold: a
 * job's row is let go only when the job has ended, so a process stopped mid-job runs it again
 * on its next start. Attempts and backoff are BullMQ's own (job-options.ts).
 */
import { Logger } from '@nestjs/common';
import { defaultJobOptions } from './job-options';
import { withTimeout } from '@skillhub/retry';
import {
  CLOSE_GRACE_MS,
  DiscardJobError,
  type JobEnd,
  type JobHandler,
  type JobQueue,
  type QueuedJob,
} from './job-queue';

export interface InProcessOptions {
  /** Jobs run at once. */
  concurrency: number;
  /** Runs of a job before it fails for good. */
  attempts?: number;
  /** Wait before the second run, doubled before each next one. */
  backoffMs?: number;
}

const RETURNED: JobEnd = { outcome: 'returned' };
const DONE: JobEnd = { outcome: 'done' };

export class InProcessJobQueue implements JobQueue {
  readonly transport = 'in-process';
  private readonly logger = new Logger('JobQueue');
  private readonly handlers = new Map<string, JobHandler>();
  /** The subjects of the jobs taken (running, or waiting to retry), by queue. */
  private readonly live = new Set<string>();
  private readonly ends = new Set<Promise<JobEnd>>();
  /** Wakes the jobs waiting to retry, so closing does not wait out their backoff. */
  private readonly wakers = new Set<() => void>();
  private readonly attempts: number;
  private readonly backoffMs: number;
  private closing: Promise<void> | null = null;

  constructor(private readonly options: InProcessOptions) {
    const backoff = defaultJobOptions.backoff;
    this.attempts = options.attempts ?? defaultJobOptions.attempts ?? 1;
    this.backoffMs = options.backoffMs ?? (typeof backoff === 'object' ? (backoff.delay ?? 0) : (backoff ?? 0));
  }

  room(): number {
    if (this.closing || this.handlers.size === 0) return 0;
    return Math.max(0, this.options.concurrency - this.live.size);
  }

  add(jobs: readonly QueuedJob[]): Promise<Array<JobEnd | Promise<JobEnd>>> {
    return Promise.resolve(jobs.map((job) => this.take(job)));
  }

  hasLiveJob(queue: string, subject: string): Promise<boolean> {
    return Promise.resolve(this.runs(queue, subject));
  }

  /** Whether a job for `subject` was taken here and has not ended. */
  runs(queue: string, subject: string): boolean {
    return this.live.has(key(queue, subject));
  }

  consume(queue: string, handler: JobHandler): void {
    this.handlers.set(queue, handler);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const wake of this.wakers) wake();
      await withTimeout(Promise.all(this.ends), CLOSE_GRACE_MS).catch(() =>
        this.logger.warn(`${this.ends.size} job(s) still ran ${CLOSE_GRACE_MS} ms into closing; they are let go`),
      );
    })();
    return this.closing;
  }

  private take(job: QueuedJob): JobEnd | Promise<JobEnd> {
    const handler = this.handlers.get(job.queue);
    if (!handler || this.closing) return RETURNED;
    const k = key(job.queue, job.subject);
    // The same work already runs here: like BullMQ's deduplication, the second is not added.
    if (this.live.has(k)) return DONE;
    if (this.live.size >= this.options.concurrency) return RETURNED;
    this.live.add(k);
    const end = this.run(job, handler).finally(() => {
      this.live.delete(k);
      this.ends.delete(end);
    });
    this.ends.add(end);
    return end;
  }

  private async run(job: QueuedJob, handler: JobHandler): Promise<JobEnd> {
    for (let attempt = 1; ; attempt++) {
      try {
        await handler({ id: job.id, name: job.name, data: job.data, attempt });
        return DONE;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        if (err instanceof DiscardJobError) return { outcome: 'failed', error: message };
        if (attempt >= this.attempts) return { outcome: 'failed', error: `failed ${attempt} times: ${message}` };
        this.logger.warn(`job ${job.id} failed (attempt ${attempt} of ${this.attempts}): ${message}`);
        if (!(await this.pause(this.backoffMs * 2 ** (attempt - 1)))) return RETURNED;
      }
    }
  }

  /** Resolves to false when closing cut the wait short (the job goes back to the outbox). */
  private pause(ms: number): Promise<boolean> {
    if (this.closing) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.wakers.delete(wake);
        resolve(true);
      }, ms);
      this.wakers.add(wake);
    });
  }
}

const key = (queue: string, subject: string): string => `${queue}\u0000${subject}`;
