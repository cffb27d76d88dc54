import { MigrationInterface, QueryRunner } from 'typeorm';

export class Certification1795978098213 implements MigrationInterface {
  name = 'Certification1795978098213';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "certificates" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "certification_id" uuid NOT NULL, "key_id" character(64) NOT NULL, "envelope" jsonb NOT NULL, "log_index" bigint NOT NULL, "issued_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e4c7e31e2144300bea7d89eb165" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "certificates_certification_key" ON "certificates" ("certification_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "log_checkpoints" ("tree_size" bigint NOT NULL, "root_hash" character(64) NOT NULL, "note" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9cfc4527538f7f7c405c5cc7fe9" PRIMARY KEY ("tree_size"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "log_entries" ("index" bigint NOT NULL, "kind" character varying(16) NOT NULL, "leaf_data" text NOT NULL, "leaf_hash" character(64) NOT NULL, "summary" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "log_entries_kind_check" CHECK ("kind" IN ('certification', 'revocation')), CONSTRAINT "PK_4bc1cf07d87020cf73fe7205f35" PRIMARY KEY ("index"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "revocations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "skill_version_id" uuid NOT NULL, "reason" character varying(1000) NOT NULL, "revoked_by" character varying(64) NOT NULL, "log_index" bigint NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9f70c460c05775181f4a3527833" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "revocations_version_key" ON "revocations" ("skill_version_id") `);
    await queryRunner.query(
      `CREATE TABLE "signing_keys" ("key_id" character(64) NOT NULL, "public_key_pem" text NOT NULL, "private_key_sealed" text NOT NULL, "not_before" TIMESTAMP WITH TIME ZONE NOT NULL, "not_after" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e02f744a41c3ffa8340aa850638" PRIMARY KEY ("key_id"))`,
    );
    await queryRunner.query(`ALTER TABLE "namespaces" ADD "kazma_secret_sealed" character varying(512)`);
    await queryRunner.query(`ALTER TABLE "submissions" ADD "report" jsonb`);
    await queryRunner.query(
      `ALTER TABLE "certificates" ADD CONSTRAINT "FK_5e3ae532bd06c9b107dc64f1a61" FOREIGN KEY ("certification_id") REFERENCES "certifications"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "revocations" ADD CONSTRAINT "FK_212bf2251b873192244024ba9b3" FOREIGN KEY ("skill_version_id") REFERENCES "skill_versions"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "revocations" DROP CONSTRAINT "FK_212bf2251b873192244024ba9b3"`);
    await queryRunner.query(`ALTER TABLE "certificates" DROP CONSTRAINT "FK_5e3ae532bd06c9b107dc64f1a61"`);
    await queryRunner.query(`ALTER TABLE "submissions" DROP COLUMN "report"`);
    await queryRunner.query(`ALTER TABLE "namespaces" DROP COLUMN "kazma_secret_sealed"`);
    await queryRunner.query(`DROP TABLE "signing_keys"`);
    await queryRunner.query(`DROP INDEX "public"."revocations_version_key"`);
    await queryRunner.query(`DROP TABLE "revocations"`);
    await queryRunner.query(`DROP TABLE "log_entries"`);
    await queryRunner.query(`DROP TABLE "log_checkpoints"`);
    await queryRunner.query(`DROP INDEX "public"."certificates_certification_key"`);
    await queryRunner.query(`DROP TABLE "certificates"`);
  }
}
