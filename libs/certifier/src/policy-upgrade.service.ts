/**
 * When CERTIFICATION_POLICY_VERSION is raised (checks added or made stricter), every version
 * judged under an older policy is judged again: each round of the PendingSweeper (on start, then
 * periodically, so versions published meanwhile by instances still on the old policy are caught
 * too) inserts a pending certification for the current policy and an outbox job for every
 * version that has none, in batches, one statement per batch (ON CONFLICT makes concurrent
 * processes harmless). A revoked version is not judged again: it gets a `revoked` row under the
 * new policy at once, since a revocation is never undone by a new policy. Until a version's new
 * verdict is in, it reads as pending.
 */
import { Injectable, Logger } from '@nestjs/common';
import { CURRENT_POLICY, PendingWorkRepository } from '@skillhub/database';
import { CERTIFICATION_QUEUE, CERTIFY_JOB } from '@skillhub/queue';

const BATCH = 500;

@Injectable()
export class PolicyUpgrade {
  private readonly logger = new Logger('PolicyUpgrade');

  constructor(private readonly work: PendingWorkRepository) {}

  /** Brings every version under `policy`; returns how many were queued to be judged. */
  async run(policy: number = CURRENT_POLICY): Promise<number> {
    await this.work.carryRevocations(policy);
    let total = 0;
    for (;;) {
      const queued = await this.work.queueUnjudged(policy, { queue: CERTIFICATION_QUEUE, name: CERTIFY_JOB }, BATCH);
      total += queued;
      if (queued < BATCH) break;
    }
    if (total > 0) this.logger.log(`${total} version(s) queued to be judged under policy ${policy}`);
    return total;
  }
}
