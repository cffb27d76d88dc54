/** The few reads only the web pages need: the most recently certified skills, and whether a namespace exists. */
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CERTIFICATION_POLICY_VERSION } from '@skillhub/certification';
import { Namespace } from '@skillhub/database';
import type { RecentlyCertified } from './pages';

@Injectable()
export class WebQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** Listed versions holding a valid certificate now, newest certificate first. */
  async recentlyCertified(limit = 10): Promise<RecentlyCertified[]> {
    const rows: Array<{
      author: string;
      name: string;
      version: string;
      description: string;
      level: string;
      issued_at: Date | null;
    }> = await this.dataSource.query(
      `SELECT n."slug" AS author, s."name", v."version", v."description", c."level", c."issued_at"
         FROM "skills" s
         JOIN "namespaces" n ON n."id" = s."namespace_id"
         JOIN "skill_versions" v ON v."id" = s."latest_version_id"
         JOIN "certifications" c ON c."skill_version_id" = v."id" AND c."policy_version" = $1
        WHERE c."status" = 'certified' AND (c."expires_at" IS NULL OR c."expires_at" > now())
        ORDER BY c."issued_at" DESC NULLS LAST, v."id" DESC
        LIMIT $2`,
      [CERTIFICATION_POLICY_VERSION, limit],
    );
    return rows.map((r) => ({ ...r, issued_at: r.issued_at ? new Date(r.issued_at).toISOString() : null }));
  }

  async namespaceExists(slug: string): Promise<boolean> {
    return this.dataSource.getRepository(Namespace).existsBy({ slug });
  }
}
