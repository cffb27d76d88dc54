import type { JobsOptions } from 'bullmq';

/** Retries for transient failures; finished jobs are kept a while for inspection, then dropped. */
export const defaultJobOptions: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 5_000 },
  removeOnComplete: { age: 7 * 24 * 3600, count: 10_000 },
  removeOnFail: { age: 30 * 24 * 3600 },
};
