/**
 * Kazma's quarantined submissions: stored with a per-address rate window, judged on the
 * manifest alone (the report through the codec), claimed once, and gone after their expiry.
 */
import { Injectable } from '@nestjs/common';
import { DataSource, MoreThan, type EntityManager } from 'typeorm';
import type { CertificationReport } from '@skillhub/certification';
import { Submission } from '../entities/submission.entity';
import { encodeReport } from '../report-codec';

export type NewSubmission = Pick<
  Submission,
  | 'namespaceSlug'
  | 'name'
  | 'version'
  | 'manifest'
  | 'problems'
  | 'sourceUrl'
  | 'submitterId'
  | 'clientAddress'
  | 'expiresAt'
>;

/** How many submissions an address made since a time, and when the oldest of them was. */
export interface SubmitWindow {
  count: number;
  oldest: Date | null;
}

@Injectable()
export class SubmissionRepository {
  constructor(private readonly dataSource: DataSource) {}

  byId(id: string): Promise<Submission | null> {
    return this.dataSource.manager.findOneBy(Submission, { id });
  }

  /**
   * The address's submissions since `since`, counted under a lock on the address held until
   * the caller's transaction ends, so concurrent submitters cannot race past a limit.
   */
  async lockWindow(m: EntityManager, clientAddress: string, since: Date): Promise<SubmitWindow> {
    await m.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`submit:${clientAddress}`]);
    const recent = await m
      .createQueryBuilder(Submission, 's')
      .select('min(s.created_at)', 'oldest')
      .addSelect('count(*)::int', 'count')
      .where('s.client_address = :clientAddress AND s.created_at > :since', { clientAddress, since })
      .getRawOne<{ oldest: Date | null; count: number }>();
    return { count: recent?.count ?? 0, oldest: recent?.oldest ? new Date(recent.oldest) : null };
  }

  add(m: EntityManager, submission: NewSubmission): Promise<Submission> {
    return m.save(m.create(Submission, submission));
  }

  /** The newest quarantined submission of `author/name` (at `version` when given) not yet expired. */
  newestLive(author: string, name: string, version?: string): Promise<Submission | null> {
    return this.dataSource.manager.findOne(Submission, {
      where: {
        namespaceSlug: author,
        name,
        ...(version ? { version } : {}),
        status: 'quarantined',
        expiresAt: MoreThan(new Date()),
      },
      order: { createdAt: 'DESC' },
    });
  }

  /** The manifest-only verdict, stored while the submission is still quarantined. */
  async recordReport(id: string, report: CertificationReport): Promise<void> {
    await this.dataSource.manager.update(Submission, { id, status: 'quarantined' }, { report: encodeReport(report) });
  }

  /** Locked until the caller's transaction ends: a submission is claimed once. */
  lock(m: EntityManager, id: string): Promise<Submission | null> {
    return m.findOne(Submission, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async markClaimed(m: EntityManager, id: string, versionId: string): Promise<void> {
    await m.update(Submission, id, { status: 'claimed', claimedAt: new Date(), skillVersionId: versionId });
  }
}
