import { MigrationInterface, QueryRunner } from 'typeorm';

// Frozen, as every migration: the helpers of migration 1796300000000 it builds on are repeated here.

/** SQL: each listed row of `rows` as a counter key (category, certifying policy) and `sign`. */
const listingDelta = (rows: string, sign: number) => `SELECT coalesce(r."listed_category", '') AS "category",
    CASE WHEN r."cert_status" = 'certified' THEN r."cert_policy" ELSE 0 END AS "policy", ${sign} AS "n"
  FROM ${rows} r WHERE r."latest_version_id" IS NOT NULL`;
/** SQL: the counters moved by the net of `deltas` (listingDelta rows). */
const applyListingCounters = (
  deltas: string,
) => `INSERT INTO "listing_counters" ("category", "certified_policy", "skills")
    SELECT d."category", d."policy", sum(d."n") FROM (${deltas}) d GROUP BY 1, 2 HAVING sum(d."n") <> 0
    ON CONFLICT ("category", "certified_policy") DO UPDATE SET "skills" = "listing_counters"."skills" + EXCLUDED."skills"`;

/**
 * SQL: the row trigger's function. A skill that lists another version copies that version's
 * `versionColumns` (into `listed_<column>`) and its newest-policy certification; every change rescores it.
 */
const listingRowFunction = (versionColumns: string[]) => {
  const listed = versionColumns.map((c) => `NEW."listed_${c}"`);
  return `CREATE OR REPLACE FUNCTION skills_listing_row() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' OR NEW."latest_version_id" IS DISTINCT FROM OLD."latest_version_id" THEN
          ${listed.map((c) => `${c} := NULL;`).join(' ')}
          NEW."cert_policy" := NULL; NEW."cert_status" := NULL; NEW."cert_level" := NULL;
          NEW."cert_issued_at" := NULL; NEW."cert_expires_at" := NULL;
          IF NEW."latest_version_id" IS NOT NULL THEN
            SELECT ${versionColumns.map((c) => `v."${c}"`).join(', ')}
              INTO ${listed.join(', ')}
              FROM "skill_versions" v WHERE v."id" = NEW."latest_version_id";
            SELECT c."policy_version", c."status", c."level", c."issued_at", c."expires_at"
              INTO NEW."cert_policy", NEW."cert_status", NEW."cert_level", NEW."cert_issued_at", NEW."cert_expires_at"
              FROM "certifications" c WHERE c."skill_version_id" = NEW."latest_version_id"
              ORDER BY c."policy_version" DESC LIMIT 1;
          END IF;
        END IF;
        NEW."static_score" := skill_static_score(NEW."cert_status", NEW."cert_level", NEW."downloads", NEW."updated_at");
        RETURN NEW;
      END $$`;
};

/** The functions as migration 1796300000000 left them, which down() restores. */
const PREVIOUS = {
  listingRow: listingRowFunction(['category', 'major', 'minor', 'patch']),
  listingStatement: (() => {
    const words = (docs: string) => `INSERT INTO "search_words" ("word")
        SELECT DISTINCT w FROM (${docs}) d, unnest(tsvector_to_array(d."search_vector")) w
          WHERE length(w) BETWEEN 3 AND 64 AND w ~ '^[[:alpha:]]+$'
        ON CONFLICT DO NOTHING`;
    return `CREATE OR REPLACE FUNCTION skills_listing_statement() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${applyListingCounters(listingDelta('"new_rows"', 1))};
          ${words('SELECT "search_vector" FROM "new_rows"')};
        ELSIF TG_OP = 'DELETE' THEN
          ${applyListingCounters(listingDelta('"old_rows"', -1))};
        ELSE
          ${applyListingCounters(`${listingDelta('"new_rows"', 1)} UNION ALL ${listingDelta('"old_rows"', -1)}`)};
          ${words(`SELECT n."search_vector" FROM "new_rows" n JOIN "old_rows" o ON o."id" = n."id"
                    WHERE n."search_vector" IS DISTINCT FROM o."search_vector"`)};
        END IF;
        RETURN NULL;
      END $$`;
  })(),
  wordNeighbours: `CREATE OR REPLACE FUNCTION search_word_neighbours(typed text, n int) RETURNS SETOF text
      LANGUAGE sql STABLE SET enable_indexscan = on AS $$
        SELECT x."word" FROM (
          (SELECT w."word", w."word" <-> typed AS d FROM "search_words" w ORDER BY w."word" <-> typed LIMIT n)
          UNION ALL
          (SELECT w."word", w."word" <-> t."stem" AS d FROM "search_words" w,
                  (SELECT coalesce((ts_lexize('english_stem', typed))[1], typed) AS "stem") t
            ORDER BY w."word" <-> t."stem" LIMIT n)
        ) x WHERE x.d <= 0.7 GROUP BY x."word" ORDER BY min(x.d), x."word" LIMIT n
      $$`,
};

/** SQL: the posting score of row `r`, null while it lists nothing. */
const indexed = (r: string) =>
  `CASE WHEN ${r}."latest_version_id" IS NOT NULL AND ${r}."search_vector" IS NOT NULL THEN search_posting_score(${r}."static_score") END`;
/** SQL: one row per indexed word of `rows` (with columns id, search_vector and score, null when not indexed). */
const wordsOf = (rows: string) => `SELECT x."id", x."score", w."lexeme" AS "word", 'A' = ANY(w."weights") AS "name"
    FROM (${rows}) x, unnest(x."search_vector") w WHERE x."score" IS NOT NULL AND length(w."lexeme") <= 64`;
const scored = (rows: string) => `SELECT r."id", r."search_vector", ${indexed('r')} AS "score" FROM ${rows} r`;
// In word order, so concurrent writers lock the lexicon's rows in one order.
const countWords = (signed: string) => `INSERT INTO "search_words" ("word", "documents")
    SELECT d."word", sum(d."n") FROM (${signed}) d GROUP BY d."word" HAVING sum(d."n") <> 0 ORDER BY d."word"
    ON CONFLICT ("word") DO UPDATE SET "documents" = "search_words"."documents" + EXCLUDED."documents"`;
const addPostings = (words: string) => `INSERT INTO "search_postings" ("word", "score", "skill_id", "name")
    SELECT p."word", p."score", p."id", p."name" FROM (${words}) p
    ON CONFLICT ("word", "score", "skill_id") DO UPDATE SET "name" = EXCLUDED."name"`;
const removePostings = (keys: string) => `DELETE FROM "search_postings" s USING (${keys}) p
    WHERE s."word" = p."word" AND s."score" = p."score" AND s."skill_id" = p."id"`;

/**
 * An impact-ordered inverted index, so a search for a common word reads a few hundred index
 * entries instead of every match (docs/search.md). `search_postings` holds one row per word of
 * each listed skill's search document, with the skill's static score rounded to a quarter
 * (`search_posting_score`, so a download batch rarely moves a row) and whether the word is in
 * the name; its primary key walks a word's skills best first. `search_words` (the lexicon of the
 * typo fallback) now holds every indexed word with the number of listed skills holding it, so a
 * query knows its rarest word before reading any. `skills.listed_format` lets the format filter
 * read `skills` alone. The statement trigger of migration 1796300000000 keeps all of it, in the
 * transaction of the write that changes it.
 */
export class SearchPostings1796400000000 implements MigrationInterface {
  name = 'SearchPostings1796400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "skills" ADD "listed_format" character varying(16)`);
    await queryRunner.query(`ALTER TABLE "search_words" ADD "documents" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`CREATE TABLE "search_postings" ("word" character varying(64) NOT NULL, "score" real NOT NULL,
      "skill_id" uuid NOT NULL, "name" boolean NOT NULL)`);
    await queryRunner.query(`CREATE FUNCTION search_posting_score(score double precision) RETURNS real
      LANGUAGE sql IMMUTABLE AS $$ SELECT (round(score * 4) / 4)::real $$`);

    // Backfill what the trigger keeps from now on, then index the postings: sorting them once
    // beats inserting into an index. The format backfill moves no counter, score or document,
    // so the skills' triggers are off for it: on a million rows, migration 1796300000000's
    // statement trigger would join its transition tables row by row for hours.
    await queryRunner.query(`ALTER TABLE "skills" DISABLE TRIGGER "skills_listing_row"`);
    await queryRunner.query(`ALTER TABLE "skills" DISABLE TRIGGER "skills_listing_updated"`);
    await queryRunner.query(`UPDATE "skills" s SET "listed_format" = v."format"
      FROM "skill_versions" v WHERE v."id" = s."latest_version_id"`);
    await queryRunner.query(`ALTER TABLE "skills" ENABLE TRIGGER "skills_listing_updated"`);
    await queryRunner.query(`ALTER TABLE "skills" ENABLE TRIGGER "skills_listing_row"`);
    await queryRunner.query(`INSERT INTO "search_postings" ("word", "score", "skill_id", "name")
      SELECT p."word", p."score", p."id", p."name" FROM (${wordsOf(scored('"skills"'))}) p`);
    await queryRunner.query(`UPDATE "search_words" SET "documents" = 0`);
    await queryRunner.query(countWords(`SELECT p."word", 1 AS "n" FROM (${wordsOf(scored('"skills"'))}) p`));
    await queryRunner.query(
      `ALTER TABLE "search_postings" ADD CONSTRAINT "search_postings_pkey" PRIMARY KEY ("word", "score", "skill_id")`,
    );
    // What TypeORM cannot describe: a partial index (name words) and an operator class (prefixes).
    await queryRunner.query(
      `CREATE INDEX "search_postings_name_idx" ON "search_postings" ("word", "score", "skill_id") WHERE "name"`,
    );
    await queryRunner.query(`CREATE INDEX "search_words_prefix_idx" ON "search_words" ("word" varchar_pattern_ops)`);

    // The typo fallback's lexicon lookup: words at trigram similarity 0.3 or more (`%`, through a
    // GIN trigram index, a few milliseconds where the GiST nearest-neighbour scan took tens), that
    // some listed skill holds and that are spelt with letters only, nearest first. New words are
    // rare and lookups hot: no pending list, which every lookup would read until a vacuum.
    await queryRunner.query(`DROP INDEX "public"."search_words_trgm_idx"`);
    await queryRunner.query(
      `CREATE INDEX "search_words_trgm_idx" ON "search_words" USING GIN ("word" gin_trgm_ops) WITH (fastupdate = off)`,
    );
    await queryRunner.query(`CREATE OR REPLACE FUNCTION search_word_neighbours(typed text, n int) RETURNS SETOF text
      LANGUAGE sql STABLE SET enable_bitmapscan = on SET pg_trgm.similarity_threshold = 0.3 AS $$
        SELECT x."word" FROM (
          SELECT w."word", w."word" <-> t."form" AS d FROM "search_words" w,
                 (SELECT typed AS "form" UNION SELECT coalesce((ts_lexize('english_stem', typed))[1], typed)) t
           WHERE w."word" % t."form" AND w."documents" > 0 AND w."word" ~ '^[[:alpha:]]{3,}$'
        ) x GROUP BY x."word" ORDER BY min(x.d), x."word" LIMIT n
      $$`);

    // The row trigger copies the listed version's format too.
    await queryRunner.query(listingRowFunction(['category', 'format', 'major', 'minor', 'patch']));

    // Statement trigger. Counters as before; postings and word counts from the rows whose
    // document, listing or rounded score changed (a skill is indexed while it lists a version).
    // Inserted or deleted rows add or remove all their words. Updated rows move only the
    // difference between their words before and after (a new score moves them all); the pairs
    // and words are materialized first, so no plan joins the transition tables once per row.
    const updated = `WITH "pairs" AS MATERIALIZED (
          SELECT o."id", o."search_vector" AS "before", ${indexed('o')} AS "was", n."search_vector" AS "after", ${indexed('n')} AS "is"
            FROM "old_rows" o JOIN "new_rows" n ON n."id" = o."id"
           WHERE o."search_vector" IS DISTINCT FROM n."search_vector" OR ${indexed('o')} IS DISTINCT FROM ${indexed('n')}),
        "before" AS MATERIALIZED (${wordsOf('SELECT "id", "before" AS "search_vector", "was" AS "score" FROM "pairs"')}),
        "after" AS MATERIALIZED (${wordsOf('SELECT "id", "after" AS "search_vector", "is" AS "score" FROM "pairs"')}),
        "removed" AS (${removePostings(`SELECT "word", "score", "id" FROM "before" EXCEPT SELECT "word", "score", "id" FROM "after"`)}),
        "added" AS (${addPostings('SELECT * FROM "after" EXCEPT SELECT * FROM "before"')})
      ${countWords(`SELECT x."word", 1 AS "n" FROM (SELECT "id", "word" FROM "after" EXCEPT SELECT "id", "word" FROM "before") x
                    UNION ALL
                    SELECT x."word", -1 AS "n" FROM (SELECT "id", "word" FROM "before" EXCEPT SELECT "id", "word" FROM "after") x`)}`;
    await queryRunner.query(`CREATE OR REPLACE FUNCTION skills_listing_statement() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${applyListingCounters(listingDelta('"new_rows"', 1))};
          ${addPostings(wordsOf(scored('"new_rows"')))};
          ${countWords(`SELECT p."word", 1 AS "n" FROM (${wordsOf(scored('"new_rows"'))}) p`)};
        ELSIF TG_OP = 'DELETE' THEN
          ${applyListingCounters(listingDelta('"old_rows"', -1))};
          ${removePostings(wordsOf(scored('"old_rows"')))};
          ${countWords(`SELECT p."word", -1 AS "n" FROM (${wordsOf(scored('"old_rows"'))}) p`)};
        ELSE
          ${applyListingCounters(`${listingDelta('"new_rows"', 1)} UNION ALL ${listingDelta('"old_rows"', -1)}`)};
          ${updated};
        END IF;
        RETURN NULL;
      END $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(PREVIOUS.listingStatement);
    await queryRunner.query(PREVIOUS.listingRow);
    await queryRunner.query(`DROP INDEX "public"."search_words_trgm_idx"`);
    await queryRunner.query(`CREATE INDEX "search_words_trgm_idx" ON "search_words" USING GIST ("word" gist_trgm_ops)`);
    await queryRunner.query(PREVIOUS.wordNeighbours);
    await queryRunner.query(`DROP FUNCTION search_posting_score(double precision)`);
    await queryRunner.query(`DROP INDEX "public"."search_words_prefix_idx"`);
    await queryRunner.query(`DROP TABLE "search_postings"`);
    await queryRunner.query(`DELETE FROM "search_words" WHERE "documents" = 0 OR NOT "word" ~ '^[[:alpha:]]{3,64}$'`);
    await queryRunner.query(`ALTER TABLE "search_words" DROP COLUMN "documents"`);
    await queryRunner.query(`ALTER TABLE "skills" DROP COLUMN "listed_format"`);
  }
}
