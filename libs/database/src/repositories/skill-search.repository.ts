/**
 * Lists, search and stats over each skill's listed version (its latest not yanked), or over
 * every version with `allVersions`. The ranking rule is documented in libs/search
 * (parseSearchQuery); this file is its SQL, and this header says why it stays fast as the
 * catalogue grows: a listed page reads `skills` alone (the listed version's columns and its
 * certification are copied there by triggers), search ranks a bounded candidate set, totals
 * stop at a cap, and stats read trigger-kept counters. Certification columns are the current
 * policy's, "certified" is `certifiedNowSql` (current-certification.ts).
 */
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type CursorColumn, type CursorValues, parseSearchQuery } from '@skillhub/search';
import type { SkillFormat } from '@skillhub/skill-formats';
import type { CertificationLevel } from '../entities/certification.entity';
import { CURRENT_POLICY, certifiedNowSql, currentCertificationJoin } from './current-certification';

export const SEARCH_SORTS = ['relevance', 'name', 'updated', 'downloads', 'version'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** ts_rank_cd weights for D, C, B, A: tool text, tags and capabilities, description, name. */
const RANK_WEIGHTS = '{0.1,0.2,0.4,1.0}';
/** The typo fallback runs only when full text finds fewer skills than this. */
const TYPO_FALLBACK_BELOW = 20;
/** When more than TOTAL_CAP match: the candidates ranked, in static-score order (libs/search, rule 1). */
const CANDIDATES = 300;
/** Candidates whose name contains every word, added to those of any field. */
const NAME_CANDIDATES = 100;
/** Indexed words tried for each word of a misspelt query. */
const FUZZY_ALTERNATIVES = 5;
/** `total` is exact up to this; above it, the planner's estimate, flagged as one. */
export const TOTAL_CAP = 1000;

/**
 * SQL: listed skill `s` holds a certificate now, from the columns the triggers copy from its
 * listed version's certification (the rule of `certifiedNowSql`, on the newest policy's row).
 */
const LISTED_CERTIFIED_NOW = `(s."cert_policy" = ${CURRENT_POLICY} AND s."cert_status" = 'certified' AND (s."cert_expires_at" IS NULL OR s."cert_expires_at" > now()))`;
/** SQL: listed skills whose certificate has passed its expiry (few; a partial index finds them). */
const LISTED_EXPIRED = `s."cert_status" = 'certified' AND s."latest_version_id" IS NOT NULL AND s."cert_policy" = ${CURRENT_POLICY} AND s."cert_expires_at" <= now()`;
const CERTIFIED_NOW = certifiedNowSql('c');
/** The skill columns a listed page carries out of its one-table inner query. */
const LISTED_COLUMNS = [
  'id',
  'name',
  'namespace_id',
  'latest_version_id',
  'downloads',
  'updated_at',
  'listed_major',
  'listed_minor',
  'listed_patch',
  'cert_policy',
  'cert_status',
  'cert_level',
  'cert_expires_at',
]
  .map((c) => `s."${c}"`)
  .join(', ');

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
  /** Matches in all pages: exact up to TOTAL_CAP, else an estimate (`totalIsEstimate`). */
  total: number;
  totalIsEstimate: boolean;
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
  kid: string;
}

/** Collects positional parameters while a query is written. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

type KeyColumn = Exclude<CursorColumn, 'offset'>;

interface Total {
  total: number;
  totalIsEstimate: boolean;
}

/**
 * Plan settings for the rest of a search's transaction. The full-text index alone (a bitmap:
 * no table scan, no index order walked in hope of matches), while the matches may be few;
 * an index order cut short (the static score's or the sort's) once they are known to be many.
 */
const PLAN_BY_INDEX = {
  fullText: `SELECT set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)`,
  order: `SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_indexscan', 'on', true)`,
};

interface SortPlan {
  order: string;
  /** Keyset columns (one table's), their direction and the position read from a row; null = offset paging. */
  keyset: { columns: string[]; casts: KeyColumn[]; after: '<' | '>'; values: (r: Row) => CursorValues } | null;
}

/** A keyset order, every column descending. */
function descending(columns: string[], casts: KeyColumn[], values: (r: Row) => CursorValues): SortPlan {
  return { order: columns.map((c) => `${c} DESC`).join(', '), keyset: { columns, casts, after: '<', values } };
}

/**
 * Each sort's order and keyset. A listed page sorts `skills` alone (each keyset has its index,
 * the migration's `skills_*_id_idx`); an every-version page sorts `skill_versions` by its own
 * columns (`skill_versions_*_id_idx`). Relevance pages by offset within its bounded candidates.
 */
function sortPlan(sort: SearchSort, allVersions: boolean): SortPlan {
  const t = allVersions ? 'v' : 's';
  const downloads = `${t}."downloads"`;
  const id = `${t}."id"`;
  switch (sort) {
    case 'relevance':
      return {
        order: `"score" DESC, ${downloads} DESC, s."name", ${allVersions ? 'n."slug", v."id"' : 's."id"'}`,
        keyset: null,
      };
    case 'name':
      return allVersions
        ? { order: 's."name", n."slug", v."major" DESC, v."minor" DESC, v."patch" DESC, v."id"', keyset: null }
        : {
            order: 's."name", s."id"',
            keyset: {
              columns: ['s."name"', 's."id"'],
              casts: ['text', 'uuid'],
              after: '>',
              values: (r) => [r.name, r.kid],
            },
          };
    case 'updated':
      return descending([allVersions ? 'v."created_at"' : 's."updated_at"', id], ['timestamptz', 'uuid'], (r) => [
        r.k_updated,
        r.kid,
      ]);
    case 'downloads':
      return descending([downloads, id], ['bigint', 'uuid'], (r) => [r.downloads, r.kid]);
    case 'version':
      return descending(
        allVersions
          ? ['v."major"', 'v."minor"', 'v."patch"', id]
          : ['s."listed_major"', 's."listed_minor"', 's."listed_patch"', id],
        ['int', 'int', 'int', 'uuid'],
        (r) => [r.major, r.minor, r.patch, r.kid],
      );
  }
}

/** What a position of `sort` holds: its keyset columns' types, or the offset of a sort without a keyset. */
export function positionColumns(sort: SearchSort, allVersions = false): CursorColumn[] {
  return sortPlan(sort, allVersions).keyset?.casts ?? ['offset'];
}

/** SQL: lexeme `w.word` as a to_tsquery operand (quoted, so nothing in it reads as an operator). */
const QUOTED_WORD = `'''' || replace(replace(w."word", '\\', '\\\\'), '''', '''''') || ''''`;

const and = (conds: readonly string[]): string => conds.map((c) => ` AND ${c}`).join('');

@Injectable()
export class SkillSearchRepository {
  constructor(private readonly dataSource: DataSource) {}

  async search(query: SkillSearch): Promise<SkillSearchPage> {
    const { allVersions } = query;
    const plan = sortPlan(query.sort, allVersions);
    const q = query.q?.trim() ? query.q : undefined;
    const params = new Params();

    // Conditions on `skills` alone, which pick search candidates too; on an every-version page,
    // those on the version and its certification apply to each version.
    const skillConds: string[] = [];
    if (query.author) {
      skillConds.push(
        `s."namespace_id" = (SELECT n."id" FROM "namespaces" n WHERE n."slug" = ${params.add(query.author)})`,
      );
    }
    const versionConds: string[] = [];
    if (query.format) versionConds.push(`v."format" = ${params.add(query.format)}`);
    if (query.capabilities?.length) versionConds.push(`v."capabilities" @> ${params.add(query.capabilities)}::text[]`);
    if (query.tags?.length) versionConds.push(`v."tags" && ${params.add(query.tags)}::text[]`);
    if (allVersions) {
      if (query.category) versionConds.push(`v."category" = ${params.add(query.category)}`);
      if (query.certified !== undefined) {
        versionConds.push(query.certified ? CERTIFIED_NOW : `NOT coalesce(${CERTIFIED_NOW}, false)`);
      }
    } else {
      skillConds.push('s."latest_version_id" IS NOT NULL');
      if (query.category) skillConds.push(`s."listed_category" = ${params.add(query.category)}`);
      if (query.certified !== undefined) {
        skillConds.push(query.certified ? LISTED_CERTIFIED_NOW : `NOT coalesce(${LISTED_CERTIFIED_NOW}, false)`);
      }
      if (versionConds.length) {
        skillConds.push(
          `EXISTS (SELECT 1 FROM "skill_versions" v WHERE v."id" = s."latest_version_id"${and(versionConds)})`,
        );
        versionConds.length = 0;
      }
    }
    const { start } = query;
    const offset = 'offset' in start ? start.offset : 0;
    if (!q) return this.page(this.dataSource.manager, query, plan, params, skillConds, versionConds, null, offset);

    // With text, one transaction: its settings choose the plan (SET LOCAL lasts until COMMIT).
    return this.dataSource.transaction(async (m) => {
      const parsed = parseSearchQuery(q);
      const exact = `websearch_to_tsquery('english', ${params.add(parsed.text)})`;
      // The last word as typed so far: matched as a prefix too, but ranked below whole words,
      // so `servings` prefers a skill that says "servings" over one that says "services".
      const prefix = parsed.prefix
        ? `(websearch_to_tsquery('english', ${params.add(parsed.textBeforePrefix)}) && to_tsquery('english', ${params.add(`${parsed.prefix}:*`)}))`
        : null;
      const fullText = `s."search_vector" @@ ${prefix ? `(${exact} || ${prefix})` : exact}`;
      // How many match, counted up to the cap through the full-text index alone. The planner
      // cannot tell a rare word from a common one (a prefix's selectivity is a guess), so the
      // count, not the planner, picks the plan: every match when they are few, an index order
      // cut short when they are many.
      await m.query(PLAN_BY_INDEX.fullText);
      const probe = await this.probe(m, params, fullText + and(skillConds), parsed.fuzzyWords, parsed.nameWords);
      const fuzzy = probe.fuzzy ? `to_tsquery('simple', ${params.add(probe.fuzzy)})` : null;
      const match = fuzzy ? `(${fullText} OR s."search_vector" @@ ${fuzzy})` : fullText;
      const matchParams = params.values.length;
      const many = probe.hits > TOTAL_CAP;
      if (many) await m.query(PLAN_BY_INDEX.order);

      let candidates: string | null = null;
      if (query.sort === 'relevance') {
        const trgm = params.add(parsed.trigram);
        const rank = (tsquery: string, weight: number) =>
          `${weight} * ts_rank_cd('${RANK_WEIGHTS}', s."search_vector", ${tsquery})`;
        const score = [
          rank(exact, 10),
          prefix ? rank(prefix, 2) : null,
          fuzzy ? rank(fuzzy, 5) : null,
          `3 * similarity(${trgm}, s."name")`,
          `CASE WHEN s."name" = ${trgm} THEN 5 ELSE 0 END`,
        ]
          .filter(Boolean)
          .join(' + ');
        // Bounded candidates (libs/search, rule 1): every match when there are at most TOTAL_CAP,
        // else the top of the static order, and of the name matches, each an index order cut short.
        const branch = (cond: string, limit: number) =>
          `(SELECT s."id" FROM "skills" s WHERE ${cond}${and(skillConds)}${many ? ' ORDER BY s."static_score" DESC' : ''} LIMIT ${limit})`;
        const branches = [branch(match, many ? CANDIDATES : TOTAL_CAP)];
        if (many && probe.names.length) branches.push(`(SELECT unnest(${params.add(probe.names)}::uuid[]))`);
        candidates = `WITH "hits" AS (${branches.join(' UNION ')}),
          "cand" AS (SELECT s."id", ${score} AS "score" FROM "hits" h JOIN "skills" s ON s."id" = h."id")`;
      }
      // Few and no fallback: the probe counted them all; many: the estimate; else a capped count.
      const total = many ? 'estimate' : fuzzy ? null : { total: probe.hits, totalIsEstimate: false };
      return this.page(m, query, plan, params, [match, ...skillConds], versionConds, candidates, offset, {
        matchParams,
        total,
      });
    });
  }

  /** One page and its total: `candidates` (a `cand` CTE of ids and scores) when relevance ranks them. */
  private async page(
    m: EntityManager,
    query: SkillSearch,
    plan: SortPlan,
    params: Params,
    skillConds: string[],
    versionConds: string[],
    candidates: string | null,
    offset: number,
    known: { matchParams: number; total: Total | 'estimate' | null } | null = null,
  ): Promise<SkillSearchPage> {
    const { allVersions, start } = query;
    const matchParams = known?.matchParams ?? params.values.length;
    const keysetConds: string[] = [];
    if ('after' in start) {
      const keyset = plan.keyset;
      if (!keyset) throw new Error(`sort ${query.sort} has no keyset to start after`);
      const placeholders = start.after.map((v, i) => `${params.add(v)}::${keyset.casts[i]}`);
      keysetConds.push(`(${keyset.columns.join(', ')}) ${keyset.after} (${placeholders.join(', ')})`);
    }
    const limit = params.add(query.limit + 1);
    const skip = params.add(offset);
    const item = (certified: string, level: string) =>
      `n."slug" AS author, s."name", v."version", v."description", v."category", v."tags", v."capabilities",
       v."format", coalesce(${certified}, false) AS certified, ${level} AS level`;
    // Ranked candidates already passed every condition; the other orders apply them here.
    const conds = [...(candidates ? [] : skillConds), ...keysetConds];
    const join = candidates ? 'JOIN "cand" ON cand."id" = s."id"' : '';
    const score = candidates ? 'cand."score"' : 'NULL::float8';
    const sql = allVersions
      ? `${candidates ?? ''} SELECT ${item(CERTIFIED_NOW, 'c."level"')}, v."downloads", v."created_at" AS updated_at,
            v."created_at"::text AS k_updated, v."major", v."minor", v."patch", v."id" AS kid, ${score} AS "score"
          FROM "skills" s ${join}
          JOIN "skill_versions" v ON v."skill_id" = s."id" JOIN "namespaces" n ON n."id" = s."namespace_id"
          ${currentCertificationJoin('v', 'c')}
          WHERE TRUE${and([...conds, ...versionConds])}
          ORDER BY ${plan.order} LIMIT ${limit} OFFSET ${skip}`
      : `${candidates ?? ''} SELECT ${item(LISTED_CERTIFIED_NOW, `CASE WHEN s."cert_policy" = ${CURRENT_POLICY} THEN s."cert_level" END`)},
            s."downloads", s."updated_at", s."updated_at"::text AS k_updated, s."listed_major" AS major,
            s."listed_minor" AS minor, s."listed_patch" AS patch, s."id" AS kid
          FROM (SELECT ${LISTED_COLUMNS}, ${score} AS "score" FROM "skills" s ${join}
                WHERE TRUE${and(conds)} ORDER BY ${plan.order} LIMIT ${limit} OFFSET ${skip}) s
          JOIN "namespaces" n ON n."id" = s."namespace_id" JOIN "skill_versions" v ON v."id" = s."latest_version_id"
          ORDER BY ${plan.order}`;
    const rows: Row[] = await m.query(sql, params.values);

    const matching = allVersions
      ? `FROM "skills" s JOIN "skill_versions" v ON v."skill_id" = s."id" ${currentCertificationJoin('v', 'c')}
         WHERE TRUE${and([...skillConds, ...versionConds])}`
      : `FROM "skills" s WHERE TRUE${and(skillConds)}`;
    const countParams = params.values.slice(0, matchParams);
    const { total, totalIsEstimate } = !known
      ? ((allVersions ? null : await this.countedTotal(m, query)) ?? (await this.cappedTotal(m, matching, countParams)))
      : known.total === 'estimate'
        ? await this.estimatedTotal(m, matching, countParams)
        : (known.total ?? (await this.cappedTotal(m, matching, countParams)));
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
      totalIsEstimate,
    };
  }

  /**
   * Matches counted up to TOTAL_CAP + 1; the top NAME_CANDIDATES by static score of those whose
   * name contains every word (the trigram index finds them, whatever their place in the static
   * order); and the typo fallback's tsquery text when fewer than TYPO_FALLBACK_BELOW match: each
   * looked-up word becomes the indexed words nearest it or its stem (`search_word_neighbours`,
   * trigram similarity 0.3 or more), OR-ed; the words are AND-ed, and one with no near word drops out.
   * `fuzzy` is null when the fallback does not run or finds no word.
   */
  private async probe(
    m: EntityManager,
    params: Params,
    fullText: string,
    words: string[],
    nameWords: string[],
  ): Promise<{ hits: number; fuzzy: string | null; names: string[] }> {
    const values = [...params.values, words, nameWords.map((w) => `%${w}%`)];
    const [row]: Array<{ hits: number; fuzzy: string | null; names: string[] | null }> = await m.query(
      `WITH "hits" AS (SELECT count(*)::int AS "n" FROM (SELECT 1 FROM "skills" s WHERE ${fullText} LIMIT ${TOTAL_CAP + 1}) capped)
       SELECT h."n" AS hits,
         CASE WHEN h."n" > ${TOTAL_CAP} AND cardinality($${values.length}::text[]) > 0
           THEN (SELECT array_agg(t."id") FROM (SELECT s."id" FROM "skills" s
                  WHERE s."name" ILIKE ALL ($${values.length}::text[]) AND ${fullText}
                  ORDER BY s."static_score" DESC LIMIT ${NAME_CANDIDATES}) t)
         END AS names,
         CASE WHEN h."n" < ${TYPO_FALLBACK_BELOW}
         THEN (SELECT string_agg(g."alternatives", ' & ') FROM (
                 SELECT '(' || string_agg(${QUOTED_WORD}, ' | ') || ')' AS "alternatives"
                   FROM unnest($${values.length - 1}::text[]) WITH ORDINALITY q("word", "i")
                   CROSS JOIN LATERAL search_word_neighbours(q."word", ${FUZZY_ALTERNATIVES}) w("word")
                  GROUP BY q."i") g)
       END AS fuzzy FROM "hits" h`,
      values,
    );
    return { hits: row!.hits, fuzzy: row!.fuzzy, names: row!.names ?? [] };
  }

  /** `total` of a list the counters answer (no text; filtered by category and certification only), else null. */
  private async countedTotal(m: EntityManager, query: SkillSearch): Promise<Total | null> {
    if (query.author || query.format || query.capabilities?.length || query.tags?.length || query.category === '') {
      return null;
    }
    const counts = await this.counts(m, query.category);
    const total = counts.reduce((n, c) => n + c.total, 0);
    const certified = counts.reduce((n, c) => n + c.certified, 0);
    return {
      total: query.certified === undefined ? total : query.certified ? certified : total - certified,
      totalIsEstimate: false,
    };
  }

  /** Exact up to TOTAL_CAP matches (a count that stops there); above it, the planner's estimate. */
  private async cappedTotal(m: EntityManager, matching: string, values: unknown[]): Promise<Total> {
    const [{ total }]: Array<{ total: number }> = await m.query(
      `SELECT count(*)::int AS total FROM (SELECT 1 ${matching} LIMIT ${TOTAL_CAP + 1}) capped`,
      values,
    );
    return total <= TOTAL_CAP ? { total, totalIsEstimate: false } : this.estimatedTotal(m, matching, values);
  }

  /** The planner's estimate of more than TOTAL_CAP matches (it reads statistics, not rows). */
  private async estimatedTotal(m: EntityManager, matching: string, values: unknown[]): Promise<Total> {
    const [explained]: Array<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }> = await m.query(
      `EXPLAIN (FORMAT JSON) SELECT 1 ${matching}`,
      values,
    );
    const estimate = Math.round(explained!['QUERY PLAN'][0]!.Plan['Plan Rows']);
    return { total: Math.max(TOTAL_CAP + 1, estimate), totalIsEstimate: true };
  }

  /**
   * Listed skills by category with those certified now: the trigger-kept counters, less the
   * certificates that have passed their expiry since they were counted (few; a partial index
   * finds them). Constant in the size of the catalogue.
   */
  private counts(m: EntityManager, category?: string): Promise<CategoryCount[]> {
    return m.query(
      `SELECT CASE WHEN k."category" = '' THEN 'uncategorized' ELSE k."category" END AS category,
              sum(k."total")::int AS total, sum(k."certified" - coalesce(e."n", 0))::int AS certified
         FROM (SELECT "category", sum("skills") AS "total",
                      coalesce(sum("skills") FILTER (WHERE "certified_policy" = ${CURRENT_POLICY}), 0) AS "certified"
                 FROM "listing_counters" ${category === undefined ? '' : 'WHERE "category" = $1'}
                GROUP BY "category" HAVING sum("skills") > 0) k
         LEFT JOIN (SELECT coalesce(s."listed_category", '') AS "category", count(*) AS "n"
                      FROM "skills" s WHERE ${LISTED_EXPIRED} GROUP BY 1) e ON e."category" = k."category"
        GROUP BY 1 ORDER BY 1`,
      category === undefined ? [] : [category],
    );
  }

  /** Listed skills by category (uncategorized ones under that name), with how many are certified now. */
  stats(): Promise<CategoryCount[]> {
    return this.counts(this.dataSource.manager);
  }

  /** Listed versions holding a certificate now, newest certificate first (partial index `skills_certified_issued_idx`). */
  async recentlyCertified(limit: number): Promise<CertifiedListing[]> {
    const order = 's."cert_issued_at" DESC NULLS LAST, s."id" DESC';
    const rows: Array<{
      author: string;
      name: string;
      version: string;
      description: string;
      level: string;
      issued_at: Date | null;
    }> = await this.dataSource.query(
      `SELECT n."slug" AS author, s."name", v."version", v."description", s."cert_level" AS level,
              s."cert_issued_at" AS issued_at
         FROM (SELECT ${LISTED_COLUMNS}, s."cert_issued_at" FROM "skills" s
                WHERE s."cert_status" = 'certified' AND s."latest_version_id" IS NOT NULL AND ${LISTED_CERTIFIED_NOW}
                ORDER BY ${order} LIMIT $1) s
         JOIN "namespaces" n ON n."id" = s."namespace_id"
         JOIN "skill_versions" v ON v."id" = s."latest_version_id"
        ORDER BY ${order}`,
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
