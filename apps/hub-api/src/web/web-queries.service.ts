/** The few reads only the web pages need: the most recently certified skills, and whether a namespace exists. */
import { Injectable } from '@nestjs/common';
import { NamespaceRepository, SkillSearchRepository } from '@skillhub/database';
import type { RecentlyCertified } from './pages';

@Injectable()
export class WebQueries {
  constructor(
    private readonly search: SkillSearchRepository,
    private readonly namespaces: NamespaceRepository,
  ) {}

  /** Listed versions holding a valid certificate now, newest certificate first. */
  async recentlyCertified(limit = 10): Promise<RecentlyCertified[]> {
    const rows = await this.search.recentlyCertified(limit);
    return rows.map((r) => ({
      author: r.author,
      name: r.name,
      version: r.version,
      description: r.description,
      level: r.level,
      issued_at: r.issuedAt?.toISOString() ?? null,
    }));
  }

  namespaceExists(slug: string): Promise<boolean> {
    return this.namespaces.exists(slug);
  }
}
