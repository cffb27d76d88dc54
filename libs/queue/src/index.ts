export * from './job-options';
export * from './outbox';
export * from './outbox-relay.service';
export * from './queue.constants';
export * from './queue.module';
export * from './queue.tokens';
export * from './redis-connection';
