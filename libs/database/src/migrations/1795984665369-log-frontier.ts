import { MigrationInterface, QueryRunner } from 'typeorm';

export class LogFrontier1795984665369 implements MigrationInterface {
  name = 'LogFrontier1795984665369';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "log_checkpoints" ADD "frontier" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "log_checkpoints" DROP COLUMN "frontier"`);
  }
}
