export * from './skill-bundles';
export * from './test-admin';
export * from './test-database';
export * from './test-env';
export * from './test-redis';
export * from './free-port';
export * from './hub-process-env';
