/**
 * The BullMQ consumer of the `certification` queue. Thin: decode the job, call the
 * service, and decide: a missing version is discarded (nothing will ever make it
 * certifiable); anything thrown is retried by BullMQ with backoff. Closing waits for
 * in-flight jobs; a process killed mid-job leaves its job stalled, and BullMQ hands
 * it to another worker, where the pending certification is judged again.
 */
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import {
  CERTIFICATION_QUEUE,
  CERTIFY_JOB,
  CERTIFY_SUBMISSION_JOB,
  REPROBE_JOB,
  type CertifyJobPayload,
  type CertifySubmissionJobPayload,
  createRedisConnection,
} from '@skillhub/queue';
import { CertifySkillService } from './certify-skill.service';

const REPROBE_EVERY_MS = 24 * 3600_000;

@Injectable()
export class CertificationProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('CertificationProcessor');
  private worker: Worker | null = null;
  private scheduler: Queue | null = null;
  private connection: Redis | null = null;

  constructor(
    private readonly certifier: CertifySkillService,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.connection = createRedisConnection(this.config.REDIS_URL, 'worker');
    this.worker = new Worker(CERTIFICATION_QUEUE, (job) => this.process(job), {
      connection: this.connection,
      prefix: this.config.REDIS_PREFIX,
      concurrency: this.config.CERTIFIER_CONCURRENCY,
      lockDuration: this.config.CERTIFIER_LOCK_MS,
      stalledInterval: this.config.CERTIFIER_LOCK_MS,
    });
    this.worker.on('error', (err) => this.logger.warn(`queue connection: ${err.message}`));
    // One schedule however many workers start: the scheduler id makes the upsert idempotent.
    this.scheduler = new Queue(CERTIFICATION_QUEUE, { connection: this.connection, prefix: this.config.REDIS_PREFIX });
    this.scheduler.on('error', () => undefined);
    void this.scheduler
      .upsertJobScheduler('reprobe-daily', { every: REPROBE_EVERY_MS }, { name: REPROBE_JOB, data: {} })
      .catch((err: Error) => this.logger.warn(`could not schedule the daily re-probe: ${err.message}`));
    this.worker.on('failed', (job, err) => this.logger.warn(`job ${job?.id} failed: ${err.message}`));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.scheduler?.close();
    this.connection?.disconnect();
  }

  async process(job: Job): Promise<string> {
    const outcome =
      job.name === CERTIFY_JOB
        ? await this.certifier.certify(job.data as CertifyJobPayload)
        : job.name === CERTIFY_SUBMISSION_JOB
          ? await this.certifier.certifySubmission(job.data as CertifySubmissionJobPayload)
          : job.name === REPROBE_JOB
            ? JSON.stringify(await this.certifier.reprobe())
            : null;
    if (outcome === null) throw new UnrecoverableError(`unknown job ${job.name}`);
    if (outcome === 'missing') throw new UnrecoverableError(`job ${job.id}: what it names does not exist`);
    return outcome;
  }
}
