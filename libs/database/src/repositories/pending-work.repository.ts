/**
 * Work waiting for the certifier, and the outbox rows that hand it over: certifications a new
 * policy asks for, verdicts and submission reports no job is about to bring (the watchdog's
 * look), and the daily re-probe's request. Job and queue names come from libs/queue, which
 * the database does not import; the payloads written here are the ones it defines.
 */
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { JudgmentRef } from './certification.repository';

/** Which outbox job: its queue and its name. */
export interface JobKind {
  queue: string;
  name: string;
}

/** An outbox row not yet handed over for the job named $1, matched by `match` on its payload. */
const UNDELIVERED = (match: string) =>
  `EXISTS (SELECT 1 FROM "outbox" o WHERE o."dispatched_at" IS NULL AND o."job_name" = $1::text AND ${match})`;
const CERTIFICATION_UNDELIVERED = UNDELIVERED(
  `o."payload"->>'skillVersionId' = c."skill_version_id"::text AND o."payload"->>'policyVersion' = c."policy_version"::text`,
);
const SUBMISSION_UNDELIVERED = UNDELIVERED(`o."payload"->>'submissionId' = s."id"::text`);

@Injectable()
export class PendingWorkRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * A raised policy: a revoked version gets a `revoked` row under `policy` at once, with its
   * last report (a revocation is never undone by a new policy). Idempotent.
   */
  async carryRevocations(policy: number): Promise<void> {
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
  }

  /**
   * Up to `limit` versions with no row under `policy` (revoked ones aside), newest first: each
   * gets a pending row and a job, in one statement (ON CONFLICT makes concurrent callers
   * harmless). Returns how many were queued.
   */
  async queueUnjudged(policy: number, job: JobKind, limit: number): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH missing AS (
         SELECT v."id" FROM "skill_versions" v
         WHERE NOT EXISTS (SELECT 1 FROM "revocations" r WHERE r."skill_version_id" = v."id")
           AND NOT EXISTS (SELECT 1 FROM "certifications" c
                           WHERE c."skill_version_id" = v."id" AND c."policy_version" = $1)
         ORDER BY v."created_at" DESC
         LIMIT $4),
       added AS (
         INSERT INTO "certifications" ("skill_version_id", "policy_version")
         SELECT "id", $1 FROM missing
         ON CONFLICT DO NOTHING
         RETURNING "skill_version_id")
       INSERT INTO "outbox" ("queue", "job_name", "payload")
       SELECT $2, $3, jsonb_build_object('skillVersionId', "skill_version_id", 'policyVersion', $1::int) FROM added
       RETURNING "id"`,
      [policy, job.queue, job.name, limit],
    );
    return rows.length;
  }

  /** Certifications waiting for a verdict (pending, inconclusive) with no outbox row about to bring one, oldest first. */
  openCertifications(job: JobKind, limit: number): Promise<JudgmentRef[]> {
    return this.dataSource.query(
      `SELECT c."skill_version_id" AS "skillVersionId", c."policy_version" AS "policyVersion"
       FROM "certifications" c
       WHERE c."status" IN ('pending', 'inconclusive') AND NOT ${CERTIFICATION_UNDELIVERED}
       ORDER BY c."updated_at" LIMIT $2`,
      [job.name, limit],
    );
  }

  /** Queues these again; each is checked again as it is queued (a verdict or a row written since wins). */
  async requeueCertifications(job: JobKind, refs: readonly JudgmentRef[]): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO "outbox" ("queue", "job_name", "payload")
       SELECT $2::text, $1::text, jsonb_build_object('skillVersionId', c."skill_version_id", 'policyVersion', c."policy_version")
       FROM "certifications" c
       JOIN unnest($3::uuid[], $4::int[]) AS t("sv", "pv") ON c."skill_version_id" = t."sv" AND c."policy_version" = t."pv"
       WHERE c."status" IN ('pending', 'inconclusive') AND NOT ${CERTIFICATION_UNDELIVERED}
       RETURNING "id"`,
      [job.name, job.queue, refs.map((r) => r.skillVersionId), refs.map((r) => r.policyVersion)],
    );
    return rows.length;
  }

  /** Live quarantined submissions without a report and with no outbox row about to bring one, oldest first. */
  openSubmissions(job: JobKind, limit: number): Promise<Array<{ submissionId: string }>> {
    return this.dataSource.query(
      `SELECT s."id" AS "submissionId" FROM "submissions" s
       WHERE s."status" = 'quarantined' AND s."report" IS NULL AND s."expires_at" > now()
         AND NOT ${SUBMISSION_UNDELIVERED}
       ORDER BY s."created_at" LIMIT $2`,
      [job.name, limit],
    );
  }

  async requeueSubmissions(job: JobKind, submissionIds: readonly string[]): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO "outbox" ("queue", "job_name", "payload")
       SELECT $2::text, $1::text, jsonb_build_object('submissionId', s."id") FROM "submissions" s
       WHERE s."id" = ANY($3::uuid[]) AND s."status" = 'quarantined' AND s."report" IS NULL
         AND NOT ${SUBMISSION_UNDELIVERED}
       RETURNING "id"`,
      [job.name, job.queue, submissionIds],
    );
    return rows.length;
  }

  /**
   * The re-probe of `day` (YYYY-MM-DD, UTC), asked for once when some certified version pins
   * packages: the rows several processes write for one day make one job (its id is the day).
   */
  async askForReprobe(job: JobKind, day: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "outbox" ("queue", "job_name", "payload")
       SELECT $2::text, $1::text, jsonb_build_object('day', $3::text)
       WHERE EXISTS (SELECT 1 FROM "certifications" c
                     WHERE c."status" = 'certified' AND c."report"->'pinnedPackages' <> '[]'::jsonb)
         AND NOT EXISTS (SELECT 1 FROM "outbox" o
                         WHERE o."job_name" = $1::text AND o."payload"->>'day' = $3::text
                           AND o."created_at" >= ($3::text || 'T00:00:00Z')::timestamptz)`,
      [job.name, job.queue, day],
    );
  }

  /** Jobs written but not yet handed to the queue. */
  async undelivered(): Promise<number> {
    const [{ n }] = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM "outbox" WHERE "dispatched_at" IS NULL`,
    );
    return n;
  }
}
