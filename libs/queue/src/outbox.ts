import type { EntityManager } from 'typeorm';
import { OutboxMessage } from '@skillhub/database';
import type { JobName, JobPayload, QueueName } from './queue.constants';

/**
 * Records a job inside the caller's transaction: it exists exactly when the change
 * that asked for it was committed. The relay delivers it to BullMQ afterwards.
 */
export async function addToOutbox<Q extends QueueName, J extends JobName<Q>>(
  manager: EntityManager,
  queue: Q,
  jobName: J,
  payload: JobPayload<Q, J>,
  /** Not delivered before this time (a later retry); default now. */
  availableAt?: Date,
): Promise<void> {
  await manager.insert(OutboxMessage, {
    queue,
    jobName,
    payload: payload as object,
    ...(availableAt ? { availableAt } : {}),
  });
}
