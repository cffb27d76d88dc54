import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { createRedisConnection, waitUntilReady } from '@skillhub/queue';

const REDIS_READY_TIMEOUT_MS = 10_000;

/**
 * Start-up check: the worker refuses to run on a database that lacks the schema
 * or without Redis, and says which one is wrong.
 */
@Injectable()
export class WorkerConnectionCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('certifier-worker');

  constructor(
    private readonly dataSource: DataSource,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (await this.dataSource.showMigrations()) {
      throw new Error('the database has pending migrations: run `npm run migration:run` first');
    }
    const redis = createRedisConnection(this.config.REDIS_URL, 'producer');
    try {
      await waitUntilReady(redis, REDIS_READY_TIMEOUT_MS);
    } catch (err) {
      throw new Error(`Redis at REDIS_URL is unreachable: ${(err as Error).message}`, { cause: err });
    } finally {
      redis.disconnect();
    }
    this.logger.log(`connected to PostgreSQL and Redis (queue prefix "${this.config.REDIS_PREFIX}")`);
  }
}
