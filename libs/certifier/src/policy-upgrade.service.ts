/**
 * When CERTIFICATION_POLICY_VERSION is raised (checks added or made stricter), every version
 * judged under an older policy is judged again: on start, each process inserts a pending
 * certification for the current policy and an outbox job for every version that has none,
 * in batches, one statement per batch (ON CONFLICT makes concurrent processes harmless).
 * Left out: yanked versions (never installable again) and revoked ones (a revocation is not
 * undone by a new policy). Until a version's new verdict is in, it reads as pending.
 */
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CERTIFICATION_POLICY_VERSION, CERTIFICATION_QUEUE, CERTIFY_JOB } from '@skillhub/queue';

const BATCH = 500;

@Injectable()
export class PolicyUpgrade implements OnApplicationBootstrap {
  private readonly logger = new Logger('PolicyUpgrade');

  constructor(private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    void this.run().catch((err: Error) => this.logger.warn(`re-certification not queued: ${err.message}`));
  }

  /** Queues every version without a certification under `policy`; returns how many. */
  async run(policy: number = CERTIFICATION_POLICY_VERSION): Promise<number> {
    let total = 0;
    for (;;) {
      const rows: unknown[] = await this.dataSource.query(
        `WITH missing AS (
           SELECT v."id" FROM "skill_versions" v
           WHERE v."status" <> 'yanked'
             AND NOT EXISTS (SELECT 1 FROM "revocations" r WHERE r."skill_version_id" = v."id")
             AND NOT EXISTS (SELECT 1 FROM "certifications" c
                             WHERE c."skill_version_id" = v."id" AND c."policy_version" = $1)
           ORDER BY v."created_at" DESC
           LIMIT ${BATCH}),
         added AS (
           INSERT INTO "certifications" ("skill_version_id", "policy_version")
           SELECT "id", $1 FROM missing
           ON CONFLICT DO NOTHING
           RETURNING "skill_version_id")
         INSERT INTO "outbox" ("queue", "job_name", "payload")
         SELECT $2, $3, jsonb_build_object('skillVersionId', "skill_version_id", 'policyVersion', $1::int) FROM added
         RETURNING "id"`,
        [policy, CERTIFICATION_QUEUE, CERTIFY_JOB],
      );
      total += rows.length;
      if (rows.length < BATCH) break;
    }
    if (total > 0) this.logger.log(`${total} version(s) queued to be judged under policy ${policy}`);
    return total;
  }
}
