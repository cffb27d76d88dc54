import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CertifierModule } from '@skillhub/certifier';
import { ConfigModule, type HubConfig } from '@skillhub/config';
import { buildDataSourceOptions } from '@skillhub/database';
import { WorkerConnectionCheck } from './worker-connection-check.service';
import { WorkerMetricsServer } from './worker-metrics.server';

/** The certifier's process: one database pool, the certification queue's consumer, and an optional metrics port. */
@Module({})
export class CertifierWorkerModule {
  static forRoot(config: HubConfig, databaseUrl: string): DynamicModule {
    return {
      module: CertifierWorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot(buildDataSourceOptions(databaseUrl)),
        CertifierModule.forRoot({ consume: true }),
      ],
      providers: [WorkerConnectionCheck, WorkerMetricsServer],
    };
  }
}
