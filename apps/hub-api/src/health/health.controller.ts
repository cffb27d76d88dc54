import { Controller, Get, Inject, Res } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { HUB_CONFIG, type HubConfig, isEmbedded } from '@skillhub/config';
import { OutboxRelay, PRODUCER_REDIS } from '@skillhub/queue';
import { OutboxMessage } from '@skillhub/database';
import { ApiProblems } from '../common/dto/api-problems.decorator';
import { withTimeout } from '@skillhub/retry';
import { HUB_VERSION } from '../hub-version';

class HealthResponseDto {
  @ApiProperty({ enum: ['ok'], example: 'ok' }) status: 'ok';
  @ApiProperty({ description: "The hub's version.", example: '0.1.0' }) version: string;
}

class DependencyStateDto {
  @ApiProperty({ enum: ['up', 'down'], example: 'up' }) status: 'up' | 'down';
  @ApiPropertyOptional({ description: 'Why it is down.', example: 'unreachable; jobs wait in the outbox' })
  detail?: string;
}

class ReadinessResponseDto {
  @ApiProperty({ enum: ['ready', 'degraded', 'unavailable'], example: 'ready' })
  status: 'ready' | 'degraded' | 'unavailable';
  @ApiProperty({ enum: ['embedded', 'postgres'], example: 'postgres' }) mode: 'embedded' | 'postgres';
  @ApiProperty({ type: DependencyStateDto }) database: DependencyStateDto;
  @ApiProperty({
    type: DependencyStateDto,
    description: 'Down means publishes still succeed; their jobs wait in the outbox.',
  })
  redis: DependencyStateDto;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Jobs written but not yet handed to the queue; null when the database did not answer.',
    example: 0,
  })
  outbox_pending: number | null;
  @ApiProperty({
    enum: ['bullmq', 'in-process'],
    description: 'Where certification jobs run now: on Redis, or (embedded default without Redis) in this process.',
    example: 'bullmq',
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
  @ApiProblems()
  health(): HealthResponseDto {
    return { status: 'ok', version: HUB_VERSION };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database and Redis, reported apart. 503 only when the database is down.' })
  @ApiOkResponse({
    type: ReadinessResponseDto,
    description: 'Ready, or degraded (Redis down, jobs wait in the outbox).',
  })
  @ApiServiceUnavailableResponse({ type: ReadinessResponseDto, description: 'The database is down: the same report.' })
  @ApiProblems()
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
