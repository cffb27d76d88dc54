/**
 * The certification queue's watchdog, in every process, every QUEUE_WATCHDOG_MS: work waiting for
 * a verdict (a certification pending or inconclusive, a Kazma submission quarantined without a
 * report) that no outbox row is about to hand over and for which the job queue has nothing
 * waiting, delayed or running is queued again. So a job lost with a Redis that keeps nothing on
 * disk, or one that failed for good, is noticed within one interval; while the queue cannot tell
 * (Redis unreachable), nothing is queued again. A job queued twice by two watchdogs at once is
 * added once (the queue deduplicates by subject), and judging is idempotent anyway.
 * Each round also brings versions under the current policy (PolicyUpgrade, on start and every
 * few minutes) and, once a UTC day, asks for the re-probe of certified packages.
 */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import {
  CERTIFICATION_QUEUE,
  CERTIFY_JOB,
  CERTIFY_SUBMISSION_JOB,
  JOB_QUEUE,
  jobSubject,
  REPROBE_JOB,
  type JobQueue,
} from '@skillhub/queue';
import { PolicyUpgrade } from './policy-upgrade.service';

/** Looked at per round, oldest first; the rest wait for the next round. */
const BATCH = 1000;
/** The queue is asked about this many subjects at once. */
const ASK_AT_ONCE = 50;
const POLICY_UPGRADE_EVERY_MS = 5 * 60_000;
/** An outbox row not yet handed over for the job named $1, matched by `match` on its payload. */
const UNDELIVERED = (match: string) =>
  `EXISTS (SELECT 1 FROM "outbox" o WHERE o."dispatched_at" IS NULL AND o."job_name" = $1::text AND ${match})`;
const CERTIFICATION_UNDELIVERED = UNDELIVERED(
  `o."payload"->>'skillVersionId' = c."skill_version_id"::text AND o."payload"->>'policyVersion' = c."policy_version"::text`,
);
const SUBMISSION_UNDELIVERED = UNDELIVERED(`o."payload"->>'submissionId' = s."id"::text`);

export interface SweepResult {
  certifications: number;
  submissions: number;
}

@Injectable()
export class PendingSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PendingSweeper');
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private upgradedAt = 0;
  private reprobeAskedFor: string | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly upgrade: PolicyUpgrade,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  onApplicationBootstrap(): void {
    void this.round();
    this.timer = setInterval(() => void this.round(), this.config.QUEUE_WATCHDOG_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async round(): Promise<void> {
    if (this.busy) return; // a slow round is not stacked on
    this.busy = true;
    try {
      if (Date.now() - this.upgradedAt >= POLICY_UPGRADE_EVERY_MS) {
        await this.upgrade.run();
        this.upgradedAt = Date.now();
      }
      await this.sweep();
      await this.askForReprobe(new Date());
    } catch (err) {
      this.logger.warn((err as Error).message);
    } finally {
      this.busy = false;
    }
  }

  /** Queues again the work waiting for a verdict that has no job; returns how much of each kind. */
  async sweep(): Promise<SweepResult> {
    const certifications = await this.requeueCertifications();
    const submissions = await this.requeueSubmissions();
    if (certifications || submissions) {
      this.logger.warn(
        `no job was queued or running for ${certifications} certification(s) and ${submissions} submission(s): queued again`,
      );
    }
    return { certifications, submissions };
  }

  private async requeueCertifications(): Promise<number> {
    const open: Array<{ skillVersionId: string; policyVersion: number }> = await this.dataSource.query(
      `SELECT c."skill_version_id" AS "skillVersionId", c."policy_version" AS "policyVersion"
       FROM "certifications" c
       WHERE c."status" IN ('pending', 'inconclusive') AND NOT ${CERTIFICATION_UNDELIVERED}
       ORDER BY c."updated_at" LIMIT ${BATCH}`,
      [CERTIFY_JOB],
    );
    const stuck = await this.withoutJob(open, (row) => jobSubject(CERTIFY_JOB, row));
    if (!stuck.length) return 0;
    // Checked again as it is queued: a verdict or a row written since the look above wins.
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO "outbox" ("queue", "job_name", "payload")
       SELECT $2::text, $1::text, jsonb_build_object('skillVersionId', c."skill_version_id", 'policyVersion', c."policy_version")
       FROM "certifications" c
       JOIN unnest($3::uuid[], $4::int[]) AS t("sv", "pv") ON c."skill_version_id" = t."sv" AND c."policy_version" = t."pv"
       WHERE c."status" IN ('pending', 'inconclusive') AND NOT ${CERTIFICATION_UNDELIVERED}
       RETURNING "id"`,
      [CERTIFY_JOB, CERTIFICATION_QUEUE, stuck.map((r) => r.skillVersionId), stuck.map((r) => r.policyVersion)],
    );
    return rows.length;
  }

  private async requeueSubmissions(): Promise<number> {
    const open: Array<{ submissionId: string }> = await this.dataSource.query(
      `SELECT s."id" AS "submissionId" FROM "submissions" s
       WHERE s."status" = 'quarantined' AND s."report" IS NULL AND s."expires_at" > now()
         AND NOT ${SUBMISSION_UNDELIVERED}
       ORDER BY s."created_at" LIMIT ${BATCH}`,
      [CERTIFY_SUBMISSION_JOB],
    );
    const stuck = await this.withoutJob(open, (row) => jobSubject(CERTIFY_SUBMISSION_JOB, row));
    if (!stuck.length) return 0;
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO "outbox" ("queue", "job_name", "payload")
       SELECT $2::text, $1::text, jsonb_build_object('submissionId', s."id") FROM "submissions" s
       WHERE s."id" = ANY($3::uuid[]) AND s."status" = 'quarantined' AND s."report" IS NULL
         AND NOT ${SUBMISSION_UNDELIVERED}
       RETURNING "id"`,
      [CERTIFY_SUBMISSION_JOB, CERTIFICATION_QUEUE, stuck.map((r) => r.submissionId)],
    );
    return rows.length;
  }

  /** The rows for which the queue says, for sure, that no job waits or runs. */
  private async withoutJob<T>(rows: T[], subject: (row: T) => string | null): Promise<T[]> {
    const stuck: T[] = [];
    for (let i = 0; i < rows.length; i += ASK_AT_ONCE) {
      const slice = rows.slice(i, i + ASK_AT_ONCE);
      const live = await Promise.all(
        slice.map((row) => {
          const s = subject(row);
          return s === null ? true : this.jobs.hasLiveJob(CERTIFICATION_QUEUE, s);
        }),
      );
      slice.forEach((row, j) => live[j] === false && stuck.push(row));
    }
    return stuck;
  }

  /**
   * Once a UTC day per process, when some certified version pins packages: the re-probe's job id
   * is its day, so the rows several processes write for one day make one job.
   */
  private async askForReprobe(now: Date): Promise<void> {
    const day = now.toISOString().slice(0, 10);
    if (this.reprobeAskedFor === day) return;
    await this.dataSource.query(
      `INSERT INTO "outbox" ("queue", "job_name", "payload")
       SELECT $2::text, $1::text, jsonb_build_object('day', $3::text)
       WHERE EXISTS (SELECT 1 FROM "certifications" c
                     WHERE c."status" = 'certified' AND c."report"->'pinnedPackages' <> '[]'::jsonb)
         AND NOT EXISTS (SELECT 1 FROM "outbox" o
                         WHERE o."job_name" = $1::text AND o."payload"->>'day' = $3::text
                           AND o."created_at" >= ($3::text || 'T00:00:00Z')::timestamptz)`,
      [REPROBE_JOB, CERTIFICATION_QUEUE, day],
    );
    this.reprobeAskedFor = day;
  }
}
