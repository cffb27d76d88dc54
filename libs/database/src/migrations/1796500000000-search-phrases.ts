import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Phrases read only the documents that can hold them (docs/search.md). The full-text index
 * keeps no positions, so `"slack reader"` read every skill holding both words from the table to
 * check their order: 18,876 rows for 516 matches at 1,000,000 skills. `search_word_pairs` gives
 * a document's neighbouring words as pairs (`'slack reader'`, the two lexemes and a space); its
 * expression index finds the documents holding a phrase's pairs (`phrasePairs` in libs/search
 * asks for them), and the full-text match checks only those. Pairs longer than 129 characters
 * are left out (libs/search `MAX_WORD_PAIR_LENGTH`).
 */
export class SearchPhrases1796500000000 implements MigrationInterface {
  name = 'SearchPhrases1796500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION search_word_pairs(document tsvector) RETURNS tsvector
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        WITH "at" AS (SELECT w."lexeme", p FROM unnest(document) w, unnest(w."positions") p)
        SELECT coalesce(array_to_tsvector(array_agg(DISTINCT a."lexeme" || ' ' || b."lexeme")), ''::tsvector)
          FROM "at" a JOIN "at" b ON b.p = a.p + 1
         WHERE length(a."lexeme") + length(b."lexeme") < 129
      $$`);
    // Built by a sort over the existing catalogue; new pairs are rare next to lookups, so no pending list.
    await queryRunner.query(`CREATE INDEX "skills_phrase_idx" ON "skills" USING GIN (search_word_pairs("search_vector"))
      WITH (fastupdate = off)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."skills_phrase_idx"`);
    await queryRunner.query(`DROP FUNCTION search_word_pairs(tsvector)`);
  }
}
