export * from './retry';
export { AttemptTimeout } from './attempt-timeout';
export * from './http-attempt';
export { withTimeout } from './with-timeout';
