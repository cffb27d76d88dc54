export * from './config.module';
export * from './env.schema';
export * from './load-config';
export * from './logging';
