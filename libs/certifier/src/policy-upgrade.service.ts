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
import { DataSource } from 'typeorm';
import { CERTIFICATION_POLICY_VERSION } from '@skillhub/certification';
import { CERTIFICATION_QUEUE, CERTIFY_JOB } from '@skillhub/queue';

const BATCH = 500;

@Injectable()
export class PolicyUpgrade {
  private readonly logger = new Logger('PolicyUpgrade');

  constructor(private readonly dataSource: DataSource) {}

  /** Brings every version under `policy`; returns how many were queued to be judged. */
  async run(policy: number = CERTIFICATION_POLICY_VERSION): Promise<number> {
    await this.dataSource.query(
      `INSERT INTO "certifications" ("skill_version_id", "policy_version", "status", "level", "report")
       SELECT DISTINCT ON (c."skill_version_id") c."skill_version_id", $1, 'revoked', 'none', c."report"
       FROM "certifications" c JOIN "revocations" r ON r."skill_version_id" = c."skill_version_id"
       WHERE c."policy_version" < $1
         AND NOT EXISTS (SELECT 1 FROM "certifications" n
                         WHERE n."skill_version_id" = c."skill_version_id" AND n."policy_version" = $1)
       ORDER BY c."skill_version_id", c."policy_version" DESC
       ON CONFLICT DO NOTHING`,
      [policy],
    );
    let total = 0;
    for (;;) {
      const rows: unknown[] = await this.dataSource.query(
        `WITH missing AS (
           SELECT v."id" FROM "skill_versions" v
           WHERE NOT EXISTS (SELECT 1 FROM "revocations" r WHERE r."skill_version_id" = v."id")
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
