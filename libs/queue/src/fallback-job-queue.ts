/**
 * The embedded default's queue: BullMQ while Redis answers, this process while it does not.
 * The hand-over loses and doubles nothing: a job runs here only from a row the outbox still
 * holds (the relay never hands a row taken here to Redis), and what Redis holds stays there
 * until it returns. Only once Redis has been unreachable for `lostAfterMs` are its jobs taken
 * for lost, so the watchdog queues their work again here; one that Redis still held after all
 * finds its certification judged and stops before reading the bundle.
 */
import { Logger } from '@nestjs/common';
import type { BullJobQueue } from './bullmq-job-queue';
import type { InProcessJobQueue } from './in-process-job-queue';
import type { JobEnd, JobHandler, JobQueue, JobTransport, QueuedJob } from './job-queue';

/**
 * A Redis that stops answering for less than this is waited for (the producer connection gives
 * up connecting after 2 s), so a blip does not move work between transports, nor does a start
 * while the connection is still being made.
 */
const HAND_OVER_AFTER_MS = 2_000;

export class FallbackJobQueue implements JobQueue {
  private readonly logger = new Logger('JobQueue');
  private last: JobTransport = 'bullmq';

  constructor(
    private readonly redis: BullJobQueue,
    private readonly local: InProcessJobQueue,
    private readonly lostAfterMs: number,
  ) {}

  get transport(): JobTransport {
    return this.current() === this.local ? 'in-process' : 'bullmq';
  }

  room(): number {
    return this.current()?.room() ?? 0;
  }

  add(jobs: readonly QueuedJob[]): Promise<Array<JobEnd | Promise<JobEnd>>> {
    return (this.current() ?? this.redis).add(jobs);
  }

  async hasLiveJob(queue: string, subject: string): Promise<boolean | null> {
    if (this.local.runs(queue, subject)) return true;
    const held = await this.redis.hasLiveJob(queue, subject);
    if (held !== null) return held;
    return this.redis.unreachableFor() >= this.lostAfterMs ? false : null;
  }

  consume(queue: string, handler: JobHandler): void {
    this.redis.consume(queue, handler);
    this.local.consume(queue, handler);
  }

  async close(): Promise<void> {
    await Promise.all([this.redis.close(), this.local.close()]);
  }

  /** BullMQ while Redis answers, this process once it has not for a while, neither in between. */
  private current(): JobQueue | null {
    if (this.redis.reachable()) {
      if (this.last === 'in-process') this.logger.log('Redis is reachable: certification jobs go to BullMQ again');
      this.last = 'bullmq';
      return this.redis;
    }
    if (this.redis.unreachableFor() < HAND_OVER_AFTER_MS) return null;
    if (this.last === 'bullmq') {
      this.logger.warn('Redis is unreachable: certification jobs run in this process, straight from the outbox');
    }
    this.last = 'in-process';
    return this.local;
  }
}
