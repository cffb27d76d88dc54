import { type BeforeApplicationShutdown, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { HUB_CONFIG, type HubConfig, isEmbedded } from '@skillhub/config';
import { BullJobQueue } from './bullmq-job-queue';
import { FallbackJobQueue } from './fallback-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import type { JobQueue } from './job-queue';
import { JOB_QUEUE, PRODUCER_REDIS } from './queue.tokens';
import { createRedisConnection } from './redis-connection';

/**
 * BullMQ on PostgreSQL, where several processes share the work and Redis is required; on the
 * embedded database (one process), BullMQ while Redis answers and this process while it does not.
 */
export function createJobQueue(redis: Redis, config: HubConfig): JobQueue {
  const bull = new BullJobQueue(redis, config);
  if (!isEmbedded(config)) return bull;
  return new FallbackJobQueue(
    bull,
    new InProcessJobQueue({ concurrency: config.CERTIFIER_CONCURRENCY }),
    config.QUEUE_WATCHDOG_MS,
  );
}

/** The producer connection and the job queue; shared by the outbox relay, the processors and the watchdog. */
@Module({
  providers: [
    {
      provide: PRODUCER_REDIS,
      inject: [HUB_CONFIG],
      useFactory: (config: HubConfig) => createRedisConnection(config.REDIS_URL, 'producer'),
    },
    { provide: JOB_QUEUE, inject: [PRODUCER_REDIS, HUB_CONFIG], useFactory: createJobQueue },
  ],
  exports: [PRODUCER_REDIS, JOB_QUEUE],
})
export class JobQueueModule implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(PRODUCER_REDIS) private readonly redis: Redis,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
  ) {}

  /** Running jobs end before the database closes (that happens at application shutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}
