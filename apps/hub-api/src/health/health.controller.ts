import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { HUB_CONFIG, type HubConfig, isEmbedded } from '@skillhub/config';
import { OutboxRelay, PRODUCER_REDIS } from '@skillhub/queue';
import { OutboxMessage } from '@skillhub/database';
import { withTimeout } from '../common/with-timeout';
import { HUB_VERSION } from '../hub-version';

class HealthResponseDto {
  @ApiProperty({ example: 'ok' }) status: 'ok';
  @ApiProperty() version: string;
}

class DependencyStateDto {
  @ApiProperty({ enum: ['up', 'down'] }) status: 'up' | 'down';
  @ApiProperty({ required: false }) detail?: string;
}

class ReadinessResponseDto {
  @ApiProperty({ enum: ['ready', 'degraded', 'unavailable'] }) status: 'ready' | 'degraded' | 'unavailable';
  @ApiProperty({ enum: ['embedded', 'postgres'] }) mode: 'embedded' | 'postgres';
  @ApiProperty() database: DependencyStateDto;
  @ApiProperty({ description: 'Down means publishes still succeed; their jobs wait in the outbox.' })
  redis: DependencyStateDto;
  @ApiProperty({ description: 'Jobs written but not yet handed to the queue.' }) outbox_pending: number | null;
  @ApiProperty({
    enum: ['bullmq', 'in-process'],
    description: 'Where certification jobs run now: on Redis, or (embedded default without Redis) in this process.',
  })
  queue: 'bullmq' | 'in-process';
}

const PROBE_TIMEOUT_MS = 1_500;

@ApiTags('health')
@Controller('api/v1/health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly relay: OutboxRelay,
    @Inject(PRODUCER_REDIS) private readonly redis: Redis,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Liveness (Kazma-compatible)' })
  @ApiOkResponse({ type: HealthResponseDto })
  health(): HealthResponseDto {
    return { status: 'ok', version: HUB_VERSION };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database and Redis, reported apart. 503 only when the database is down.' })
  @ApiOkResponse({ type: ReadinessResponseDto })
  @ApiServiceUnavailableResponse({ type: ReadinessResponseDto })
  async ready(@Res({ passthrough: true }) res: Response): Promise<ReadinessResponseDto> {
    const [pending, pong] = await Promise.allSettled([
      withTimeout(
        this.dataSource
          .getRepository(OutboxMessage)
          .createQueryBuilder('o')
          .where('o.dispatched_at IS NULL')
          .getCount(),
        PROBE_TIMEOUT_MS,
      ),
      withTimeout(this.redis.ping(), PROBE_TIMEOUT_MS),
    ]);
    const database: DependencyStateDto =
      pending.status === 'fulfilled' ? { status: 'up' } : { status: 'down', detail: 'the database did not answer' };
    const redis: DependencyStateDto =
      pong.status === 'fulfilled'
        ? { status: 'up' }
        : {
            status: 'down',
            detail: this.relay.state.lastError ? 'unreachable; jobs wait in the outbox' : 'unreachable',
          };
    // Without Redis the embedded default certifies in its own process: nothing is waiting, so nothing is degraded.
    const queue = this.relay.state.transport;
    const degraded = redis.status === 'down' && queue === 'bullmq';
    const status = database.status === 'down' ? 'unavailable' : degraded ? 'degraded' : 'ready';
    res.status(status === 'unavailable' ? 503 : 200);
    return {
      status,
      mode: isEmbedded(this.config) ? 'embedded' : 'postgres',
      database,
      redis,
      outbox_pending: pending.status === 'fulfilled' ? pending.value : null,
      queue,
    };
  }
}
