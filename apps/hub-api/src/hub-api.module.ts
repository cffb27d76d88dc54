import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CertifierModule } from '@skillhub/certifier';
import { ConfigModule, type HubConfig } from '@skillhub/config';
import { buildDataSourceOptions, DatabaseModule } from '@skillhub/database';
import { HubTrustModule } from '@skillhub/trust';
import { AuthModule } from './auth/auth.module';
import { BadgesModule } from './badges/badges.module';
import { CertificationsModule } from './certifications/certifications.module';
import { DiskReserve } from './common/disk-reserve';
import { HealthModule } from './health/health.module';
import { McpRegistryModule } from './mcp-registry/mcp-registry.module';
import { MetricsModule } from './metrics/metrics.module';
import { SearchModule } from './search/search.module';
import { SkillsModule } from './skills/skills.module';
import { SubmissionsModule } from './submissions/submissions.module';
import { TokensModule } from './tokens/tokens.module';
import { TrustModule } from './trust/trust.module';
import { WebModule } from './web/web.module';

export interface DatabaseEndpoint {
  url: string;
  /** The embedded database: one connection, migrations applied at start. */
  embedded: boolean;
  /** Stops the embedded server; called after every module closed its connections. */
  stop?: () => Promise<void>;
  /** The embedded database's folder on disk (none for one in memory): its free space is kept (disk-reserve.ts). */
  dataDir?: string;
}

const DATABASE_ENDPOINT = Symbol('DATABASE_ENDPOINT');

/**
 * The root module. On the embedded database the certification queue is consumed
 * here too (one process owns PGlite's single connection), on Redis while it answers and
 * straight from the outbox while it does not; on PostgreSQL that is the certifier-worker's
 * job, and Redis is required. Nest runs shutdown hooks deepest module first, so this one's
 * runs last: the embedded database stops only after TypeORM let go of it.
 */
@Module({})
export class HubApiModule implements OnApplicationShutdown {
  constructor(@Inject(DATABASE_ENDPOINT) private readonly database: DatabaseEndpoint) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.stop?.();
  }

  static forRoot(config: HubConfig, database: DatabaseEndpoint): DynamicModule {
    return {
      module: HubApiModule,
      imports: [
        ConfigModule.forRoot(config),
        TypeOrmModule.forRoot({
          ...buildDataSourceOptions(database.url, {
            poolSize: database.embedded ? 1 : 10,
            migrationsRun: database.embedded,
          }),
          retryAttempts: 3,
        }),
        DatabaseModule,
        HubTrustModule,
        AuthModule,
        HealthModule.forRoot(
          database.dataDir ? new DiskReserve(database.dataDir, config.HUB_DATA_DIR_RESERVE_MB) : null,
        ),
        TokensModule,
        CertifierModule.forRoot({ consume: database.embedded }),
        TrustModule,
        MetricsModule,
        WebModule,
        SearchModule,
        CertificationsModule,
        BadgesModule,
        SkillsModule,
        SubmissionsModule,
        McpRegistryModule,
      ],
      providers: [{ provide: DATABASE_ENDPOINT, useValue: database }],
    };
  }
}
