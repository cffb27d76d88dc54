import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search, lists and stats that do not grow with the catalogue (skill-search.repository.ts): each skill
 * carries its listed version's category and version parts, its certification under the newest
 * policy that judged it, and a static score; a counter table holds listed skills per
 * (category, certifying policy); a lexicon of every indexed word feeds the typo fallback.
 * Triggers keep all three in the transaction of the write that changes them, so the
 * publisher, the certifier, revocations, yanks and the download counter stay as they are.
 */
export class SearchScale1796300000000 implements MigrationInterface {
  name = 'SearchScale1796300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "skills" ADD "listed_category" character varying(64)`);
    await queryRunner.query(`ALTER TABLE "skills" ADD "listed_major" integer`);
    await queryRunner.query(`ALTER TABLE "skills" ADD "listed_minor" integer`);
    await queryRunner.query(`ALTER TABLE "skills" ADD "listed_patch" integer`);
    await queryRunner.query(`ALTER TABLE "skills" ADD "cert_policy" integer`);
    await queryRunner.query(`ALTER TABLE "skills" ADD "cert_status" character varying(16)`);
    await queryRunner.query(`ALTER TABLE "skills" ADD "cert_level" character varying(16)`);
    await queryRunner.query(`ALTER TABLE "skills" ADD "cert_issued_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "skills" ADD "cert_expires_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "skills" ADD "static_score" double precision NOT NULL DEFAULT '0'`);
    await queryRunner.query(`CREATE TABLE "listing_counters" ("category" character varying(64) NOT NULL,
      "certified_policy" integer NOT NULL, "skills" integer NOT NULL DEFAULT '0',
      CONSTRAINT "listing_counters_pkey" PRIMARY KEY ("category", "certified_policy"))`);
    await queryRunner.query(`CREATE TABLE "search_words" ("word" character varying(64) NOT NULL,
      CONSTRAINT "search_words_pkey" PRIMARY KEY ("word"))`);

    // Keyset orders, each on one table (id last, so every position is unique).
    await queryRunner.query(`DROP INDEX "public"."skills_name_idx"`);
    await queryRunner.query(`DROP INDEX "public"."skills_downloads_idx"`);
    await queryRunner.query(`DROP INDEX "public"."skills_updated_at_idx"`);
    await queryRunner.query(`CREATE INDEX "skills_name_id_idx" ON "skills" ("name", "id") `);
    await queryRunner.query(`CREATE INDEX "skills_downloads_id_idx" ON "skills" ("downloads", "id") `);
    await queryRunner.query(`CREATE INDEX "skills_updated_at_id_idx" ON "skills" ("updated_at", "id") `);
    await queryRunner.query(
      `CREATE INDEX "skills_listed_version_idx" ON "skills" ("listed_major", "listed_minor", "listed_patch", "id") `,
    );
    await queryRunner.query(`CREATE INDEX "skills_static_score_idx" ON "skills" ("static_score") `);
    await queryRunner.query(`CREATE INDEX "skills_latest_version_id_idx" ON "skills" ("latest_version_id") `);
    await queryRunner.query(`CREATE INDEX "skill_versions_created_id_idx" ON "skill_versions" ("created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "skill_versions_downloads_id_idx" ON "skill_versions" ("downloads", "id") `);
    await queryRunner.query(
      `CREATE INDEX "skill_versions_order_id_idx" ON "skill_versions" ("major", "minor", "patch", "id") `,
    );
    // What TypeORM cannot describe (synchronize: false on the entities): partial and trigram indexes.
    await queryRunner.query(`CREATE INDEX "skills_certified_issued_idx" ON "skills" ("cert_issued_at" DESC NULLS LAST, "id" DESC)
      WHERE "cert_status" = 'certified' AND "latest_version_id" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "skills_certified_expiry_idx" ON "skills" ("cert_expires_at")
      WHERE "cert_status" = 'certified' AND "latest_version_id" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "search_words_trgm_idx" ON "search_words" USING GIST ("word" gist_trgm_ops)`);
    // The indexed words nearest a typed one and its stem (trigram distance, a GiST nearest-neighbour
    // scan whatever the plan settings of the search calling it), at similarity 0.3 or more.
    await queryRunner.query(`CREATE FUNCTION search_word_neighbours(typed text, n int) RETURNS SETOF text
      LANGUAGE sql STABLE SET enable_indexscan = on AS $$
        SELECT x."word" FROM (
          (SELECT w."word", w."word" <-> typed AS d FROM "search_words" w ORDER BY w."word" <-> typed LIMIT n)
          UNION ALL
          (SELECT w."word", w."word" <-> t."stem" AS d FROM "search_words" w,
                  (SELECT coalesce((ts_lexize('english_stem', typed))[1], typed) AS "stem") t
            ORDER BY w."word" <-> t."stem" LIMIT n)
        ) x WHERE x.d <= 0.7 GROUP BY x."word" ORDER BY min(x.d), x."word" LIMIT n
      $$`);

    // Static score: certified level, then log downloads, then recency as a growing term
    // (one point per 90 days), so no row needs rewriting as time passes.
    await queryRunner.query(`CREATE FUNCTION skill_static_score(status varchar, level varchar, downloads bigint, updated timestamptz)
      RETURNS double precision LANGUAGE sql IMMUTABLE AS $$
        SELECT CASE WHEN status = 'certified' THEN CASE level WHEN 'standard' THEN 3 WHEN 'basic' THEN 2 ELSE 1 END ELSE 0 END
             + ln(1 + greatest(downloads, 0))
             + extract(epoch FROM updated) / (86400 * 90.0)
      $$`);

    // Row trigger: a skill that lists another version copies that version's columns and its
    // newest-policy certification; every change rescores it.
    await queryRunner.query(`CREATE FUNCTION skills_listing_row() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' OR NEW."latest_version_id" IS DISTINCT FROM OLD."latest_version_id" THEN
          NEW."listed_category" := NULL; NEW."listed_major" := NULL; NEW."listed_minor" := NULL; NEW."listed_patch" := NULL;
          NEW."cert_policy" := NULL; NEW."cert_status" := NULL; NEW."cert_level" := NULL;
          NEW."cert_issued_at" := NULL; NEW."cert_expires_at" := NULL;
          IF NEW."latest_version_id" IS NOT NULL THEN
            SELECT v."category", v."major", v."minor", v."patch"
              INTO NEW."listed_category", NEW."listed_major", NEW."listed_minor", NEW."listed_patch"
              FROM "skill_versions" v WHERE v."id" = NEW."latest_version_id";
            SELECT c."policy_version", c."status", c."level", c."issued_at", c."expires_at"
              INTO NEW."cert_policy", NEW."cert_status", NEW."cert_level", NEW."cert_issued_at", NEW."cert_expires_at"
              FROM "certifications" c WHERE c."skill_version_id" = NEW."latest_version_id"
              ORDER BY c."policy_version" DESC LIMIT 1;
          END IF;
        END IF;
        NEW."static_score" := skill_static_score(NEW."cert_status", NEW."cert_level", NEW."downloads", NEW."updated_at");
        RETURN NEW;
      END $$`);
    // Statement triggers: counters move by the net change of the statement's rows (a batch of
    // download counts changes no key and writes nothing); new search documents add their words.
    const delta = (rows: string, sign: number) => `SELECT coalesce(r."listed_category", '') AS "category",
        CASE WHEN r."cert_status" = 'certified' THEN r."cert_policy" ELSE 0 END AS "policy", ${sign} AS "n"
      FROM ${rows} r WHERE r."latest_version_id" IS NOT NULL`;
    const apply = (deltas: string) => `INSERT INTO "listing_counters" ("category", "certified_policy", "skills")
        SELECT d."category", d."policy", sum(d."n") FROM (${deltas}) d GROUP BY 1, 2 HAVING sum(d."n") <> 0
        ON CONFLICT ("category", "certified_policy") DO UPDATE SET "skills" = "listing_counters"."skills" + EXCLUDED."skills"`;
    const words = (docs: string) => `INSERT INTO "search_words" ("word")
        SELECT DISTINCT w FROM (${docs}) d, unnest(tsvector_to_array(d."search_vector")) w
          WHERE length(w) BETWEEN 3 AND 64 AND w ~ '^[[:alpha:]]+$'
        ON CONFLICT DO NOTHING`;
    await queryRunner.query(`CREATE FUNCTION skills_listing_statement() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${apply(delta('"new_rows"', 1))};
          ${words('SELECT "search_vector" FROM "new_rows"')};
        ELSIF TG_OP = 'DELETE' THEN
          ${apply(delta('"old_rows"', -1))};
        ELSE
          ${apply(`${delta('"new_rows"', 1)} UNION ALL ${delta('"old_rows"', -1)}`)};
          ${words(`SELECT n."search_vector" FROM "new_rows" n JOIN "old_rows" o ON o."id" = n."id"
                    WHERE n."search_vector" IS DISTINCT FROM o."search_vector"`)};
        END IF;
        RETURN NULL;
      END $$`);
    // A verdict recorded, revoked or requeued under a new policy reaches the skill listing
    // that version (whose row trigger rescores it and whose statement trigger moves the counters).
    await queryRunner.query(`CREATE FUNCTION skills_follow_certification() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE "skills" s SET "cert_policy" = c."policy_version", "cert_status" = c."status", "cert_level" = c."level",
               "cert_issued_at" = c."issued_at", "cert_expires_at" = c."expires_at"
          FROM (SELECT * FROM "certifications" WHERE "skill_version_id" = NEW."skill_version_id"
                ORDER BY "policy_version" DESC LIMIT 1) c
         WHERE s."latest_version_id" = NEW."skill_version_id"
           AND (s."cert_policy", s."cert_status", s."cert_level", s."cert_issued_at", s."cert_expires_at")
               IS DISTINCT FROM (c."policy_version", c."status", c."level", c."issued_at", c."expires_at");
        RETURN NULL;
      END $$`);

    // Backfill what the triggers will keep from now on, then start them.
    await queryRunner.query(`UPDATE "skills" s SET "listed_category" = v."category", "listed_major" = v."major",
        "listed_minor" = v."minor", "listed_patch" = v."patch"
      FROM "skill_versions" v WHERE v."id" = s."latest_version_id"`);
    await queryRunner.query(`UPDATE "skills" s SET "cert_policy" = c."policy_version", "cert_status" = c."status",
        "cert_level" = c."level", "cert_issued_at" = c."issued_at", "cert_expires_at" = c."expires_at"
      FROM (SELECT DISTINCT ON ("skill_version_id") * FROM "certifications" ORDER BY "skill_version_id", "policy_version" DESC) c
      WHERE c."skill_version_id" = s."latest_version_id"`);
    await queryRunner.query(
      `UPDATE "skills" SET "static_score" = skill_static_score("cert_status", "cert_level", "downloads", "updated_at")`,
    );
    await queryRunner.query(apply(delta('"skills"', 1)));
    await queryRunner.query(words('SELECT "search_vector" FROM "skills"'));
    await queryRunner.query(`CREATE TRIGGER "certifications_listing" AFTER INSERT OR UPDATE ON "certifications"
      FOR EACH ROW EXECUTE FUNCTION skills_follow_certification()`);
    await queryRunner.query(`CREATE TRIGGER "skills_listing_row" BEFORE INSERT OR UPDATE ON "skills"
      FOR EACH ROW EXECUTE FUNCTION skills_listing_row()`);
    await queryRunner.query(`CREATE TRIGGER "skills_listing_inserted" AFTER INSERT ON "skills"
      REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION skills_listing_statement()`);
    await queryRunner.query(`CREATE TRIGGER "skills_listing_updated" AFTER UPDATE ON "skills"
      REFERENCING OLD TABLE AS "old_rows" NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION skills_listing_statement()`);
    await queryRunner.query(`CREATE TRIGGER "skills_listing_deleted" AFTER DELETE ON "skills"
      REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION skills_listing_statement()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const trigger of [
      'skills_listing_deleted',
      'skills_listing_updated',
      'skills_listing_inserted',
      'skills_listing_row',
    ]) {
      await queryRunner.query(`DROP TRIGGER "${trigger}" ON "skills"`);
    }
    await queryRunner.query(`DROP TRIGGER "certifications_listing" ON "certifications"`);
    await queryRunner.query(`DROP FUNCTION skills_follow_certification()`);
    await queryRunner.query(`DROP FUNCTION skills_listing_statement()`);
    await queryRunner.query(`DROP FUNCTION skills_listing_row()`);
    await queryRunner.query(`DROP FUNCTION skill_static_score(varchar, varchar, bigint, timestamptz)`);
    await queryRunner.query(`DROP FUNCTION search_word_neighbours(text, int)`);
    for (const index of [
      'search_words_trgm_idx',
      'skills_certified_expiry_idx',
      'skills_certified_issued_idx',
      'skill_versions_order_id_idx',
      'skill_versions_downloads_id_idx',
      'skill_versions_created_id_idx',
      'skills_latest_version_id_idx',
      'skills_static_score_idx',
      'skills_listed_version_idx',
      'skills_updated_at_id_idx',
      'skills_downloads_id_idx',
      'skills_name_id_idx',
    ]) {
      await queryRunner.query(`DROP INDEX "public"."${index}"`);
    }
    await queryRunner.query(`CREATE INDEX "skills_updated_at_idx" ON "skills" ("updated_at") `);
    await queryRunner.query(`CREATE INDEX "skills_downloads_idx" ON "skills" ("downloads") `);
    await queryRunner.query(`CREATE INDEX "skills_name_idx" ON "skills" ("name") `);
    await queryRunner.query(`DROP TABLE "search_words"`);
    await queryRunner.query(`DROP TABLE "listing_counters"`);
    for (const column of [
      'static_score',
      'cert_expires_at',
      'cert_issued_at',
      'cert_level',
      'cert_status',
      'cert_policy',
      'listed_patch',
      'listed_minor',
      'listed_major',
      'listed_category',
    ]) {
      await queryRunner.query(`ALTER TABLE "skills" DROP COLUMN "${column}"`);
    }
  }
}
