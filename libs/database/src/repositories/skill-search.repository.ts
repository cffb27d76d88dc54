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
import {
  chooseDrivers,
  type CursorColumn,
  type CursorValues,
  type ParsedSearchQuery,
  parseSearchQuery,
  type QueryTerm,
  likelyMatches,
  type TermWords,
  phrasePairs,
  tsqueryConjunctions,
} from '@skillhub/search';
import type { SkillFormat } from '@skillhub/skill-formats';
import { AbandonedError } from '@skillhub/errors';
import { unlessAbandoned } from '../abandonable';
import type { CertificationLevel } from '../entities/certification.entity';
import { CURRENT_POLICY, certifiedNowSql, currentCertificationJoin } from './current-certification';
import { preparedQuery } from './prepared-query';

export const SEARCH_SORTS = ['relevance', 'name', 'updated', 'downloads', 'version'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** ts_rank weights for D, C, B, A: tool text, tags and capabilities, description, name. */
const RANK_WEIGHTS = '{0.1,0.2,0.4,1.0}';
/** The typo fallback runs only when full text finds fewer skills than this. */
const TYPO_FALLBACK_BELOW = 20;
/** When more than TOTAL_CAP match: the candidates ranked, in static-score order (libs/search, rule 1). */
const CANDIDATES = 300;
/** Candidates whose name contains every word, added to those of any field. */
const NAME_CANDIDATES = 100;
/** A prefix standing for more indexed words than this is not walked (the full-text index answers it). */
const MAX_EXPANSIONS = 8;
/** At most this many words are walked at once. */
const MAX_WALKED_WORDS = 16;
/** Postings an unchecked walk reads (a skill holding several of its words comes once per word). */
const UNCHECKED_READ = 2 * CANDIDATES;
/** Postings a checked walk reads at most (each joined to its skill). */
const WALK_BUDGET = 1000;
/** Words longer than this have no postings (migration 1796400000000). */
const MAX_WORD_LENGTH = 64;
/**
 * A full-text match whose index bitmap the planner expects to hold fewer rows than this is read
 * whole, counted exactly and its best candidates taken by static score (docs/search.md): ~75 ms
 * for 18,000 rows, where cutting the static order short may read the whole catalogue.
 */
const READ_ALL_BELOW = 20_000;
/** A match read whole stops here all the same, should the planner be far wrong (`total` is then an estimate). */
const READ_ALL_LIMIT = 5 * READ_ALL_BELOW;
/** Indexed words tried for each word of a misspelt query. */
const FUZZY_ALTERNATIVES = 5;
/** `total` is exact up to this; above it, an estimate, flagged as one. */
export const TOTAL_CAP = CANDIDATES;

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
  /** Aborted when the caller goes away: the search stops, its running statement cancelled. */
  signal?: AbortSignal;
}

/** What a search's text part builds on: its sort, parameters, filters and offset. */
interface SearchShape {
  plan: ReturnType<typeof sortPlan>;
  params: Params;
  skillConds: string[];
  versionConds: string[];
  offset: number;
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
  constructor(readonly values: unknown[] = []) {}
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  /** These values and those added to the copy only (a statement must use every value it is sent). */
  copy(): Params {
    return new Params([...this.values]);
  }
}

type KeyColumn = Exclude<CursorColumn, 'offset'>;

interface Total {
  total: number;
  totalIsEstimate: boolean;
}

/** A search's tsqueries as text: whole words, the prefix branch (null without one), and both. */
interface Tsqueries {
  exact: string;
  prefix: string | null;
  text: string;
}

/** What the full-text index found (`probe`). */
interface Probed {
  /** Matches, counted up to TOTAL_CAP + 1, or up to READ_ALL_LIMIT + 1 when read whole. */
  hits: number;
  /** Every match when there are at most TOTAL_CAP; the best CANDIDATES of a match read whole. */
  ids: string[] | null;
  /** The best matches whose name holds every word: of a match read whole, or of more than TOTAL_CAP. */
  names: string[];
  /** The typo fallback's words as a tsquery text, and the query with them. */
  fuzzy: string | null;
  corrected: string | null;
}

/** What a postings walk found: the candidates to rank and the total. */
interface Walked {
  ids: string[];
  total: Total;
}

/** SQL: plan settings for the rest of a search's transaction (SET LOCAL lasts until COMMIT). */
const planSettings = (on: Record<'seqscan' | 'indexscan' | 'bitmapscan' | 'hashjoin' | 'mergejoin', boolean>) =>
  `SELECT ${Object.entries(on)
    .map(([k, v]) => `set_config('enable_${k}', '${v ? 'on' : 'off'}', true)`)
    .join(', ')}, set_config('max_parallel_workers_per_gather', '0', true)`;
/**
 * No parallel workers (starting them costs more than a search). The full-text index alone (a
 * bitmap: no table scan, no index order walked in hope of matches) while the matches may be few; an index order cut short (the static score's or the sort's) once
 * they are known to be many; postings walked best first, each joined to its skill by key.
 */
const PLAN_BY_INDEX = {
  fullText: planSettings({ seqscan: false, indexscan: false, bitmapscan: true, hashjoin: true, mergejoin: true }),
  order: planSettings({ seqscan: false, indexscan: true, bitmapscan: false, hashjoin: true, mergejoin: true }),
  postings: planSettings({ seqscan: false, indexscan: true, bitmapscan: false, hashjoin: false, mergejoin: false }),
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

/**
 * SQL: a uuid[] as its ids joined by commas. A search reads hundreds of candidate ids; as text
 * they are split in microseconds, where pg's array parser takes about a millisecond for 600.
 */
const idText = (uuids: string): string => `array_to_string(${uuids}, ',')`;
/** The ids of an `idText` column (NULL: none). */
const idsOf = (text: string | null): string[] => (text ? text.split(',') : []);
/**
 * SQL: rows of `ids`, sent as one text of ids joined by commas. pg writes a string[] value
 * character by character, which allocated ~90 KB of hub-api's heap a search for 400 ids.
 */
const idRows = (params: Params, ids: readonly string[]): string =>
  `SELECT unnest(string_to_array(${params.add(ids.join(','))}::text, ','))::uuid AS "id"`;

/** `tsqueryConjunctions`, or null (the full-text index answers) for a text it cannot read. */
function readConjunctions(tsquery: string): QueryTerm[][] | null {
  try {
    return tsqueryConjunctions(tsquery);
  } catch {
    return null;
  }
}

/** SQL: skill `s` lists a version (search postings hold such skills only). */
const LISTED = 's."latest_version_id" IS NOT NULL';

/**
 * The filters of `query` with their values added to `params`: on `skills` alone (for a listed
 * page, the version's filters inside one EXISTS), and on an every-version page, those on each
 * version and its certification. Listedness itself is not among them (LISTED).
 */
function conditions(query: SkillSearch, params: Params): { skill: string[]; version: string[] } {
  const skill: string[] = [];
  if (query.author) {
    skill.push(`s."namespace_id" = (SELECT n."id" FROM "namespaces" n WHERE n."slug" = ${params.add(query.author)})`);
  }
  const version: string[] = [];
  if (query.capabilities?.length) version.push(`v."capabilities" @> ${params.add(query.capabilities)}::text[]`);
  if (query.tags?.length) version.push(`v."tags" && ${params.add(query.tags)}::text[]`);
  if (query.allVersions) {
    if (query.format) version.push(`v."format" = ${params.add(query.format)}`);
    if (query.category) version.push(`v."category" = ${params.add(query.category)}`);
    if (query.certified !== undefined) {
      version.push(query.certified ? CERTIFIED_NOW : `NOT coalesce(${CERTIFIED_NOW}, false)`);
    }
    return { skill, version };
  }
  if (query.format) skill.push(`s."listed_format" = ${params.add(query.format)}`);
  if (query.category) skill.push(`s."listed_category" = ${params.add(query.category)}`);
  if (query.certified !== undefined) {
    skill.push(query.certified ? LISTED_CERTIFIED_NOW : `NOT coalesce(${LISTED_CERTIFIED_NOW}, false)`);
  }
  if (version.length) {
    skill.push(`EXISTS (SELECT 1 FROM "skill_versions" v WHERE v."id" = s."latest_version_id"${and(version)})`);
  }
  return { skill, version: [] };
}

@Injectable()
export class SkillSearchRepository {
  constructor(private readonly dataSource: DataSource) {}

  async search(query: SkillSearch): Promise<SkillSearchPage> {
    const { allVersions } = query;
    const plan = sortPlan(query.sort, allVersions);
    const q = query.q?.trim() ? query.q : undefined;
    const params = new Params();
    const filters = conditions(query, params);
    const versionConds = filters.version;
    const skillConds = allVersions ? filters.skill : [...filters.skill, LISTED];
    const { start } = query;
    const offset = 'offset' in start ? start.offset : 0;
    if (query.signal?.aborted) throw new AbandonedError();
    if (!q) return this.page(this.dataSource.manager, query, plan, params, skillConds, versionConds, null, offset);

    // With text, one transaction: its settings choose the plan (SET LOCAL lasts until COMMIT); it
    // stops, statement and all, when the caller goes away.
    const shape: SearchShape = { plan, params, skillConds, versionConds, offset };
    return this.dataSource.transaction((m) => unlessAbandoned(m, query.signal, () => this.byText(m, query, q, shape)));
  }

  private async byText(m: EntityManager, query: SkillSearch, q: string, shape: SearchShape): Promise<SkillSearchPage> {
    const { allVersions } = query;
    const { plan, params, skillConds, versionConds, offset } = shape;
    const parsed = parseSearchQuery(q);
    // Each query once as text, then a constant of every statement (not a function call per row).
    const texts = await this.tsqueries(m, parsed);
    const relevance = query.sort === 'relevance' && !allVersions;
    const ranked = (walked: Walked, fuzzy: string | null) => {
      const p = new Params();
      const candidates = this.ranking(p, parsed, texts, fuzzy, walked.ids);
      return this.page(m, query, plan, p, [], [], candidates, offset, { matchParams: 0, total: walked.total });
    };

    // Common words: their postings, best first (docs/search.md).
    const walked = relevance ? await this.walk(m, query, texts.text, parsed, TYPO_FALLBACK_BELOW) : null;
    if (walked) return ranked(walked, null);

    // How many match, counted up to the cap through the full-text index alone. The planner
    // cannot tell a rare word from a common one (a prefix's selectivity is a guess), so the
    // count, not the planner, picks the plan: every match when they are few, an index order
    // cut short when they are many. But when the index's bitmap is known to be small (the
    // planner reads the words' statistics: a phrase or an exclusion of a few words), every
    // match is read at once and ranked: cutting the static order short would read the
    // catalogue in search of a rare phrase.
    const text = `${params.add(texts.text)}::tsquery`;
    const fullText = `s."search_vector" @@ ${text}`;
    // A phrase's word pairs: their index finds the documents that can hold it (docs/search.md).
    // Only the probe reads them: an index order cut short would compute them row by row. Those
    // documents hold every word of the pairs, so the query is checked on each (as a function,
    // which no index answers): a BitmapAnd with the words' far larger bitmap only added to it.
    const pairs = phrasePairs(texts.text);
    const probing = params.copy();
    const probed = (
      pairs === null
        ? [fullText]
        : [
            `search_word_pairs(s."search_vector") @@ ${probing.add(pairs)}::tsquery`,
            `ts_match_vq(s."search_vector", ${text})`,
          ]
    )
      .concat(skillConds)
      .join(' AND ');
    await m.query(PLAN_BY_INDEX.fullText);
    const readAll =
      relevance && (await this.plannedRows(m, `FROM "skills" s WHERE ${probed}`, probing.values)) <= READ_ALL_BELOW;
    const probe = await this.probe(m, probing, text, probed, parsed.fuzzyWords, parsed.nameWords, readAll);
    // The probe read every match, or the best by static score of a bitmap read whole.
    if (probe.ids && probe.fuzzy === null && relevance) {
      const ids = [...new Set([...probe.ids, ...probe.names])];
      return ranked({ ids, total: { total: probe.hits, totalIsEstimate: probe.hits > READ_ALL_LIMIT } }, null);
    }
    if (probe.fuzzy !== null && relevance) {
      // A misspelling of a common word: the fallback's words are walked in their turn.
      const corrected = await this.walk(m, query, probe.corrected!, parsed, 0);
      if (corrected) return ranked(corrected, probe.fuzzy);
      await m.query(PLAN_BY_INDEX.fullText);
    }
    const fuzzy = probe.fuzzy === null ? null : `${params.add(probe.fuzzy)}::tsquery`;
    const match = fuzzy ? `s."search_vector" @@ (${text} || ${fuzzy})` : fullText;
    const matchParams = params.values.length;
    const many = probe.hits > TOTAL_CAP;
    if (many) await m.query(PLAN_BY_INDEX.order);

    let candidates: string | null = null;
    if (query.sort === 'relevance') {
      // Bounded candidates (libs/search, rule 1): every match when there are at most TOTAL_CAP,
      // else the top of the static order, and of the name matches, each an index order cut short.
      const branch = (cond: string, limit: number) =>
        `(SELECT s."id" FROM "skills" s WHERE ${cond}${and(skillConds)}${many ? ' ORDER BY s."static_score" DESC' : ''} LIMIT ${limit})`;
      const branches = [branch(match, many ? CANDIDATES : TOTAL_CAP)];
      if (many && probe.names.length) branches.push(`(${idRows(params, probe.names)})`);
      candidates = this.ranking(params, parsed, texts, probe.fuzzy, branches.join(' UNION '));
    }
    // Few and no fallback: the probe counted them all; many: the estimate; else a capped count.
    const total = many ? 'estimate' : fuzzy ? null : { total: probe.hits, totalIsEstimate: false };
    return this.page(m, query, plan, params, [match, ...skillConds], versionConds, candidates, offset, {
      matchParams,
      total,
    });
  }

  /** The search's tsqueries as PostgreSQL prints them: whole words, the prefix branch, and both. */
  private async tsqueries(m: EntityManager, parsed: ParsedSearchQuery): Promise<Tsqueries> {
    const exact = `websearch_to_tsquery('english', $1)`;
    const prefix = parsed.prefix ? `(websearch_to_tsquery('english', $2) && to_tsquery('english', $3))` : null;
    const [row]: Tsqueries[] = await preparedQuery(
      m,
      `SELECT ${exact}::text AS exact, ${prefix ?? 'NULL'}::text AS prefix, ${prefix ? `(${exact} || ${prefix})` : exact}::text AS text`,
      prefix ? [parsed.text, parsed.textBeforePrefix, `${parsed.prefix}:*`] : [parsed.text],
    );
    return row!;
  }

  /**
   * The `cand` CTE relevance ranks: the skills of `ids` (an array of ids, or SQL giving a column
   * of them) with their listed columns and score (libs/search, rules 3 and 4); `fuzzyText` is the
   * typo fallback's words.
   */
  private ranking(
    params: Params,
    parsed: ParsedSearchQuery,
    texts: Tsqueries,
    fuzzyText: string | null,
    ids: string[] | string,
  ): string {
    const exact = `${params.add(texts.exact)}::tsquery`;
    const prefix = texts.prefix === null ? null : `${params.add(texts.prefix)}::tsquery`;
    const fuzzy = fuzzyText === null ? null : `${params.add(fuzzyText)}::tsquery`;
    const trgm = params.add(parsed.trigram);
    const rank = (tsquery: string, weight: number) =>
      `${weight} * ts_rank('${RANK_WEIGHTS}', s."search_vector", ${tsquery})`;
    const score = [
      rank(exact, 10),
      prefix ? rank(prefix, 2) : null,
      fuzzy ? rank(fuzzy, 5) : null,
      `3 * similarity(${trgm}, s."name")`,
      `CASE WHEN s."name" = ${trgm} THEN 5 ELSE 0 END`,
    ]
      .filter(Boolean)
      .join(' + ');
    const hits = typeof ids === 'string' ? ids : idRows(params, ids);
    // The listed columns come along, so a listed page reads each candidate's row once.
    return `WITH "hits" AS (${hits}),
      "cand" AS (SELECT ${LISTED_COLUMNS}, ${score} AS "score" FROM "hits" h JOIN "skills" s ON s."id" = h."id")`;
  }

  /**
   * The postings walk (docs/search.md). For each conjunction of `tsquery` (a tsquery's text), the
   * words of its rarest term; their postings merged best first. When those postings are the
   * matches (single terms, every word walked, no filter) the best CANDIDATES of them are read
   * alone; else at most WALK_BUDGET of them, each joined to its skill by key to check the query
   * and filters, until TOTAL_CAP + 1 match. Gives the candidates (with the best NAME_CANDIDATES
   * name matches) and the total. Null, for the full-text index to answer, when the query cannot
   * be walked, holds a phrase, is likely to match at most TOTAL_CAP skills, or when the walk
   * finds fewer than `fallbackBelow` (then, with the budget spent, the full-text index counts).
   */
  private async walk(
    m: EntityManager,
    search: SkillSearch,
    tsquery: string,
    parsed: ParsedSearchQuery,
    fallbackBelow: number,
  ): Promise<Walked | null> {
    const conjunctions = /<(-|\d+)>/.test(tsquery) ? null : readConjunctions(tsquery);
    if (!conjunctions) return null;
    const { wordsOf, listed } = await this.termWords(m, conjunctions);
    const drivers = chooseDrivers(conjunctions, wordsOf);
    if (!drivers || drivers.bound <= TOTAL_CAP || drivers.words.length > MAX_WALKED_WORDS) return null;
    const several = conjunctions.some((c) => c.length > 1);
    if (several && likelyMatches(conjunctions, wordsOf, listed) <= TOTAL_CAP) return null;

    // Each statement numbers its own values: the filters', the query's, then its own.
    const statement = (withQuery = true) => {
      const params = new Params();
      const filters = conditions(search, params).skill;
      return { params, filters, query: withQuery ? `${params.add(tsquery)}::tsquery` : '' };
    };
    // The words' postings are the matches: single terms, every word walked, no filter.
    const unchecked =
      drivers.complete && conjunctions.every((c) => c.length === 1) && !conditions(search, new Params()).skill.length;
    const { params, filters, query } = statement(!unchecked);
    // Names of several words: the trigram index finds the skills whose name holds them all.
    const nameMatches = parsed.nameWords.length > 1 ? await this.nameMatches(m, statement(), parsed.nameWords) : [];
    const words = drivers.words.map((w) => params.add(w));
    /** The words' postings (in names only, or all) merged best first, at most `budget` of them. */
    const merged = (names: boolean, budget: number) =>
      `(SELECT * FROM (${words
        .map(
          (w) => `(SELECT p."skill_id", p."score" FROM "search_postings" p
          WHERE p."word" = ${w}${names ? ' AND p."name"' : ''} ORDER BY p."score" DESC, p."skill_id" DESC)`,
        )
        .join(' UNION ALL ')}) u ORDER BY u."score" DESC, u."skill_id" DESC LIMIT ${budget})`;
    /** Up to `limit` matches among `budget` postings (a skill may come once per word it holds). */
    const walk = (names: boolean, budget: number, limit: number) =>
      unchecked
        ? `SELECT p."skill_id" AS "id" FROM ${merged(names, limit)} p`
        : `SELECT p."skill_id" AS "id" FROM ${merged(names, budget)} p JOIN "skills" s ON s."id" = p."skill_id"
            WHERE s."search_vector" @@ ${query}${and(filters)} ORDER BY p."score" DESC, p."skill_id" DESC LIMIT ${limit}`;
    const names =
      parsed.nameWords.length === 1
        ? `(SELECT ${idText('array_agg(DISTINCT n."id")')} FROM (${walk(true, 3 * NAME_CANDIDATES, NAME_CANDIDATES)}) n)`
        : 'NULL';
    await m.query(PLAN_BY_INDEX.postings);
    const [row]: Array<{ read: number; ids: string | null; names: string | null }> = await preparedQuery(
      m,
      `WITH "walk" AS (SELECT w."id", row_number() OVER () AS "i" FROM (${walk(false, WALK_BUDGET, unchecked ? UNCHECKED_READ : TOTAL_CAP + 1)}) w)
       SELECT (SELECT count(*)::int FROM "walk") AS "read",
              (SELECT ${idText('array_agg(f."id" ORDER BY f."i")')} FROM (SELECT "id", min("i") AS "i" FROM "walk" GROUP BY "id") f) AS "ids",
              ${names} AS "names"`,
      params.values,
    );
    const ids = idsOf(row!.ids);
    const saturated = unchecked || row!.read > TOTAL_CAP;
    // The budget may have run out before every posting was read.
    const cut = !unchecked && drivers.bound > WALK_BUDGET;
    const exact = drivers.complete && !saturated && !cut;
    if (!exact && !saturated && ids.length < TYPO_FALLBACK_BELOW) return null;
    if (exact && ids.length < fallbackBelow) return null;
    // Unchecked, every posting read (fewer than asked for) gives the count; else the words'
    // counts bound it: one word's is exact, several words' sum an estimate above the truth (a
    // skill holding one often holds another), closer than the planner's.
    let total: Total;
    if (unchecked && row!.read < UNCHECKED_READ) total = { total: ids.length, totalIsEstimate: false };
    else if (unchecked) total = { total: drivers.bound, totalIsEstimate: drivers.words.length > 1 };
    else if (exact) total = { total: ids.length, totalIsEstimate: false };
    else if (!saturated) {
      // The share of the budget that matched, of every posting of the words.
      const estimate = Math.round((ids.length / WALK_BUDGET) * drivers.bound);
      total = { total: Math.max(TOTAL_CAP + 1, estimate), totalIsEstimate: true };
    } else {
      const e = statement();
      const matching = `FROM "skills" s WHERE s."search_vector" @@ ${e.query}${and([...e.filters, LISTED])}`;
      total = await this.estimatedTotal(m, matching, e.params.values);
    }
    return { ids: [...new Set([...ids.slice(0, CANDIDATES), ...idsOf(row!.names), ...nameMatches])], total };
  }

  /**
   * For each term of `conjunctions`, the lexicon words it stands for and how many listed skills
   * hold each: a whole word itself (none if no skill holds it); a prefix, the words starting so,
   * its MAX_EXPANSIONS most held if there are more (then incomplete); unknown for a word too long
   * to be indexed. A prefix's hyphenated words (`weather-sync`) are left out: a document holding
   * one holds its parts too. The lookups are ranges of the lexicon's pattern index.
   */
  private async termWords(
    m: EntityManager,
    conjunctions: QueryTerm[][],
  ): Promise<{ wordsOf: TermWords; listed: number }> {
    const id = (t: QueryTerm) => `${t.prefix}:${t.lexeme}`;
    const terms = [...new Map(conjunctions.flat().map((t) => [id(t), t])).values()].filter(
      (t) => [...t.lexeme].length <= MAX_WORD_LENGTH,
    );
    const rows: Array<{ i: number; word: string; documents: number; more: boolean }> = await preparedQuery(
      m,
      `SELECT t."i", w."word", w."documents", w."n" > ${MAX_EXPANSIONS} AS "more"
         FROM unnest($1::text[], $2::boolean[]) WITH ORDINALITY t("lexeme", "prefix", "i")
       CROSS JOIN LATERAL (
         (SELECT w."word", w."documents", 1 AS "n" FROM "search_words" w
           WHERE NOT t."prefix" AND w."word" ~>=~ t."lexeme" AND w."word" ~<=~ t."lexeme")
         UNION ALL
         (SELECT w."word", w."documents", count(*) OVER () AS "n" FROM "search_words" w
           WHERE t."prefix" AND w."word" ~>=~ t."lexeme" AND w."word" ~<~ (t."lexeme" || chr(1114111))
             AND w."documents" > 0 AND strpos(w."word", '-') = 0
           ORDER BY w."documents" DESC, w."word" LIMIT ${MAX_EXPANSIONS})
       ) w WHERE w."documents" > 0`,
      [terms.map((t) => t.lexeme), terms.map((t) => t.prefix)],
    );
    const found = new Map(terms.map((t) => [id(t), { words: new Map<string, number>(), complete: true }]));
    for (const r of rows) {
      const entry = found.get(id(terms[Number(r.i) - 1]!))!;
      entry.words.set(r.word, r.documents);
      if (r.more) entry.complete = false;
    }
    // Listed skills, for the likely share of a conjunction of several terms.
    const [{ listed }]: Array<{ listed: number }> = conjunctions.some((c) => c.length > 1)
      ? await m.query(`SELECT coalesce(sum("skills"), 0)::int AS listed FROM "listing_counters"`)
      : [{ listed: 0 }];
    return { wordsOf: (t) => found.get(id(t)) ?? null, listed };
  }

  /** The best NAME_CANDIDATES matches of a statement's query whose name holds every word (trigram index). */
  private async nameMatches(
    m: EntityManager,
    { params, filters, query }: { params: Params; filters: string[]; query: string },
    words: string[],
  ): Promise<string[]> {
    // One ILIKE a word, so the trigram index ANDs them (it cannot read an array).
    const names = words.map((w) => `s."name" ILIKE ${params.add(`%${w}%`)}`).join(' AND ');
    const rows: Array<{ id: string }> = await preparedQuery(
      m,
      `SELECT s."id" FROM (SELECT * FROM "skills" s WHERE ${names} AND ${LISTED} OFFSET 0) s
        WHERE s."search_vector" @@ ${query}${and(filters)} ORDER BY s."static_score" DESC LIMIT ${NAME_CANDIDATES}`,
      params.values,
    );
    return rows.map((r) => r.id);
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
    // A listed page of candidates reads them from `cand`, which carries the listed columns.
    const listed = candidates
      ? `SELECT * FROM "cand" s`
      : `SELECT ${LISTED_COLUMNS}, ${score} AS "score" FROM "skills" s`;
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
          FROM (${listed} WHERE TRUE${and(conds)} ORDER BY ${plan.order} LIMIT ${limit} OFFSET ${skip}) s
          JOIN "namespaces" n ON n."id" = s."namespace_id" JOIN "skill_versions" v ON v."id" = s."latest_version_id"
          ORDER BY ${plan.order}`;
    const matching = allVersions
      ? `FROM "skills" s JOIN "skill_versions" v ON v."skill_id" = s."id" ${currentCertificationJoin('v', 'c')}
         WHERE TRUE${and([...skillConds, ...versionConds])}`
      : `FROM "skills" s WHERE TRUE${and(skillConds)}`;
    const countParams = params.values.slice(0, matchParams);
    const totalOf = async (): Promise<Total> =>
      !known
        ? ((allVersions ? null : await this.countedTotal(m, query)) ??
          (await this.cappedTotal(m, matching, countParams)))
        : known.total === 'estimate'
          ? await this.estimatedTotal(m, matching, countParams)
          : (known.total ?? (await this.cappedTotal(m, matching, countParams)));
    // The page and its total at once: outside a search's transaction each takes a pooled connection
    // (they queue on a transaction's one connection, and on the embedded database's one).
    const [rows, { total, totalIsEstimate }]: [Row[], Total] = await Promise.all([
      preparedQuery<Row>(m, sql, params.values),
      totalOf(),
    ]);
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
   * Matches counted up to TOTAL_CAP + 1 (up to READ_ALL_LIMIT + 1 with `readAll`), and the best
   * CANDIDATES of them by static score when there are no more than TOTAL_CAP or all were read
   * (then they are the candidates: the index is read once); the top NAME_CANDIDATES by static
   * score of those whose name contains every word (the trigram index finds them, whatever their
   * place in the static order); and the typo fallback's tsquery text when fewer than
   * TYPO_FALLBACK_BELOW match: each looked-up word becomes the indexed words nearest it or its
   * stem (`search_word_neighbours`, trigram similarity 0.3 or more), OR-ed; the words are AND-ed,
   * and one with no near word drops out. `fuzzy` is null when the fallback does not run or finds
   * no word.
   */
  private async probe(
    m: EntityManager,
    params: Params,
    text: string,
    fullText: string,
    words: string[],
    nameWords: string[],
    readAll: boolean,
  ): Promise<Probed> {
    const values = [...params.values, words, nameWords.map((w) => `%${w}%`)];
    const names = `$${values.length}::text[]`;
    const best = (filter: string, limit: number) =>
      idText(`(array_agg(capped."id" ORDER BY capped."static_score" DESC)${filter})[1:${limit}]`);
    // Read whole, the matches give the candidates and the name matches; else only when few, and
    // past the cap the name matches are looked up by the trigram index.
    const ids = readAll ? best('', CANDIDATES) : `CASE WHEN count(*) <= ${TOTAL_CAP} THEN ${best('', CANDIDATES)} END`;
    const readNames = readAll
      ? best(` FILTER (WHERE cardinality(${names}) > 0 AND capped."name" ILIKE ALL (${names}))`, NAME_CANDIDATES)
      : 'NULL';
    const nameMatches = readAll
      ? 'h."names"'
      : `CASE WHEN h."n" > ${TOTAL_CAP} AND cardinality(${names}) > 0
           THEN (SELECT ${idText('array_agg(t."id")')} FROM (SELECT s."id" FROM "skills" s
                  WHERE s."name" ILIKE ALL (${names}) AND ${fullText}
                  ORDER BY s."static_score" DESC LIMIT ${NAME_CANDIDATES}) t)
         END`;
    // The fallback's words are looked up once: `OFFSET 0` keeps the planner from copying the lateral
    // subquery into both columns that read it, which ran the neighbour lookup twice (~4–5 ms each).
    const [row]: Array<Omit<Probed, 'ids' | 'names'> & { ids: string | null; names: string | null }> =
      await preparedQuery(
        m,
        `WITH "hits" AS (
           SELECT count(*)::int AS "n", ${ids} AS "ids", ${readNames} AS "names"
             FROM (SELECT s."id", s."static_score", s."name" FROM "skills" s WHERE ${fullText}
                   LIMIT ${(readAll ? READ_ALL_LIMIT : TOTAL_CAP) + 1}) capped)
         SELECT h."n" AS hits, h."ids", ${nameMatches} AS names,
           f."q"::text AS fuzzy, (${text} || f."q")::text AS corrected
         FROM "hits" h CROSS JOIN LATERAL (SELECT CASE WHEN h."n" < ${TYPO_FALLBACK_BELOW}
           THEN to_tsquery('simple', (SELECT string_agg(g."alternatives", ' & ') FROM (
                   SELECT '(' || string_agg(${QUOTED_WORD}, ' | ') || ')' AS "alternatives"
                     FROM unnest($${values.length - 1}::text[]) WITH ORDINALITY q("word", "i")
                     CROSS JOIN LATERAL search_word_neighbours(q."word", ${FUZZY_ALTERNATIVES}) w("word")
                    GROUP BY q."i") g))
         END AS "q" OFFSET 0) f`,
        values,
      );
    return { ...row!, ids: row!.ids === null ? null : idsOf(row!.ids), names: idsOf(row!.names) };
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
    const [{ total }]: Array<{ total: number }> = await preparedQuery(
      m,
      `SELECT count(*)::int AS total FROM (SELECT 1 ${matching} LIMIT ${TOTAL_CAP + 1}) capped`,
      values,
    );
    return total <= TOTAL_CAP ? { total, totalIsEstimate: false } : this.estimatedTotal(m, matching, values);
  }

  /** The planner's estimate of more than TOTAL_CAP matches. */
  private async estimatedTotal(m: EntityManager, matching: string, values: unknown[]): Promise<Total> {
    const estimate = await this.plannedRows(m, matching, values);
    return { total: Math.max(TOTAL_CAP + 1, estimate), totalIsEstimate: true };
  }

  /** The rows the planner expects `SELECT 1 ${matching}` to give (it reads statistics, not rows). */
  private async plannedRows(m: EntityManager, matching: string, values: unknown[]): Promise<number> {
    const [explained]: Array<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }> = await m.query(
      `EXPLAIN (FORMAT JSON) SELECT 1 ${matching}`,
      values,
    );
    return Math.round(explained!['QUERY PLAN'][0]!.Plan['Plan Rows']);
  }

  /**
   * Listed skills by category with those certified now: the trigger-kept counters, less the
   * certificates that have passed their expiry since they were counted (few; a partial index
   * finds them). Constant in the size of the catalogue.
   */
  private counts(m: EntityManager, category?: string): Promise<CategoryCount[]> {
    return preparedQuery(
      m,
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
    }> = await preparedQuery(
      this.dataSource.manager,
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
