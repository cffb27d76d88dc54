/**
 * The one data source definition: the TypeORM CLI loads this file's default export
 * (`npm run migration:run`), and the apps build their options with `buildDataSourceOptions`.
 */
import { DataSource, type DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { HubPgClient } from './pg-client';
import { PLAN_CACHE_MODE } from './plan-cache-mode';

export interface DataSourceTuning {
  /** Connections in the pool. The embedded database takes exactly one, so transactions never interleave. */
  poolSize?: number;
  /** Apply pending migrations on start (the embedded default); servers run `npm run migration:run` instead. */
  migrationsRun?: boolean;
}

export function buildDataSourceOptions(url: string, tuning: DataSourceTuning = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: tuning.migrationsRun ?? false,
    migrationsTransactionMode: 'each',
    synchronize: false,
    uuidExtension: 'pgcrypto',
    extra: {
      Client: HubPgClient,
      max: tuning.poolSize ?? 10,
      connectionTimeoutMillis: 10_000,
      // Named statements are planned for each execution's values (repositories/prepared-query.ts).
      options: `-c plan_cache_mode=${PLAN_CACHE_MODE}`,
    },
  };
}

export default new DataSource(
  buildDataSourceOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/skillhub'),
);
