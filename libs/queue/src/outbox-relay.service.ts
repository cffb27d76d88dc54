import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { backoffDelayMs, withTimeout } from '@skillhub/retry';
import { jobIdentity, type OutboxJobRow } from './job-identity';
import type { JobEnd, JobQueue, JobTransport, QueuedJob } from './job-queue';
import { JOB_QUEUE } from './queue.tokens';

const BATCH = 100;
/**
 * While Redis is unreachable a delivery is tried again after a jittered backoff whose ceiling
 * starts at twice the poll (at least MIN_BACKOFF_BASE_MS) and stops growing at MAX_BACKOFF_MS.
 */
const MIN_BACKOFF_BASE_MS = 250;
const MAX_BACKOFF_MS = 5_000;
/** How long a shutdown waits for running jobs and the delivery in flight. */
const SHUTDOWN_GRACE_MS = 20_000;

export interface RelayState {
  /** Last delivery failure, null after a success. */
  lastError: string | null;
  dispatched: number;
  /** Where jobs go now: BullMQ, or this process (the embedded default while Redis is unreachable). */
  transport: JobTransport;
}

interface Row extends OutboxJobRow {
  queue: string;
}

/**
 * Moves committed outbox rows into the job queue. It holds no transaction while it talks to
 * Redis (the embedded database has one connection). A row is let go (`dispatched_at`) only
 * once the queue is done with it: as soon as BullMQ holds the job, or when a job run in this
 * process has ended; until then no other round hands it over again, so a hand-over between
 * the two loses and doubles nothing. Job ids come from the row's subject and round
 * (job-identity.ts), so two relays, or a crash between handing over and marking, add a job once.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  /** Rows whose jobs run in this process, until their end is written. */
  private readonly running = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<number> | null = null;
  private delayMs: number;
  /** Deliveries failed in a row: the backoff grows with them. */
  private failures = 0;
  private stopped = false;
  /** A nudge came while a delivery was running: the next one starts at once. */
  private again = false;
  readonly state: RelayState;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {
    this.delayMs = config.OUTBOX_POLL_MS;
    this.state = { lastError: null, dispatched: 0, transport: queue.transport };
  }

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  /**
   * Running jobs end (or go back to the outbox) before their rows are written for the last time,
   * within SHUTDOWN_GRACE_MS: a shutdown that waits longer (a job or a delivery that does not
   * end) lets go, and what it let go stays in the outbox or pending, for the watchdog of the
   * next start to queue again.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const drained = (async () => {
      await this.inFlight?.catch(() => undefined);
      await this.queue.close();
      await Promise.all(this.running.values());
    })();
    try {
      await withTimeout(drained, SHUTDOWN_GRACE_MS);
    } catch {
      this.logger.warn(
        `shutdown: ${this.running.size} job(s) had not ended after ${SHUTDOWN_GRACE_MS} ms; ` +
          'their work stays queued for the next start',
      );
    }
  }

  /** Asks for a delivery soon (after a publish, or a job that ended here), without waiting for it. */
  nudge(): void {
    if (this.inFlight) this.again = true;
    else this.schedule(0);
  }

  /** Delivers every due row it can; resolves to how many were delivered. */
  flush(): Promise<number> {
    this.inFlight ??= this.deliver().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush()
        .catch((err: unknown) => this.logger.error(`outbox relay failed: ${(err as Error).message}`))
        .finally(() => {
          const soon = this.again;
          this.again = false;
          this.schedule(soon ? 0 : this.delayMs);
        });
    }, ms);
  }

  private async deliver(): Promise<number> {
    let delivered = 0;
    for (;;) {
      if (this.stopped) return delivered;
      const room = Math.min(this.queue.room(), BATCH);
      this.state.transport = this.queue.transport;
      if (room === 0) return delivered;
      const rows = await this.dueRows(room);
      if (!rows.length) return delivered;
      let ends: Array<JobEnd | Promise<JobEnd>>;
      try {
        ends = await this.queue.add(rows.map(toJob));
      } catch (err) {
        await this.recordFailure(rows, err as Error);
        return delivered;
      }
      const done: string[] = [];
      let taken = 0;
      rows.forEach((row, i) => {
        const end = ends[i]!;
        if (end instanceof Promise) this.follow(row, end);
        else if (end.outcome === 'done') done.push(row.id);
        else if (end.outcome === 'failed') this.follow(row, Promise.resolve(end));
        if (end instanceof Promise || end.outcome !== 'returned') taken++;
      });
      if (done.length) {
        await this.dataSource.query(
          `UPDATE "outbox" SET "dispatched_at" = now() WHERE "id" = ANY($1::bigint[]) AND "dispatched_at" IS NULL`,
          [done],
        );
      }
      delivered += taken;
      this.state.dispatched += taken;
      if (this.state.lastError && this.queue.transport === 'bullmq') {
        this.logger.log('Redis is reachable again: outbox delivery resumed');
      }
      this.state.lastError = null;
      this.failures = 0;
      this.delayMs = this.config.OUTBOX_POLL_MS;
      if (rows.length < room) return delivered;
    }
  }

  /** Due rows, oldest first, leaving out those whose jobs run here. */
  private dueRows(limit: number): Promise<Row[]> {
    return this.dataSource.query(
      `SELECT "id"::text AS "id", "queue", "job_name" AS "jobName", "payload",
              floor(extract(epoch FROM "created_at") * 1000000)::bigint::text AS "createdMicros"
       FROM "outbox"
       WHERE "dispatched_at" IS NULL AND "available_at" <= now() AND NOT ("id" = ANY($1::bigint[]))
       ORDER BY "id" LIMIT $2`,
      [[...this.running.keys()], limit],
    );
  }

  /** Writes a job's end on its row once it comes; the row stays out of other rounds until then. */
  private follow(row: Row, end: Promise<JobEnd>): void {
    const written = end
      .then(async (result) => {
        if (result.outcome === 'returned') return;
        if (result.outcome === 'failed') this.logger.warn(`job ${toJob(row).id} failed for good: ${result.error}`);
        await this.dataSource.query(
          `UPDATE "outbox" SET "dispatched_at" = now(), "last_error" = $2 WHERE "id" = $1 AND "dispatched_at" IS NULL`,
          [row.id, result.outcome === 'failed' ? result.error.slice(0, 1000) : null],
        );
      })
      .catch((err: Error) => this.logger.error(`outbox row ${row.id}: its job's end was not written: ${err.message}`))
      .finally(() => {
        this.running.delete(row.id);
        this.nudge();
      });
    this.running.set(row.id, written);
  }

  private async recordFailure(batch: Row[], err: Error): Promise<void> {
    if (!this.state.lastError) {
      this.logger.warn(`cannot reach Redis, jobs stay in the outbox until it returns: ${err.message}`);
    }
    this.state.lastError = err.message.slice(0, 1000);
    // Full jitter keeps the relays of several hub processes from retrying Redis in step.
    this.delayMs = backoffDelayMs(this.failures++, {
      baseDelayMs: Math.max(2 * this.config.OUTBOX_POLL_MS, MIN_BACKOFF_BASE_MS),
      maxDelayMs: MAX_BACKOFF_MS,
    });
    await this.dataSource.query(
      `UPDATE "outbox" SET "attempts" = "attempts" + 1, "last_error" = $2 WHERE "id" = ANY($1::bigint[])`,
      [batch.map((r) => r.id), this.state.lastError],
    );
  }
}

function toJob(row: Row): QueuedJob {
  const { id, subject } = jobIdentity(row);
  return { id, subject, queue: row.queue, name: row.jobName, data: row.payload };
}
