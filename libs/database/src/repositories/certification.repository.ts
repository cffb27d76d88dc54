/**
 * Verdicts: each version's certification under the current policy, the certificate a verdict
 * signed, and what the certifier reads back. The policy filter and the report codec are applied
 * here and nowhere else.
 */
import { Injectable } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import type { CertificationReport } from '@skillhub/certification';
import type { PinnedPackage } from '@skillhub/signing';
import { Certificate } from '../entities/certificate.entity';
import { Certification } from '../entities/certification.entity';
import type { JsonDocument } from '../entities/json-document';
import { decodeReport, encodeReport } from '../report-codec';
import { CURRENT_POLICY } from './current-certification';

/** What lists and summaries show of a certification. */
export type CertificationSummary = Pick<Certification, 'skillVersionId' | 'status' | 'level' | 'expiresAt'>;

/** What a certification job names: a version, under the policy it is to be judged by. */
export interface JudgmentRef {
  skillVersionId: string;
  policyVersion: number;
}

/** A version the re-probe looks at again, with what a revocation of it would name. */
export interface PinnedVersion {
  versionId: string;
  /** `author/name`. */
  skill: string;
  version: string;
  bundleSha256: string;
  pinned: PinnedPackage[];
}

export interface NewCertificate {
  certificationId: string;
  keyId: string;
  envelope: JsonDocument;
  logIndex: number;
  issuedAt: Date;
  expiresAt: Date;
}

@Injectable()
export class CertificationRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The version's certification under the current policy, or null (not judged under it yet). */
  current(versionId: string, m: EntityManager = this.dataSource.manager): Promise<Certification | null> {
    return m.findOneBy(Certification, { skillVersionId: versionId, policyVersion: CURRENT_POLICY });
  }

  /**
   * `current` for many versions at once, by version id: only what a summary shows (status, level,
   * expiry), never the report, which may be hundreds of kilobytes per version.
   */
  async currentOf(versionIds: readonly string[]): Promise<Map<string, CertificationSummary>> {
    if (!versionIds.length) return new Map();
    const rows = await this.dataSource.manager.find(Certification, {
      select: { skillVersionId: true, status: true, level: true, expiresAt: true },
      where: { skillVersionId: In([...versionIds]), policyVersion: CURRENT_POLICY },
    });
    return new Map(rows.map((c) => [c.skillVersionId, c]));
  }

  /** A new version's pending row, in the publish transaction; returns the judgment to ask for. */
  async addPending(m: EntityManager, versionId: string): Promise<JudgmentRef> {
    await m.insert(Certification, { skillVersionId: versionId, policyVersion: CURRENT_POLICY });
    return { skillVersionId: versionId, policyVersion: CURRENT_POLICY };
  }

  /** The row a job names (a job carries its own policy). */
  forJudgment(ref: JudgmentRef): Promise<Certification | null> {
    return this.dataSource.manager.findOneBy(Certification, {
      skillVersionId: ref.skillVersionId,
      policyVersion: ref.policyVersion,
    });
  }

  /** The row, locked until the caller's transaction ends: one verdict per row, however often a job runs. */
  lock(m: EntityManager, id: string): Promise<Certification | null> {
    return m.findOne(Certification, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Stores a verdict (the report through the codec) with the columns lists and badges read. */
  async recordVerdict(m: EntityManager, id: string, report: CertificationReport): Promise<void> {
    await m.update(Certification, id, {
      status: report.status,
      level: report.level,
      report: encodeReport(report),
      requirementsMet: report.requirementsMet,
      issuedAt: report.issuedAt ? new Date(report.issuedAt) : null,
      expiresAt: report.expiresAt ? new Date(report.expiresAt) : null,
    });
  }

  /** Marks one row revoked (a judgment that finds its version revoked meanwhile). */
  async markRevoked(m: EntityManager, id: string): Promise<void> {
    await m.update(Certification, id, { status: 'revoked', level: 'none' });
  }

  /** A revocation: every row of the version, under every policy, says revoked. */
  async revokeVersion(m: EntityManager, versionId: string): Promise<void> {
    await m.update(Certification, { skillVersionId: versionId }, { status: 'revoked', level: 'none' });
  }

  async addCertificate(m: EntityManager, certificate: NewCertificate): Promise<void> {
    await m.insert(Certificate, { ...certificate, logIndex: String(certificate.logIndex) });
  }

  /** The certificate of the version's current certification, or null. */
  certificateOf(versionId: string): Promise<Certificate | null> {
    return this.dataSource
      .getRepository(Certificate)
      .createQueryBuilder('c')
      .innerJoin(Certification, 'x', 'x.id = c.certification_id')
      .where('x.skill_version_id = :id AND x.policy_version = :policy', { id: versionId, policy: CURRENT_POLICY })
      .getOne();
  }

  /** Certified versions (current policy) that pin packages: what the daily re-probe asks about again. */
  async pinnedVersions(): Promise<PinnedVersion[]> {
    const rows: Array<{ version_id: string; skill: string; version: string; bundle_sha256: string; report: unknown }> =
      await this.dataSource.query(
        `SELECT v."id" AS version_id, n."slug" || '/' || s."name" AS skill, v."version", v."bundle_sha256", c."report"
           FROM "certifications" c JOIN "skill_versions" v ON v."id" = c."skill_version_id"
           JOIN "skills" s ON s."id" = v."skill_id" JOIN "namespaces" n ON n."id" = s."namespace_id"
           WHERE c."status" = 'certified' AND c."policy_version" = $1 AND jsonb_array_length(c."report"->'pinnedPackages') > 0`,
        [CURRENT_POLICY],
      );
    return rows.map((row) => ({
      versionId: row.version_id,
      skill: row.skill,
      version: row.version,
      bundleSha256: row.bundle_sha256,
      pinned: decodeReport(row.report).pinnedPackages,
    }));
  }

  /** Current-policy certifications by stored status and level (the metrics gauge). */
  countsByStatus(): Promise<Array<{ status: string; level: string; n: number }>> {
    return this.dataSource.query(
      `SELECT "status", "level", count(*)::int AS n FROM "certifications" WHERE "policy_version" = $1
       GROUP BY "status", "level"`,
      [CURRENT_POLICY],
    );
  }
}
