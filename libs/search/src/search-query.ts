/**
 * How a user's search text becomes the inputs of the ranking query.
 *
 * Ranking rule (the SQL lives in libs/database's SkillSearchRepository and follows this; the
 * design in its header):
 * 1. Candidates, a bounded set whatever the number of matches (docs/search.md): every match when
 *    at most 300 do, else the best 300 by static score (certified level, downloads, recency),
 *    plus the best 100 whose name holds the words. Common words are read from their postings
 *    (each word's skills, best first) rather than from every match; the full-text index answers
 *    rare words and phrases. When fewer than 20 skills match, the typo fallback adds the skills
 *    matching, for each query word, the indexed words nearest it by trigram similarity (a
 *    lexicon of every word of every document, so `wether` finds names, descriptions and tools
 *    that say weather).
 * 2. Full-text: `websearch_to_tsquery('english', text)` gives quoted phrases,
 *    `-exclude` and `or`; the last word, as it may still be being typed, is also
 *    matched as a prefix (`kuber` → `kubernetes`). The document weighs the name highest
 *    (A), then the description (B), tags and capabilities (C), tool names and descriptions (D).
 * 3. Score of each candidate = 10 × ts_rank of the whole words (weights D 0.1, C 0.2, B 0.4, A 1.0)
 *          + 2 × ts_rank of the prefix query (a completed word outranks a mere prefix)
 *          + 5 × ts_rank of the typo fallback's words (when it ran)
 *          + 3 × trigram similarity of the query to the whole name
 *          + 5 when the query is exactly the name.
 * 4. Ties: more downloads first, then name, then id.
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
  /** The plain words (letters and digits), each of which a name must contain to be a name match. */
  nameWords: string[];
  /** The plain words the typo fallback looks up (at least 3 letters, at most MAX_FUZZY_WORDS). */
  fuzzyWords: string[];
}

/** The typo fallback looks up this many words of a query at most. */
export const MAX_FUZZY_WORDS = 6;

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
  const prefix = plain && last.length >= 2 ? last.toLowerCase() : null;
  // Letters and digits only, so none is a LIKE or tsquery operator.
  const nameWords = trigram.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return {
    text,
    textBeforePrefix: plain ? words.slice(0, -1).join(' ') : text,
    prefix,
    trigram,
    nameWords,
    fuzzyWords: [...new Set(nameWords.filter((w) => w.length >= 3))].slice(0, MAX_FUZZY_WORDS),
  };
}
