export * from './data-source';
export * from './database.module';
export * from './embedded-database';
export * from './entities';
export * from './report-codec';
export * from './repositories';
export { blobDigestMismatches, CorruptBlobError, registerDatabaseMetrics } from './blob-integrity';
export { databaseUnavailable, DatabaseUnavailableError } from './database-unavailable';
