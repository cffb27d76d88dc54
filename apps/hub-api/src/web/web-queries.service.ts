/**
 * The reads only the web pages need: the most recently certified skills, whether a namespace
 * exists, what a skill page shows beyond the API's version (README, links, revocation), and
 * the certified skills that run an MCP server.
 */
import { Injectable } from '@nestjs/common';
import { readBundle } from '@skillhub/bundle';
import { splitFrontMatter } from '@skillhub/skill-formats';
import {
  NamespaceRepository,
  SkillRepository,
  SkillSearchRepository,
  WebPageRepository,
  type SkillVersion,
} from '@skillhub/database';
import { safeHttpUrl } from './html';
import { renderMarkdown } from './markdown';
import type { RecentlyCertified } from './pages';
import type { ServerUsage } from './server-page';
import type { Readme, VersionExtras } from './skill-page';

/** Rendered READMEs kept, by bundle digest: bundles never change, so an entry is never stale. */
const README_CACHE_ENTRIES = 256;
/** The most versions a server page lists. */
const SERVER_USERS_LISTED = 100;
const README_FILE = /^readme(\.(md|markdown|txt))?$/i;

@Injectable()
export class WebQueries {
  private readonly readmes = new Map<string, Readme | null>();

  constructor(
    private readonly search: SkillSearchRepository,
    private readonly namespaces: NamespaceRepository,
    private readonly skills: SkillRepository,
    private readonly pages: WebPageRepository,
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

  /** The manifest's links, the rendered README (or SKILL.md body) and the revocation, of a version that exists. */
  async versionExtras(author: string, name: string, version: string): Promise<VersionExtras> {
    const v = await this.skills.findVersion(author, name, version);
    if (!v) return { homepage: null, repository: null, readme: null, revocation: null };
    const [readme, revocation] = await Promise.all([this.readme(v), this.pages.revocationOf(v.id)]);
    const manifest = v.manifest as Record<string, unknown>;
    return {
      homepage: safeHttpUrl(manifest.homepage),
      repository: safeHttpUrl(manifest.repository),
      readme,
      revocation: revocation
        ? {
            reason: revocation.reason,
            revoked_at: revocation.createdAt.toISOString(),
            log_index: Number(revocation.logIndex),
          }
        : null,
    };
  }

  async serverUsage(packageName: string): Promise<ServerUsage[]> {
    const users = await this.pages.serverUsers(packageName, SERVER_USERS_LISTED);
    return users.map((u) => ({ ...u, issuedAt: u.issuedAt?.toISOString() ?? null }));
  }

  /** An Agent Skill's SKILL.md body; else the README at the skill folder's root, if any. */
  private async readme(v: SkillVersion): Promise<Readme | null> {
    const key = `${v.bundleSha256}:${v.manifestPath}`;
    if (this.readmes.has(key)) return this.readmes.get(key)!;
    const path = v.format === 'agent-skill' ? v.manifestPath : v.files.find((f) => README_FILE.test(f.path))?.path;
    let readme: Readme | null = null;
    if (path) {
      const file = readBundle(await this.skills.bundleBytes(v.bundleSha256)).files.find((f) => f.path === path);
      const text = file?.content.toString('utf8') ?? '';
      const body = v.format === 'agent-skill' ? (splitFrontMatter(text)?.instructions ?? text) : text;
      if (body.trim()) readme = { path, ...renderMarkdown(body) };
    }
    if (this.readmes.size >= README_CACHE_ENTRIES) this.readmes.delete(this.readmes.keys().next().value!);
    this.readmes.set(key, readme);
    return readme;
  }
}
