import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { OutboxRelay } from './outbox-relay.service';
import { PRODUCER_REDIS } from './queue.tokens';
import { createRedisConnection } from './redis-connection';

/** The outbox relay and the producer connection it uses; imported by hub-api. */
@Module({
  providers: [
    {
      provide: PRODUCER_REDIS,
      inject: [HUB_CONFIG],
      useFactory: (config: HubConfig) => createRedisConnection(config.REDIS_URL, 'producer'),
    },
    OutboxRelay,
  ],
  exports: [PRODUCER_REDIS, OutboxRelay],
})
export class QueueModule implements OnApplicationShutdown {
  constructor(@Inject(PRODUCER_REDIS) private readonly redis: Redis) {}

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}
