export * from './data-source';
export * from './embedded-database';
export * from './entities';
export { backfillLogNodes } from './migrations/1795985052280-log-nodes';
