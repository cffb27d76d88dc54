/** The producer-side Redis connection (fails fast while Redis is down). */
export const PRODUCER_REDIS = Symbol('PRODUCER_REDIS');

/** The JobQueue of this process (job-queue.ts). */
export const JOB_QUEUE = Symbol('JOB_QUEUE');
