import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A counter that moves, in the same transaction, whenever a certification starts or stops holding
 * a certificate: a row written certified, a change of status, expiry or policy, a row deleted.
 * Readers that keep what they built from the certified set (the MCP sub-registry) read this one row
 * instead of aggregating every certification, so their cost does not grow with the catalogue. A
 * pending row written at publish changes nothing certified and leaves it. Expiry needs no write:
 * readers keep the earliest expiry of what they built.
 */
export class CertificationChanges1796700000000 implements MigrationInterface {
  name = 'CertificationChanges1796700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "certification_changes" (
      "one" boolean PRIMARY KEY DEFAULT true CHECK ("one"),
      "generation" bigint NOT NULL DEFAULT 0)`);
    await queryRunner.query(`INSERT INTO "certification_changes" DEFAULT VALUES`);
    await queryRunner.query(`CREATE FUNCTION certification_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE "certification_changes" SET "generation" = "generation" + 1;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "certification_inserted" AFTER INSERT ON "certifications"
      FOR EACH ROW WHEN (NEW."status" = 'certified') EXECUTE FUNCTION certification_changed()`);
    await queryRunner.query(`CREATE TRIGGER "certification_updated"
      AFTER UPDATE OF "status", "expires_at", "policy_version" ON "certifications"
      FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."expires_at" IS DISTINCT FROM NEW."expires_at"
                         OR OLD."policy_version" IS DISTINCT FROM NEW."policy_version")
      EXECUTE FUNCTION certification_changed()`);
    await queryRunner.query(`CREATE TRIGGER "certification_deleted" AFTER DELETE ON "certifications"
      FOR EACH ROW WHEN (OLD."status" = 'certified') EXECUTE FUNCTION certification_changed()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "certification_deleted" ON "certifications"`);
    await queryRunner.query(`DROP TRIGGER "certification_updated" ON "certifications"`);
    await queryRunner.query(`DROP TRIGGER "certification_inserted" ON "certifications"`);
    await queryRunner.query(`DROP FUNCTION certification_changed()`);
    await queryRunner.query(`DROP TABLE "certification_changes"`);
  }
}
