import { type DynamicModule, Module } from '@nestjs/common';
import { QueueModule } from '@skillhub/queue';
import { DISK_RESERVE, type DiskReserve } from '../common/disk-reserve';
import { HealthController } from './health.controller';

@Module({})
export class HealthModule {
  /** `disk`: the embedded database's disk, whose state readiness reports (null for PostgreSQL or in memory). */
  static forRoot(disk: DiskReserve | null): DynamicModule {
    return {
      module: HealthModule,
      imports: [QueueModule],
      controllers: [HealthController],
      providers: [{ provide: DISK_RESERVE, useValue: disk }],
      exports: [DISK_RESERVE],
    };
  }
}
