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
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { PendingWorkRepository } from '@skillhub/database';
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
const CERTIFY = { queue: CERTIFICATION_QUEUE, name: CERTIFY_JOB };
const CERTIFY_SUBMISSION = { queue: CERTIFICATION_QUEUE, name: CERTIFY_SUBMISSION_JOB };
const REPROBE = { queue: CERTIFICATION_QUEUE, name: REPROBE_JOB };

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
    private readonly work: PendingWorkRepository,
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
    const open = await this.work.openCertifications(CERTIFY, BATCH);
    const stuck = await this.withoutJob(open, (row) => jobSubject(CERTIFY_JOB, row));
    return stuck.length ? this.work.requeueCertifications(CERTIFY, stuck) : 0;
  }

  private async requeueSubmissions(): Promise<number> {
    const open = await this.work.openSubmissions(CERTIFY_SUBMISSION, BATCH);
    const stuck = await this.withoutJob(open, (row) => jobSubject(CERTIFY_SUBMISSION_JOB, row));
    return stuck.length
      ? this.work.requeueSubmissions(
          CERTIFY_SUBMISSION,
          stuck.map((row) => row.submissionId),
        )
      : 0;
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
    await this.work.askForReprobe(REPROBE, day);
    this.reprobeAskedFor = day;
  }
}
