export * from './database-fixtures';
export * from './report-fixtures';
