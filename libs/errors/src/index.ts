export * from './domain-error';
export * from './http-status';
export * from './problem';
