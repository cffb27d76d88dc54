import { MigrationInterface, QueryRunner } from 'typeorm';

export class PublisherKeys1795983259538 implements MigrationInterface {
  name = 'PublisherKeys1795983259538';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "publisher_keys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "namespace_id" uuid NOT NULL, "key_id" character(64) NOT NULL, "public_key_pem" text NOT NULL, "name" character varying(100) NOT NULL DEFAULT '', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "removed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_11d7d953c7c859d1f2c90d2610e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "publisher_keys_namespace_key_id_key" ON "publisher_keys" ("namespace_id", "key_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "publisher_keys" ADD CONSTRAINT "FK_95ebdea3fa54d7a68e36e69ea6b" FOREIGN KEY ("namespace_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "publisher_keys" DROP CONSTRAINT "FK_95ebdea3fa54d7a68e36e69ea6b"`);
    await queryRunner.query(`DROP INDEX "public"."publisher_keys_namespace_key_id_key"`);
    await queryRunner.query(`DROP TABLE "publisher_keys"`);
  }
}
