/**
 * The reads only the web pages make: a version's revocation (its reason on the banner), and
 * the certified versions that run an MCP server (the server's page). Reports are decoded by
 * the one codec (report-codec.ts).
 */
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CertifiedServer } from '@skillhub/signing';
import { Revocation } from '../entities/revocation.entity';
import { decodeReport } from '../report-codec';
import { certifiedNowSql, currentCertificationJoin } from './current-certification';

/** A version that holds a certificate now and whose certificate lets the server start. */
export interface ServerUser {
  author: string;
  name: string;
  version: string;
  level: string;
  issuedAt: Date | null;
  /** The certificate's servers that run the package (a skill may run it under two names). */
  servers: CertifiedServer[];
}

@Injectable()
export class WebPageRepository {
  constructor(private readonly dataSource: DataSource) {}

  revocationOf(versionId: string): Promise<Revocation | null> {
    return this.dataSource.manager.findOneBy(Revocation, { skillVersionId: versionId });
  }

  /**
   * Versions not yanked and certified now whose certificate runs `packageName` (npm or PyPI),
   * newest certificate first. Containment (`@>`) matches on the stored JSON; the codec decodes it.
   */
  async serverUsers(packageName: string, limit: number): Promise<ServerUser[]> {
    const rows: Array<{
      author: string;
      name: string;
      version: string;
      level: string;
      issued_at: Date | null;
      report: unknown;
    }> = await this.dataSource.query(
      `SELECT n."slug" AS author, s."name", v."version", c."level", c."issued_at", c."report"
         FROM "skill_versions" v
         JOIN "skills" s ON s."id" = v."skill_id"
         JOIN "namespaces" n ON n."id" = s."namespace_id"
         ${currentCertificationJoin('v', 'c')}
        WHERE ${certifiedNowSql('c')} AND v."status" <> 'yanked'
          AND c."report"->'servers' @> jsonb_build_array(jsonb_build_object('package', jsonb_build_object('name', $1::text)))
        ORDER BY c."issued_at" DESC NULLS LAST, v."id" DESC
        LIMIT $2`,
      [packageName, limit],
    );
    return rows.map((r) => ({
      author: r.author,
      name: r.name,
      version: r.version,
      level: r.level,
      issuedAt: r.issued_at ? new Date(r.issued_at) : null,
      servers: decodeReport(r.report).servers.filter((s) => s.package?.name === packageName),
    }));
  }
}
