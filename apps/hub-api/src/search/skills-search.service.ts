/**
 * Lists, search and stats over each skill's listed version (its latest not yanked),
 * or over every version with `all_versions`. The ranking rule is documented in
 * libs/search (parseSearchQuery); this file is its SQL.
 */
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CERTIFICATION_POLICY_VERSION } from '@skillhub/certification';
import type { CertificationLevel } from '@skillhub/database';
import { type CursorColumn, type CursorValues, decodeCursor, encodeCursor, parseSearchQuery } from '@skillhub/search';
import type { SkillFormat } from '@skillhub/skill-formats';
import { DomainError } from '@skillhub/errors';
import { kazmaSkillId } from '../skills/skill-ref';
import type { ListSkillsQueryDto, SkillSort } from './dto/list-skills.request.dto';
import type { SkillListItemDto, SkillListResponseDto, StatsResponseDto } from './dto/skill-list.response.dto';

const DEFAULT_PAGE_SIZE = 20;
/** ts_rank weights for D, C, B, A: tool text, tags and capabilities, description, name. */
const RANK_WEIGHTS = '{0.1,0.2,0.4,1.0}';
/** The typo fallback runs only when full text finds fewer skills than this. */
const TYPO_FALLBACK_BELOW = 20;
/** Below this word similarity a name is not a typo of the query. */
const TRIGRAM_THRESHOLD = 0.45;

/** A certificate that holds now (not revoked, failed or past its expiry). */
/** The skill columns a candidate row carries out of the search branches. */
const SKILL_COLUMNS = 's."id", s."name", s."namespace_id", s."latest_version_id", s."downloads", s."updated_at"';

const CERTIFIED_NOW = `(c."status" = 'certified' AND (c."expires_at" IS NULL OR c."expires_at" > now()))`;

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

export class InvalidPagingError extends DomainError {
  constructor(message: string, path: string) {
    super('SEARCH.INVALID', message, [{ path, message, severity: 'error' }]);
  }
}

interface SortPlan {
  order: string;
  /** Keyset columns and the cursor values read from a row; null = offset paging. */
  keyset: { columns: string[]; casts: Exclude<CursorColumn, 'offset'>[]; values: (r: Row) => CursorValues } | null;
}

function sortPlan(sort: SkillSort, allVersions: boolean): SortPlan {
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

@Injectable()
export class SkillsSearchService {
  constructor(private readonly dataSource: DataSource) {}

  async list(query: ListSkillsQueryDto): Promise<SkillListResponseDto> {
    const cursorMode = query.limit !== undefined || query.cursor !== undefined;
    if (cursorMode && (query.page !== undefined || query.per_page !== undefined)) {
      throw new InvalidPagingError('Use either page/per_page or limit/cursor, not both.', 'cursor');
    }
    const q = query.q?.trim() ? query.q : undefined;
    const sort: SkillSort = query.sort ?? (q ? 'relevance' : 'name');
    if (sort === 'relevance' && !q) throw new InvalidPagingError('sort=relevance needs q.', 'sort');
    const allVersions = query.all_versions ?? false;
    const plan = sortPlan(sort, allVersions);

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
      certification: `LEFT JOIN "certifications" c ON c."skill_version_id" = v."id" AND c."policy_version" = ${CERTIFICATION_POLICY_VERSION}`,
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
    const pageSize = (cursorMode ? query.limit : query.per_page) ?? DEFAULT_PAGE_SIZE;

    let offset = cursorMode ? 0 : ((query.page ?? 1) - 1) * pageSize;
    if (query.cursor) {
      // A keyset cursor holds one value per keyset column; a cursor of a sort without one, the offset.
      const values = decodeCursor(query.cursor, sort, plan.keyset?.casts ?? ['offset']);
      if (!values) throw new InvalidPagingError('The cursor is malformed or was made for another sort.', 'cursor');
      if (plan.keyset) {
        const placeholders = values.map((v, i) => `${params.add(v)}::${plan.keyset!.casts[i]}`);
        where.push(`(${plan.keyset.columns.join(', ')}) < (${placeholders.join(', ')})`);
      } else {
        offset = values[0] as number;
      }
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
      LIMIT ${params.add(pageSize + 1)} OFFSET ${params.add(offset)}`;

    const [rows, [{ total }]] = await this.dataSource.transaction(async (m) => {
      // Index-backed `<%` uses this threshold; SET LOCAL keeps it to this transaction.
      await m.query(`SET LOCAL pg_trgm.word_similarity_threshold = ${TRIGRAM_THRESHOLD}`);
      const page: Row[] = await m.query(sql, params.values);
      const count: Array<{ total: number }> = await m.query(countSql, countParams);
      return [page, count] as const;
    });
    const items = rows.slice(0, pageSize).map(toItem);
    const hasMore = rows.length > pageSize;
    if (!cursorMode) return { items, total, page: query.page ?? 1, per_page: pageSize };
    const last = rows[pageSize - 1];
    const next = !hasMore || !last ? null : plan.keyset ? plan.keyset.values(last) : [offset + pageSize];
    return { items, total, next_cursor: next ? encodeCursor(sort, next) : null };
  }

  async stats(): Promise<StatsResponseDto> {
    const rows: Array<{ category: string; total: number; certified: number }> = await this.dataSource.query(
      `SELECT coalesce(v."category", 'uncategorized') AS category, count(*)::int AS total,
              count(*) FILTER (WHERE ${CERTIFIED_NOW})::int AS certified
       FROM "skills" s
       JOIN "skill_versions" v ON v."id" = s."latest_version_id"
       LEFT JOIN "certifications" c ON c."skill_version_id" = v."id" AND c."policy_version" = $1
       GROUP BY 1 ORDER BY 1`,
      [CERTIFICATION_POLICY_VERSION],
    );
    return {
      total_skills: rows.reduce((n, r) => n + r.total, 0),
      certified_count: rows.reduce((n, r) => n + r.certified, 0),
      by_category: Object.fromEntries(rows.map((r) => [r.category, r.total])),
    };
  }
}

function toItem(r: Row): SkillListItemDto {
  return {
    id: kazmaSkillId(r.author, r.name, r.version),
    name: r.name,
    author: r.author,
    description: r.description,
    version: r.version,
    category: r.category,
    tags: r.tags,
    certified: r.certified,
    downloads: Number(r.downloads),
    capabilities: r.capabilities,
    format: r.format,
    certification_level: r.certified ? (r.level ?? 'none') : 'none',
    updated_at: new Date(r.updated_at).toISOString(),
  };
}
