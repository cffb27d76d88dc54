import { MigrationInterface, QueryRunner } from 'typeorm';

/** Which token made which: a child never outlives its parent, and revoking a parent revokes its descendants. */
export class TokenParents1796126991951 implements MigrationInterface {
  name = 'TokenParents1796126991951';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "publisher_tokens" ADD "parent_id" uuid`);
    await queryRunner.query(`CREATE INDEX "publisher_tokens_parent_id_idx" ON "publisher_tokens" ("parent_id") `);
    await queryRunner.query(
      `ALTER TABLE "publisher_tokens" ADD CONSTRAINT "FK_7e50ec88e36489aecabf567e03b" FOREIGN KEY ("parent_id") REFERENCES "publisher_tokens"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "publisher_tokens" DROP CONSTRAINT "FK_7e50ec88e36489aecabf567e03b"`);
    await queryRunner.query(`DROP INDEX "public"."publisher_tokens_parent_id_idx"`);
    await queryRunner.query(`ALTER TABLE "publisher_tokens" DROP COLUMN "parent_id"`);
  }
}
