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
import { HUB_CONFIG, type HubConfig, isEmbedded } from '@skillhub/config';
import { OutboxRelay, PRODUCER_REDIS } from '@skillhub/queue';
import { PendingWorkRepository } from '@skillhub/database';
import { ApiProblems } from '../common/dto/api-problems.decorator';
import { withTimeout } from '@skillhub/retry';
import { HUB_VERSION } from '../hub-version';
import { DISK_RESERVE, type DiskReserve } from '../common/disk-reserve';

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
  @ApiPropertyOptional({
    type: DependencyStateDto,
    description:
      "The embedded database's disk (absent otherwise). Down means writes get 503 until its operator makes room (HUB_DATA_DIR_RESERVE_MB); reads go on.",
  })
  storage?: DependencyStateDto;
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
    private readonly work: PendingWorkRepository,
    private readonly relay: OutboxRelay,
    @Inject(PRODUCER_REDIS) private readonly redis: Redis,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
    @Inject(DISK_RESERVE) private readonly disk: DiskReserve | null,
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
    description: 'Ready, or degraded (Redis down, jobs wait in the outbox; or the disk low, writes refused).',
  })
  @ApiServiceUnavailableResponse({ type: ReadinessResponseDto, description: 'The database is down: the same report.' })
  @ApiProblems()
  async ready(@Res({ passthrough: true }) res: Response): Promise<ReadinessResponseDto> {
    const [pending, pong] = await Promise.allSettled([
      withTimeout(this.work.undelivered(), PROBE_TIMEOUT_MS),
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
    const disk = this.disk?.state();
    const storage: DependencyStateDto | undefined =
      disk &&
      (disk.low
        ? {
            status: 'down',
            detail: `${disk.freeMiB} MiB free, under the ${disk.reserveMiB} MiB kept: writes are refused`,
          }
        : { status: 'up' });
    const degraded = (redis.status === 'down' && queue === 'bullmq') || storage?.status === 'down';
    const status = database.status === 'down' ? 'unavailable' : degraded ? 'degraded' : 'ready';
    res.status(status === 'unavailable' ? 503 : 200);
    return {
      status,
      mode: isEmbedded(this.config) ? 'embedded' : 'postgres',
      database,
      redis,
      ...(storage && { storage }),
      outbox_pending: pending.status === 'fulfilled' ? pending.value : null,
      queue,
    };
  }
}
