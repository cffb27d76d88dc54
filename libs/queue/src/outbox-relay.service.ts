import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { DataSource, In, IsNull } from 'typeorm';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { OutboxMessage } from '@skillhub/registry';
import { PRODUCER_REDIS } from './queue.tokens';
import { defaultJobOptions } from './job-options';

const BATCH = 100;
const MAX_BACKOFF_MS = 5_000;

export interface RelayState {
  /** Last delivery failure, null after a success. */
  lastError: string | null;
  dispatched: number;
}

/**
 * Moves committed outbox rows into BullMQ. It holds no transaction while it talks to
 * Redis (the embedded database has one connection); a row is marked dispatched only
 * after BullMQ accepted it, and the job id is derived from the row, so two relays or
 * a crash between the two steps deliver a job once.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly queues = new Map<string, Queue>();
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<number> | null = null;
  private delayMs: number;
  private stopped = false;
  readonly state: RelayState = { lastError: null, dispatched: 0 };

  constructor(
    private readonly dataSource: DataSource,
    @Inject(PRODUCER_REDIS) private readonly redis: Redis,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {
    this.delayMs = config.OUTBOX_POLL_MS;
  }

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.inFlight?.catch(() => undefined);
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }

  /** Asks for a delivery soon (after a publish), without waiting for it. */
  nudge(): void {
    if (!this.inFlight) this.schedule(0);
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
        .finally(() => this.schedule(this.delayMs));
    }, ms);
  }

  private async deliver(): Promise<number> {
    const repo = this.dataSource.getRepository(OutboxMessage);
    let delivered = 0;
    for (;;) {
      const rows = await repo
        .createQueryBuilder('o')
        .where('o.dispatched_at IS NULL AND o.available_at <= now()')
        .orderBy('o.id')
        .limit(BATCH)
        .getMany();
      const byQueue = new Map<string, OutboxMessage[]>();
      for (const row of rows) byQueue.set(row.queue, [...(byQueue.get(row.queue) ?? []), row]);
      for (const [queue, batch] of byQueue) {
        try {
          await this.queue(queue).addBulk(
            batch.map((row) => ({
              name: row.jobName,
              data: row.payload,
              opts: { ...defaultJobOptions, jobId: `outbox-${row.id}` },
            })),
          );
        } catch (err) {
          await this.recordFailure(batch, err as Error);
          return delivered;
        }
        await repo.update({ id: In(batch.map((r) => r.id)), dispatchedAt: IsNull() }, { dispatchedAt: new Date() });
        delivered += batch.length;
        this.state.dispatched += batch.length;
      }
      if (this.state.lastError) this.logger.log('Redis is reachable again: outbox delivery resumed');
      this.state.lastError = null;
      this.delayMs = this.config.OUTBOX_POLL_MS;
      if (rows.length < BATCH) return delivered;
    }
  }

  private async recordFailure(batch: OutboxMessage[], err: Error): Promise<void> {
    if (!this.state.lastError) {
      this.logger.warn(`cannot reach Redis, jobs stay in the outbox until it returns: ${err.message}`);
    }
    this.state.lastError = err.message.slice(0, 1000);
    this.delayMs = Math.min(Math.max(this.delayMs * 2, 250), MAX_BACKOFF_MS);
    await this.dataSource
      .getRepository(OutboxMessage)
      .update({ id: In(batch.map((r) => r.id)) }, { attempts: () => 'attempts + 1', lastError: this.state.lastError });
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.redis, prefix: this.config.REDIS_PREFIX });
      queue.on('error', () => undefined); // surfaced through deliver() and readiness
      this.queues.set(name, queue);
    }
    return queue;
  }
}
