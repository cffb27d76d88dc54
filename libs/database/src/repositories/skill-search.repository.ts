/**
 * Lists, search and stats over each skill's listed version (its latest not yanked), or over
 * every version with `allVersions`. The ranking rule is documented in libs/search
 * (parseSearchQuery); this file is its SQL. Certification columns are the current policy's,
 * "certified" is `certifiedNowSql` (current-certification.ts).
 */
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type CursorColumn, type CursorValues, parseSearchQuery } from '@skillhub/search';
import type { SkillFormat } from '@skillhub/skill-formats';
import type { CertificationLevel } from '../entities/certification.entity';
import { certifiedNowSql, currentCertificationJoin } from './current-certification';

export const SEARCH_SORTS = ['relevance', 'name', 'updated', 'downloads', 'version'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** ts_rank weights for D, C, B, A: tool text, tags and capabilities, description, name. */
const RANK_WEIGHTS = '{0.1,0.2,0.4,1.0}';
/** The typo fallback runs only when full text finds fewer skills than this. */
const TYPO_FALLBACK_BELOW = 20;
/** Below this word similarity a name is not a typo of the query. */
const TRIGRAM_THRESHOLD = 0.45;

/** The skill columns a candidate row carries out of the search branches. */
const SKILL_COLUMNS = 's."id", s."name", s."namespace_id", s."latest_version_id", s."downloads", s."updated_at"';

const CERTIFIED_NOW = certifiedNowSql('c');

export interface SkillSearch {
  /** Words as typed; `relevance` ranks by them. */
  q?: string;
  author?: string;
  category?: string;
  format?: SkillFormat;
  /** Every one of these. */
  capabilities?: string[];
  /** Any of these. */
  tags?: string[];
  /** Holding a certificate now, or not. */
  certified?: boolean;
  /** Every version rather than each skill's listed one. */
  allVersions: boolean;
  sort: SearchSort;
  /** Rows of the page. */
  limit: number;
  /** Where the page starts: an offset, or after the position of a sort that has a keyset (`positionColumns`). */
  start: { offset: number } | { after: CursorValues };
}

export interface SkillSearchRow {
  author: string;
  name: string;
  version: string;
  description: string;
  category: string | null;
  tags: string[];
  capabilities: string[];
  format: SkillFormat;
  certified: boolean;
  /** The current certification's level, when there is a row. */
  level: CertificationLevel | null;
  downloads: number;
  updatedAt: Date;
  /** The row's keyset position (null for a sort without one): the page after it starts there. */
  position: CursorValues | null;
}

export interface SkillSearchPage {
  rows: SkillSearchRow[];
  /** Whether rows follow this page. */
  more: boolean;
  /** Matches in all pages. */
  total: number;
}

export interface CategoryCount {
  category: string;
  total: number;
  certified: number;
}

/** A listed version holding a certificate now. */
export interface CertifiedListing {
  author: string;
  name: string;
  version: string;
  description: string;
  level: string;
  issuedAt: Date | null;
}

interface Row {
  name: string;
  author: string;
  version: string;
  description: string;
  category: string | null;
  tags: string[];
  capabilities: string[];
  format: SkillFormat;
  certified: boolean;
  level: CertificationLevel | null;
  downloads: string;
  updated_at: Date;
  k_updated: string;
  major: number;
  minor: number;
  patch: number;
  vid: string;
  score: number | null;
}

/** Collects positional parameters while a query is written. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

interface SortPlan {
  order: string;
  /** Keyset columns and the position read from a row; null = offset paging. */
  keyset: { columns: string[]; casts: Exclude<CursorColumn, 'offset'>[]; values: (r: Row) => CursorValues } | null;
}

function sortPlan(sort: SearchSort, allVersions: boolean): SortPlan {
  const downloads = allVersions ? 'v."downloads"' : 's."downloads"';
  const updated = allVersions ? 'v."created_at"' : 's."updated_at"';
  switch (sort) {
    case 'relevance':
      return { order: `s."score" DESC, ${downloads} DESC, s."name", n."slug", v."id"`, keyset: null };
    case 'name':
      return {
        order: 's."name", n."slug", v."major" DESC, v."minor" DESC, v."patch" DESC, v."id"',
        keyset: null,
      };
    case 'updated':
      return {
        order: `${updated} DESC, v."id" DESC`,
        keyset: { columns: [updated, 'v."id"'], casts: ['timestamptz', 'uuid'], values: (r) => [r.k_updated, r.vid] },
      };
    case 'downloads':
      return {
        order: `${downloads} DESC, v."id" DESC`,
        keyset: { columns: [downloads, 'v."id"'], casts: ['bigint', 'uuid'], values: (r) => [r.downloads, r.vid] },
      };
    case 'version':
      return {
        order: 'v."major" DESC, v."minor" DESC, v."patch" DESC, v."id" DESC',
        keyset: {
          columns: ['v."major"', 'v."minor"', 'v."patch"', 'v."id"'],
          casts: ['int', 'int', 'int', 'uuid'],
          values: (r) => [r.major, r.minor, r.patch, r.vid],
        },
      };
  }
}

/** What a position of `sort` holds: its keyset columns' types, or the offset of a sort without a keyset. */
export function positionColumns(sort: SearchSort): CursorColumn[] {
  return sortPlan(sort, false).keyset?.casts ?? ['offset'];
}

@Injectable()
export class SkillSearchRepository {
  constructor(private readonly dataSource: DataSource) {}

  async search(query: SkillSearch): Promise<SkillSearchPage> {
    const { allVersions } = query;
    const plan = sortPlan(query.sort, allVersions);
    const q = query.q?.trim() ? query.q : undefined;

    const params = new Params();
    const listed = allVersions ? '' : 's."latest_version_id" IS NOT NULL';
    let source = '"skills" s';
    if (q) {
      const parsed = parseSearchQuery(q);
      const exact = `websearch_to_tsquery('english', ${params.add(parsed.text)})`;
      // The last word as typed so far: matched as a prefix too, but ranked below whole words,
      // so `servings` prefers a skill that says "servings" over one that says "services".
      const prefix = parsed.prefix
        ? `(websearch_to_tsquery('english', ${params.add(parsed.textBeforePrefix)}) && to_tsquery('english', ${params.add(`${parsed.prefix}:*`)}))`
        : null;
      const tsquery = prefix ? `(${exact} || ${prefix})` : exact;
      const trgm = params.add(parsed.trigram);
      const textScore = `10 * ts_rank_cd('${RANK_WEIGHTS}', s."search_vector", ${exact})${
        prefix ? ` + 2 * ts_rank_cd('${RANK_WEIGHTS}', s."search_vector", ${prefix})` : ''
      }`;
      const nameScore = `3 * similarity(${trgm}, s."name") + CASE WHEN s."name" = ${trgm} THEN 5 ELSE 0 END`;
      // Two index-backed branches on `skills`, scored where they are read (no re-join, no
      // scan of every skill): full-text matches, and, only when those are few, names that
      // a trigram finds (the typo fallback: `wether` → weather-now).
      const only = listed ? `AND ${listed}` : '';
      const fullText = `s."search_vector" @@ ${tsquery} ${only}`;
      source = `(SELECT ${SKILL_COLUMNS}, ${textScore} + ${nameScore} AS score FROM "skills" s WHERE ${fullText}
        UNION ALL
        SELECT ${SKILL_COLUMNS}, ${nameScore} AS score
          FROM "skills" s
          WHERE (SELECT count(*) FROM (SELECT 1 FROM "skills" s WHERE ${fullText} LIMIT ${TYPO_FALLBACK_BELOW}) few) < ${TYPO_FALLBACK_BELOW}
            AND ${trgm} <% s."name" AND NOT coalesce(s."search_vector" @@ ${tsquery}, false) ${only}
      ) s`;
    }
    const where: string[] = q || !listed ? [] : [listed];
    const needs = { namespace: false, version: allVersions, certification: false };
    if (query.author) {
      where.push(`n."slug" = ${params.add(query.author)}`);
      needs.namespace = true;
    }
    const versionFilters: string[] = [];
    if (query.category) versionFilters.push(`v."category" = ${params.add(query.category)}`);
    if (query.format) versionFilters.push(`v."format" = ${params.add(query.format)}`);
    if (query.capabilities?.length)
      versionFilters.push(`v."capabilities" @> ${params.add(query.capabilities)}::text[]`);
    if (query.tags?.length) versionFilters.push(`v."tags" && ${params.add(query.tags)}::text[]`);
    if (query.certified !== undefined) {
      versionFilters.push(query.certified ? CERTIFIED_NOW : `NOT coalesce(${CERTIFIED_NOW}, false)`);
      needs.certification = true;
    }
    where.push(...versionFilters);
    needs.version ||= versionFilters.length > 0;

    const joins = {
      namespace: `JOIN "namespaces" n ON n."id" = s."namespace_id"`,
      version: allVersions
        ? `JOIN "skill_versions" v ON v."skill_id" = s."id"`
        : `JOIN "skill_versions" v ON v."id" = s."latest_version_id"`,
      certification: currentCertificationJoin('v', 'c'),
    };
    const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    // The count joins only what its filters read.
    const countJoins = [
      needs.namespace ? joins.namespace : '',
      needs.version || needs.certification ? joins.version : '',
      needs.certification ? joins.certification : '',
    ].join(' ');
    const countSql = `SELECT count(*)::int AS total FROM ${source} ${countJoins} ${whereSql}`;
    const countParams = [...params.values];
    const from = [`FROM ${source}`, joins.namespace, joins.version, joins.certification];

    let offset = 0;
    if ('after' in query.start) {
      if (!plan.keyset) throw new Error(`sort ${query.sort} has no keyset to start after`);
      const placeholders = query.start.after.map((v, i) => `${params.add(v)}::${plan.keyset!.casts[i]}`);
      where.push(`(${plan.keyset.columns.join(', ')}) < (${placeholders.join(', ')})`);
    } else {
      offset = query.start.offset;
    }

    const sql = `SELECT n."slug" AS author, s."name", v."version", v."description", v."category", v."tags", v."capabilities",
        v."format", coalesce(${CERTIFIED_NOW}, false) AS certified, c."level" AS level,
        ${allVersions ? 'v."downloads"' : 's."downloads"'} AS downloads,
        ${allVersions ? 'v."created_at"' : 's."updated_at"'} AS updated_at,
        ${allVersions ? 'v."created_at"' : 's."updated_at"'}::text AS k_updated,
        v."major", v."minor", v."patch", v."id" AS vid, ${q ? 's."score"' : 'NULL::float8'} AS score
      ${from.join(' ')}
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY ${plan.order}
      LIMIT ${params.add(query.limit + 1)} OFFSET ${params.add(offset)}`;

    const [rows, [{ total }]] = await this.dataSource.transaction(async (m) => {
      // Index-backed `<%` uses this threshold; SET LOCAL keeps it to this transaction.
      await m.query(`SET LOCAL pg_trgm.word_similarity_threshold = ${TRIGRAM_THRESHOLD}`);
      const page: Row[] = await m.query(sql, params.values);
      const count: Array<{ total: number }> = await m.query(countSql, countParams);
      return [page, count] as const;
    });
    return {
      rows: rows.slice(0, query.limit).map((r) => ({
        author: r.author,
        name: r.name,
        version: r.version,
        description: r.description,
        category: r.category,
        tags: r.tags,
        capabilities: r.capabilities,
        format: r.format,
        certified: r.certified,
        level: r.level,
        downloads: Number(r.downloads),
        updatedAt: new Date(r.updated_at),
        position: plan.keyset ? plan.keyset.values(r) : null,
      })),
      more: rows.length > query.limit,
      total,
    };
  }

  /** Listed skills by category (uncategorized ones under that name), with how many are certified now. */
  stats(): Promise<CategoryCount[]> {
    return this.dataSource.query(
      `SELECT coalesce(v."category", 'uncategorized') AS category, count(*)::int AS total,
              count(*) FILTER (WHERE ${CERTIFIED_NOW})::int AS certified
       FROM "skills" s
       JOIN "skill_versions" v ON v."id" = s."latest_version_id"
       ${currentCertificationJoin('v', 'c')}
       GROUP BY 1 ORDER BY 1`,
    );
  }

  /** Listed versions holding a certificate now, newest certificate first. */
  async recentlyCertified(limit: number): Promise<CertifiedListing[]> {
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
         ${currentCertificationJoin('v', 'c')}
        WHERE ${CERTIFIED_NOW}
        ORDER BY c."issued_at" DESC NULLS LAST, v."id" DESC
        LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({
      author: r.author,
      name: r.name,
      version: r.version,
      description: r.description,
      level: r.level,
      issuedAt: r.issued_at ? new Date(r.issued_at) : null,
    }));
  }
}
