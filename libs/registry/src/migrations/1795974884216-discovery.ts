import { MigrationInterface, QueryRunner } from 'typeorm';

export class Discovery1795974884216 implements MigrationInterface {
  name = 'Discovery1795974884216';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(`ALTER TABLE "skills" ADD "latest_version_id" uuid`);
    await queryRunner.query(`ALTER TABLE "skills" ADD "downloads" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "skill_versions" ADD "search_vector" tsvector`);
    await queryRunner.query(`ALTER TABLE "certifications" ADD "issued_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "certifications" ADD "expires_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "certifications" ADD "requirements_met" jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`CREATE INDEX "skills_name_idx" ON "skills" ("name") `);
    await queryRunner.query(`CREATE INDEX "skills_downloads_idx" ON "skills" ("downloads") `);
    await queryRunner.query(`CREATE INDEX "skills_updated_at_idx" ON "skills" ("updated_at") `);
    // What TypeORM cannot describe: GIN indexes (declared with synchronize: false on the entities).
    await queryRunner.query(`CREATE INDEX "skill_versions_search_idx" ON "skill_versions" USING GIN ("search_vector")`);
    await queryRunner.query(`CREATE INDEX "skill_versions_tags_idx" ON "skill_versions" USING GIN ("tags")`);
    await queryRunner.query(
      `CREATE INDEX "skill_versions_capabilities_idx" ON "skill_versions" USING GIN ("capabilities")`,
    );
    await queryRunner.query(`CREATE INDEX "skills_name_trgm_idx" ON "skills" USING GIN ("name" gin_trgm_ops)`);
    // Backfill what earlier publishes did not write (the expression is the one SkillPublisher uses).
    await queryRunner.query(`UPDATE "skill_versions" v SET "search_vector" =
              setweight(to_tsvector('english', s."name" || ' ' || replace(s."name", '-', ' ')), 'A')
           || setweight(to_tsvector('english', v."description"), 'B')
           || setweight(to_tsvector('english', array_to_string(v."tags" || v."capabilities", ' ')), 'C')
           || setweight(to_tsvector('english', coalesce((SELECT string_agg(t->>'name' || ' ' || replace(t->>'name', '_', ' ') || ' ' || coalesce(t->>'description', ''), ' ') FROM jsonb_array_elements(v."tools") t), '')), 'D')
           FROM "skills" s WHERE s."id" = v."skill_id"`);
    await queryRunner.query(`UPDATE "skills" s SET "latest_version_id" = (
              SELECT v."id" FROM "skill_versions" v WHERE v."skill_id" = s."id"
              ORDER BY (v."status" = 'yanked'), (v."prerelease" IS NOT NULL), v."major" DESC, v."minor" DESC, v."patch" DESC, v."prerelease" DESC
              LIMIT 1)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."skills_name_trgm_idx"`);
    await queryRunner.query(`DROP INDEX "public"."skill_versions_capabilities_idx"`);
    await queryRunner.query(`DROP INDEX "public"."skill_versions_tags_idx"`);
    await queryRunner.query(`DROP INDEX "public"."skill_versions_search_idx"`);
    await queryRunner.query(`DROP INDEX "public"."skills_updated_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."skills_downloads_idx"`);
    await queryRunner.query(`DROP INDEX "public"."skills_name_idx"`);
    await queryRunner.query(`ALTER TABLE "certifications" DROP COLUMN "requirements_met"`);
    await queryRunner.query(`ALTER TABLE "certifications" DROP COLUMN "expires_at"`);
    await queryRunner.query(`ALTER TABLE "certifications" DROP COLUMN "issued_at"`);
    await queryRunner.query(`ALTER TABLE "skill_versions" DROP COLUMN "search_vector"`);
    await queryRunner.query(`ALTER TABLE "skills" DROP COLUMN "downloads"`);
    await queryRunner.query(`ALTER TABLE "skills" DROP COLUMN "latest_version_id"`);
  }
}
