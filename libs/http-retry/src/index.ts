export * from './http-retry';
