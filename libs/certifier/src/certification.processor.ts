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
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { CERTIFICATION_QUEUE, CERTIFY_JOB, type CertifyJobPayload, createRedisConnection } from '@skillhub/queue';
import { CertifySkillService } from './certify-skill.service';

@Injectable()
export class CertificationProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('CertificationProcessor');
  private worker: Worker | null = null;
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
    });
    this.worker.on('error', (err) => this.logger.warn(`queue connection: ${err.message}`));
    this.worker.on('failed', (job, err) => this.logger.warn(`job ${job?.id} failed: ${err.message}`));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    this.connection?.disconnect();
  }

  async process(job: Job): Promise<string> {
    if (job.name !== CERTIFY_JOB) throw new UnrecoverableError(`unknown job ${job.name}`);
    const outcome = await this.certifier.certify(job.data as CertifyJobPayload);
    if (outcome === 'missing')
      throw new UnrecoverableError(`skill version ${(job.data as CertifyJobPayload).skillVersionId} does not exist`);
    return outcome;
  }
}
