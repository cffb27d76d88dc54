/** The job queue on Redis (BullMQ): what every hub on PostgreSQL uses, and the embedded default while Redis answers. */
import { Logger } from '@nestjs/common';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { HubConfig } from '@skillhub/config';
import { withTimeout } from '@skillhub/retry';
import { defaultJobOptions } from './job-options';
import {
  CLOSE_GRACE_MS,
  DiscardJobError,
  type JobEnd,
  type JobHandler,
  type JobQueue,
  type QueuedJob,
} from './job-queue';
import { createRedisConnection } from './redis-connection';

/** Jobs handed to Redis in one round trip. */
const BATCH = 100;
/** BullMQ states in which a job will still run. */
const LIVE_STATES: ReadonlySet<string> = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);
/** The daily re-probe's BullMQ scheduler, before the re-probe came from the outbox like every other job. */
const LEGACY_REPROBE_SCHEDULER = 'reprobe-daily';
/** A lost connection is reported once a minute, not at every reconnection attempt. */
const CONNECTION_LOG_EVERY_MS = 60_000;

type Settings = Pick<HubConfig, 'REDIS_URL' | 'REDIS_PREFIX' | 'CERTIFIER_CONCURRENCY' | 'CERTIFIER_LOCK_MS'>;

export class BullJobQueue implements JobQueue {
  readonly transport = 'bullmq';
  private readonly logger = new Logger('JobQueue');
  private readonly queues = new Map<string, Queue>();
  private readonly workers: Worker[] = [];
  /** The runs of this process's workers. */
  private readonly running = new Set<Promise<string>>();
  private workerConnection: Redis | null = null;
  private downSince: number | null;
  private lastConnectionLog = 0;
  private closing: Promise<void> | null = null;

  /** `redis` is a producer connection (it fails fast while Redis is down); it stays the caller's to close. */
  constructor(
    private readonly redis: Redis,
    private readonly settings: Settings,
  ) {
    this.downSince = redis.status === 'ready' ? null : Date.now();
    redis.on('ready', () => (this.downSince = null));
    redis.on('close', () => (this.downSince ??= Date.now()));
  }

  /** Whether Redis answers now. */
  reachable(): boolean {
    return this.redis.status === 'ready';
  }

  /** How long Redis has been unreachable, in ms (0 while it answers). */
  unreachableFor(): number {
    return this.downSince === null ? 0 : Date.now() - this.downSince;
  }

  room(): number {
    // While Redis is down, add() fails at once (no offline queue) and the outbox keeps the rows.
    return this.closing ? 0 : BATCH;
  }

  async add(jobs: readonly QueuedJob[]): Promise<JobEnd[]> {
    // BullMQ would wait for a connection that is not ready, however long it takes.
    if (!this.reachable()) throw new Error(`Redis is unreachable (connection ${this.redis.status})`);
    const byQueue = new Map<string, QueuedJob[]>();
    for (const job of jobs) byQueue.set(job.queue, [...(byQueue.get(job.queue) ?? []), job]);
    for (const [name, batch] of byQueue) {
      // A job whose id exists (the same row delivered twice) is not added again, nor one whose
      // subject has a job waiting or running (the same work queued twice); once that job has
      // finished, a new round of the subject is added.
      await this.queue(name).addBulk(
        batch.map((job) => ({
          name: job.name,
          data: job.data,
          opts: { ...defaultJobOptions, jobId: job.id, deduplication: { id: job.subject } },
        })),
      );
    }
    return jobs.map(() => ({ outcome: 'done' }));
  }

  async hasLiveJob(queue: string, subject: string): Promise<boolean | null> {
    if (!this.reachable()) return null;
    try {
      const id = await this.queue(queue).getDeduplicationJobId(subject);
      return id !== null && LIVE_STATES.has(await this.queue(queue).getJobState(id));
    } catch {
      return null;
    }
  }

  /** Starts once Redis first answers: a BullMQ worker made before would wait for it, and so would closing it. */
  consume(queue: string, handler: JobHandler): void {
    if (this.reachable()) this.startWorker(queue, handler);
    else this.redis.once('ready', () => this.startWorker(queue, handler));
  }

  private startWorker(queue: string, handler: JobHandler): void {
    if (this.closing) return;
    this.workerConnection ??= createRedisConnection(this.settings.REDIS_URL, 'worker');
    const worker = new Worker(
      queue,
      async (job) => {
        const run = handler({ id: job.id ?? '', name: job.name, data: job.data, attempt: job.attemptsMade + 1 });
        this.running.add(run);
        try {
          return await run;
        } catch (err) {
          throw err instanceof DiscardJobError ? new UnrecoverableError(err.message) : err;
        } finally {
          this.running.delete(run);
        }
      },
      {
        connection: this.workerConnection,
        prefix: this.settings.REDIS_PREFIX,
        concurrency: this.settings.CERTIFIER_CONCURRENCY,
        lockDuration: this.settings.CERTIFIER_LOCK_MS,
        stalledInterval: this.settings.CERTIFIER_LOCK_MS,
      },
    );
    worker.on('error', (err) => this.connectionTrouble(err));
    worker.on('failed', (job, err) => this.logger.warn(`job ${job?.id} failed: ${err.message}`));
    this.workers.push(worker);
    // Left running, an earlier version's scheduler would add a second re-probe every day.
    void this.queue(queue)
      .removeJobScheduler(LEGACY_REPROBE_SCHEDULER)
      .catch(() => undefined); // tried again at the next start
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      // BullMQ's own close waits for Redis to take the last results; while Redis is unreachable
      // it would wait for ever. Then the running jobs end here, and BullMQ runs them again once
      // Redis is back (their locks ran out), where they find their work done.
      // A worker whose connection came back after an outage can also wait for ever, so a close
      // that takes longer than the grace drops the connections once the running jobs have ended:
      // a result Redis did not take is a job that runs once more and stops at once, finding its
      // work done.
      const jobsEnded = () => withTimeout(Promise.allSettled(this.running), CLOSE_GRACE_MS).catch(() => undefined);
      if (!this.reachable()) await jobsEnded();
      const graceful = Promise.all([
        ...this.workers.map((w) => w.close(!this.reachable())),
        ...[...this.queues.values()].map((q) => q.close()),
      ]);
      try {
        await withTimeout(graceful, CLOSE_GRACE_MS);
      } catch {
        this.logger.warn(`BullMQ did not close within ${CLOSE_GRACE_MS} ms; closing it by force`);
        await jobsEnded();
        await Promise.allSettled([...this.workers, ...this.queues.values()].map((q) => q.disconnect()));
      }
      this.workerConnection?.disconnect();
    })();
    return this.closing;
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.redis, prefix: this.settings.REDIS_PREFIX });
      queue.on('error', () => undefined); // surfaced through add(), hasLiveJob() and readiness
      this.queues.set(name, queue);
    }
    return queue;
  }

  private connectionTrouble(err: Error): void {
    const now = Date.now();
    if (now - this.lastConnectionLog < CONNECTION_LOG_EVERY_MS) return;
    this.lastConnectionLog = now;
    this.logger.warn(`queue connection: ${err.message}`);
  }
}
