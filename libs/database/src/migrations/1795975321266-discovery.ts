import { MigrationInterface, QueryRunner } from 'typeorm';

export class Discovery1795975321266 implements MigrationInterface {
  name = 'Discovery1795975321266';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(`ALTER TABLE "skills" ADD "latest_version_id" uuid`);
    await queryRunner.query(`ALTER TABLE "skills" ADD "search_vector" tsvector`);
    await queryRunner.query(`ALTER TABLE "skills" ADD "downloads" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "certifications" ADD "issued_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "certifications" ADD "expires_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "certifications" ADD "requirements_met" jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`CREATE INDEX "skills_name_idx" ON "skills" ("name") `);
    await queryRunner.query(`CREATE INDEX "skills_downloads_idx" ON "skills" ("downloads") `);
    await queryRunner.query(`CREATE INDEX "skills_updated_at_idx" ON "skills" ("updated_at") `);
    // What TypeORM cannot describe: GIN indexes (declared with synchronize: false on the entities).
    await queryRunner.query(`CREATE INDEX "skills_search_idx" ON "skills" USING GIN ("search_vector")`);
    await queryRunner.query(`CREATE INDEX "skills_name_trgm_idx" ON "skills" USING GIN ("name" gin_trgm_ops)`);
    await queryRunner.query(`CREATE INDEX "skill_versions_tags_idx" ON "skill_versions" USING GIN ("tags")`);
    await queryRunner.query(
      `CREATE INDEX "skill_versions_capabilities_idx" ON "skill_versions" USING GIN ("capabilities")`,
    );
    // Backfill: each skill lists its highest stable version not yanked, and searches by it
    // (the same rule and document as hub-api's REFRESH_LISTING_SQL, frozen here).
    await queryRunner.query(`UPDATE "skills" s SET "latest_version_id" = l."id", "search_vector" =
              setweight(to_tsvector('english', s."name" || ' ' || replace(s."name", '-', ' ')), 'A')
           || setweight(to_tsvector('english', l."description"), 'B')
           || setweight(to_tsvector('english', array_to_string(l."tags" || l."capabilities", ' ')), 'C')
           || setweight(to_tsvector('english', coalesce((SELECT string_agg(t->>'name' || ' ' || replace(t->>'name', '_', ' ')
                || ' ' || coalesce(t->>'description', ''), ' ') FROM jsonb_array_elements(l."tools") t), '')), 'D')
           FROM (SELECT DISTINCT ON (v."skill_id") v.* FROM "skill_versions" v WHERE v."status" <> 'yanked'
                 ORDER BY v."skill_id", (v."prerelease" IS NOT NULL),
                          v."major" DESC, v."minor" DESC, v."patch" DESC, v."prerelease" DESC) l
           WHERE l."skill_id" = s."id"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."skill_versions_capabilities_idx"`);
    await queryRunner.query(`DROP INDEX "public"."skill_versions_tags_idx"`);
    await queryRunner.query(`DROP INDEX "public"."skills_name_trgm_idx"`);
    await queryRunner.query(`DROP INDEX "public"."skills_search_idx"`);
    await queryRunner.query(`DROP INDEX "public"."skills_updated_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."skills_downloads_idx"`);
    await queryRunner.query(`DROP INDEX "public"."skills_name_idx"`);
    await queryRunner.query(`ALTER TABLE "certifications" DROP COLUMN "requirements_met"`);
    await queryRunner.query(`ALTER TABLE "certifications" DROP COLUMN "expires_at"`);
    await queryRunner.query(`ALTER TABLE "certifications" DROP COLUMN "issued_at"`);
    await queryRunner.query(`ALTER TABLE "skills" DROP COLUMN "downloads"`);
    await queryRunner.query(`ALTER TABLE "skills" DROP COLUMN "search_vector"`);
    await queryRunner.query(`ALTER TABLE "skills" DROP COLUMN "latest_version_id"`);
  }
}
