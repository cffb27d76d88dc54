/**
 * How a user's search text becomes the three inputs of the ranking query.
 *
 * Ranking rule (the SQL lives in hub-api's SkillsSearchService and follows this):
 * 1. Candidates: skills whose listed version's full-text document matches the query;
 *    when fewer than 20 do, also skills whose name is trigram-similar to it (word
 *    similarity ≥ 0.45, so `wether` finds `weather-now` and `gihub` finds `github-issues`).
 * 2. Full-text: `websearch_to_tsquery('english', text)` gives quoted phrases,
 *    `-exclude` and `or`; the last word, as it may still be being typed, is also
 *    matched as a prefix (`kuber` → `kubernetes`). The document weighs the name highest
 *    (A), then the description (B), tags and capabilities (C), tool names and descriptions (D).
 * 3. Score = 10 × ts_rank_cd of the whole words (weights D 0.1, C 0.2, B 0.4, A 1.0)
 *          + 2 × ts_rank_cd of the prefix query (a completed word outranks a mere prefix)
 *          + 3 × trigram similarity of the query to the whole name
 *          + 5 when the query is exactly the name.
 * 4. Ties: more downloads first, then name, then namespace.
 */

/** Queries are capped before any pattern runs on them. */
export const MAX_QUERY_LENGTH = 200;

export interface ParsedSearchQuery {
  /** The text for websearch_to_tsquery (never fails on syntax). */
  text: string;
  /** The query without its last word, when that word is matched as a prefix. */
  textBeforePrefix: string;
  /** The last word, letters and digits only, lower-cased, for `word:*`; null when not applicable. */
  prefix: string | null;
  /** Plain words, lower-cased, for trigram similarity against names. */
  trigram: string;
}

const WORD = /^[\p{L}\p{N}]+$/u;
const OPERATOR_WORDS = new Set(['or', 'and', 'not']);

export function parseSearchQuery(raw: string): ParsedSearchQuery {
  const text = raw.slice(0, MAX_QUERY_LENGTH).replace(/\s+/g, ' ').trim();
  const quotes = (text.match(/"/g) ?? []).length;
  const words = text.split(' ');
  const last = words[words.length - 1] ?? '';
  // A last word inside an open or just-closed phrase, an excluded one, or one in an
  // `or` query (where AND-ing the prefix would change the meaning) is not a prefix.
  const hasOr = words.some((w) => w.toLowerCase() === 'or');
  const plain =
    quotes % 2 === 0 && !text.endsWith('"') && !hasOr && WORD.test(last) && !OPERATOR_WORDS.has(last.toLowerCase());
  const trigram = text
    .replace(/(^|\s)-\S+/g, ' ')
    .replace(/[^\p{L}\p{N}\s-]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w && !OPERATOR_WORDS.has(w.toLowerCase()))
    .join(' ')
    .toLowerCase();
  return {
    text,
    textBeforePrefix: plain ? words.slice(0, -1).join(' ') : text,
    prefix: plain && last.length >= 2 ? last.toLowerCase() : null,
    trigram,
  };
}
