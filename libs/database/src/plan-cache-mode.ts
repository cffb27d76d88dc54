/**
 * How every hub connection plans a named prepared statement: for each execution's values, never
 * from a cached generic plan (repositories/prepared-query.ts). PostgreSQL takes it as a startup
 * option of each connection (`buildDataSourceOptions`); the embedded database, which ignores
 * those, has it in its configuration.
 */
export const PLAN_CACHE_MODE = 'force_custom_plan';
