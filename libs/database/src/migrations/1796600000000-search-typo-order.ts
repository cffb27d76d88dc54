import { MigrationInterface, QueryRunner } from 'typeorm';

// Frozen, as every migration: the function as migration 1796400000000 left it is repeated here.
const PREVIOUS_NEIGHBOURS = `CREATE OR REPLACE FUNCTION search_word_neighbours(typed text, n int) RETURNS SETOF text
      LANGUAGE sql STABLE SET enable_bitmapscan = on SET pg_trgm.similarity_threshold = 0.3 AS $$
        SELECT x."word" FROM (
          SELECT w."word", w."word" <-> t."form" AS d FROM "search_words" w,
                 (SELECT typed AS "form" UNION SELECT coalesce((ts_lexize('english_stem', typed))[1], typed)) t
           WHERE w."word" % t."form" AND w."documents" > 0 AND w."word" ~ '^[[:alpha:]]{3,}$'
        ) x GROUP BY x."word" ORDER BY min(x.d), x."word" LIMIT n
      $$`;

/**
 * The typo fallback's words (docs/search.md): nearest by edit distance, then the most held.
 * - Candidates: the words at trigram similarity 0.3 or more to the typed word or its stem, as
 *   before, and the words that a swap of two neighbouring letters gives (stemmed). Trigrams miss
 *   swaps when the stemmer then parts the two spellings: `qualogal` is indexed as `qualog`, which
 *   shares too few trigrams with `quaolgal` to be found at all.
 * - Order: Levenshtein distance (`fuzzystrmatch`; a swap counts 1), then how many skills hold
 *   the word (a common word is the likelier meaning), then trigram distance. Trigram distance
 *   alone, ties broken by spelling, put rare words before a common one as near.
 */
export class SearchTypoOrder1796600000000 implements MigrationInterface {
  name = 'SearchTypoOrder1796600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS fuzzystrmatch`);
    // levenshtein() takes at most 255 characters; an indexed word has at most 64.
    await queryRunner.query(`CREATE OR REPLACE FUNCTION search_word_neighbours(typed text, n int) RETURNS SETOF text
      LANGUAGE sql STABLE SET enable_bitmapscan = on SET pg_trgm.similarity_threshold = 0.3 AS $$
        WITH "typed" AS (SELECT left(typed, 64) AS "form" UNION SELECT coalesce((ts_lexize('english_stem', left(typed, 64)))[1], left(typed, 64))),
          "swapped" AS (
            SELECT DISTINCT coalesce((ts_lexize('english_stem', s."form"))[1], s."form") AS "word"
              FROM (SELECT overlay(left(typed, 64) PLACING substr(typed, i + 1, 1) || substr(typed, i, 1) FROM i FOR 2) AS "form"
                      FROM generate_series(1, length(left(typed, 64)) - 1) i) s)
        SELECT x."word" FROM (
          SELECT w."word", w."documents", w."word" <-> t."form" AS d, levenshtein(w."word", t."form") AS e
            FROM "search_words" w, "typed" t WHERE w."word" % t."form"
          UNION ALL
          SELECT w."word", w."documents", w."word" <-> left(typed, 64), 1
            FROM "search_words" w JOIN "swapped" s ON s."word" = w."word"
        ) x WHERE x."documents" > 0 AND x."word" ~ '^[[:alpha:]]{3,}$'
        GROUP BY x."word" ORDER BY min(x.e), max(x."documents") DESC, min(x.d), x."word" LIMIT n
      $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(PREVIOUS_NEIGHBOURS);
    await queryRunner.query(`DROP EXTENSION IF EXISTS fuzzystrmatch`);
  }
}
