/**
 * The certification queue's upkeep, on start and every PENDING_REQUEUE_MS / 2 in every
 * process: first versions without a verdict under the current policy are queued (PolicyUpgrade),
 * then the safety net for jobs Redis lost (a restart of a Redis that keeps nothing on disk drops
 * every queued job): certifications pending longer than PENDING_REQUEUE_MS get a new outbox
 * row, which the relay delivers. One statement claims and queues them, so sweepers in several
 * processes never queue the same one twice in a round.
 */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { CERTIFICATION_QUEUE, CERTIFY_JOB } from '@skillhub/queue';
import { PolicyUpgrade } from './policy-upgrade.service';

@Injectable()
export class PendingSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PendingSweeper');
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly upgrade: PolicyUpgrade,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  onApplicationBootstrap(): void {
    const round = () =>
      void this.upgrade
        .run()
        .then(() => this.sweep())
        .catch((err: Error) => this.logger.warn(err.message));
    round();
    this.timer = setInterval(round, Math.max(1000, Math.floor(this.config.PENDING_REQUEUE_MS / 2)));
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Queues every stale pending certification again; returns how many. */
  async sweep(): Promise<number> {
    const rows: unknown[] = await this.dataSource.query(
      `WITH stale AS (
         UPDATE "certifications" SET "updated_at" = now()
         WHERE "status" = 'pending' AND "updated_at" < now() - make_interval(secs => $1::float8 / 1000)
         RETURNING "skill_version_id", "policy_version")
       INSERT INTO "outbox" ("queue", "job_name", "payload")
       SELECT $2, $3, jsonb_build_object('skillVersionId', "skill_version_id", 'policyVersion', "policy_version") FROM stale
       RETURNING "id"`,
      [this.config.PENDING_REQUEUE_MS, CERTIFICATION_QUEUE, CERTIFY_JOB],
    );
    if (rows.length) this.logger.warn(`${rows.length} certification(s) pending too long were queued again`);
    return rows.length;
  }
}
