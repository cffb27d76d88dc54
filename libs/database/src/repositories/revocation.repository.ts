/** Versions withdrawn from trust: the revocation rows and the list the hub signs of them. */
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Revocation } from '../entities/revocation.entity';

/** One entry of the signed revocation list. */
export interface RevokedVersion {
  /** `author/name`. */
  skill: string;
  version: string;
  bundleSha256: string;
  reason: string;
  logIndex: number;
  revokedAt: Date;
}

@Injectable()
export class RevocationRepository {
  constructor(private readonly dataSource: DataSource) {}

  isRevoked(versionId: string, m: EntityManager = this.dataSource.manager): Promise<boolean> {
    return m.existsBy(Revocation, { skillVersionId: versionId });
  }

  async add(
    m: EntityManager,
    revocation: { versionId: string; reason: string; revokedBy: string; logIndex: number },
  ): Promise<void> {
    await m.insert(Revocation, {
      skillVersionId: revocation.versionId,
      reason: revocation.reason,
      revokedBy: revocation.revokedBy,
      logIndex: String(revocation.logIndex),
    });
  }

  /** Every revocation, in log order. */
  async all(): Promise<RevokedVersion[]> {
    const rows: Array<{
      author: string;
      name: string;
      version: string;
      bundle_sha256: string;
      reason: string;
      log_index: string;
      created_at: Date;
    }> = await this.dataSource.query(
      `SELECT n."slug" AS author, s."name", v."version", v."bundle_sha256", r."reason", r."log_index", r."created_at"
         FROM "revocations" r JOIN "skill_versions" v ON v."id" = r."skill_version_id"
         JOIN "skills" s ON s."id" = v."skill_id" JOIN "namespaces" n ON n."id" = s."namespace_id"
         ORDER BY r."log_index"`,
    );
    return rows.map((r) => ({
      skill: `${r.author}/${r.name}`,
      version: r.version,
      bundleSha256: r.bundle_sha256,
      reason: r.reason,
      logIndex: Number(r.log_index),
      revokedAt: new Date(r.created_at),
    }));
  }
}
