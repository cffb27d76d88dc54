/**
 * What the MCP sub-registry reads (docs/mcp-registry.md): the certificates of the versions certified
 * now under the current policy, each with the skill it names, and the servers each certificate lets
 * run, decoded from the signed statement (the exact list the runtime enforces, not the report).
 */
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CERTIFICATE_PAYLOAD_TYPE, decodeStatement, type CertifiedServer } from '@skillhub/signing';
import type { CertificationLevel } from '../entities/certification.entity';
import { StoredReportError } from '../report-codec';
import { certifiedNowSql, CURRENT_POLICY } from './current-certification';

/** One certificate that holds now: the skill version it certifies, and the servers it lets run. */
export interface CertifiedServerSource {
  certificateId: string;
  /** `author/name`. */
  skill: string;
  version: string;
  level: CertificationLevel;
  logIndex: number;
  issuedAt: Date;
  expiresAt: Date;
  servers: CertifiedServer[];
}

/** Certifications `c` that hold a certificate now; the policy is a literal, as in current-certification.ts. */
const HOLDING_NOW = `c."policy_version" = ${CURRENT_POLICY} AND ${certifiedNowSql('c')}`;

@Injectable()
export class McpServerRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Moves whenever a certification starts or stops holding (a certification, a revocation, a new
   * policy), read from one row kept in the same transactions (migration 1796700000000), so a reader
   * can keep what it built until it moves; `now` is the database's clock, which expiries are read
   * against. Expiry writes nothing: a reader also rebuilds once `now` passes the earliest expiry of
   * what it holds.
   */
  async changes(): Promise<{ generation: string; now: Date }> {
    const [row] = (await this.dataSource.query(
      `SELECT "generation"::text AS generation, now() AS now FROM "certification_changes"`,
    )) as Array<{ generation: string; now: Date }>;
    return row!;
  }

  /** The certificates that hold now, each with when its certification ends (null: never). */
  async holdingNow(): Promise<Array<{ id: string; expiresAt: Date | null }>> {
    const rows: Array<{ id: string; expires_at: Date | null }> = await this.dataSource.query(
      `SELECT x."id", c."expires_at" FROM "certificates" x JOIN "certifications" c ON c."id" = x."certification_id"
        WHERE ${HOLDING_NOW}`,
    );
    return rows.map((row) => ({ id: row.id, expiresAt: row.expires_at }));
  }

  /**
   * The certificates named, each with its skill version and the servers of its signed statement.
   * A certificate never changes, so a reader may keep these by id. A stored envelope that is not a
   * certificate is the database's fault, never the client's: it throws like a corrupt report.
   */
  async certificates(ids: readonly string[]): Promise<CertifiedServerSource[]> {
    if (ids.length === 0) return [];
    const rows: Array<{
      id: string;
      skill: string;
      version: string;
      level: CertificationLevel;
      log_index: string;
      issued_at: Date;
      expires_at: Date;
      payload_type: unknown;
      payload: unknown;
    }> = await this.dataSource.query(
      `SELECT x."id", n."slug" || '/' || s."name" AS skill, v."version", c."level", x."log_index",
              x."issued_at", x."expires_at",
              x."envelope"->>'payloadType' AS payload_type, x."envelope"->>'payload' AS payload
         FROM "certificates" x JOIN "certifications" c ON c."id" = x."certification_id"
         JOIN "skill_versions" v ON v."id" = c."skill_version_id"
         JOIN "skills" s ON s."id" = v."skill_id" JOIN "namespaces" n ON n."id" = s."namespace_id"
        WHERE x."id" = ANY($1::uuid[])`,
      [ids],
    );
    return rows.map((row) => {
      if (row.payload_type !== CERTIFICATE_PAYLOAD_TYPE || typeof row.payload !== 'string') {
        throw new StoredReportError([
          { path: `certificates.${row.id}.envelope`, message: 'is not a certificate envelope', severity: 'error' },
        ]);
      }
      return {
        certificateId: row.id,
        skill: row.skill,
        version: row.version,
        level: row.level,
        logIndex: Number(row.log_index),
        issuedAt: row.issued_at,
        expiresAt: row.expires_at,
        servers: decodeStatement(Buffer.from(row.payload, 'base64')).servers,
      };
    });
  }
}
