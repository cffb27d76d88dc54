import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fills `log_nodes` from the leaves already in `log_entries`, one level at a time in SQL:
 * node = SHA-256(0x01 || left || right) over each complete pair of the level below (RFC 6962).
 */
export async function backfillLogNodes(queryRunner: {
  query(sql: string): Promise<Array<{ added: number }>>;
}): Promise<void> {
  for (let level = 1; ; level++) {
    const below =
      level === 1
        ? `SELECT "index" AS idx, "leaf_hash" AS hash FROM "log_entries"`
        : `SELECT "index" AS idx, "hash" FROM "log_nodes" WHERE "level" = ${level - 1}`;
    const [{ added }] = await queryRunner.query(
      `WITH below AS (${below}), added AS (
         INSERT INTO "log_nodes" ("level", "index", "hash")
         SELECT ${level}, l.idx / 2, encode(sha256('\\x01'::bytea || decode(l.hash, 'hex') || decode(r.hash, 'hex')), 'hex')
         FROM below l JOIN below r ON r.idx = l.idx + 1
         WHERE l.idx % 2 = 0
         ON CONFLICT DO NOTHING
         RETURNING 1)
       SELECT count(*)::int AS added FROM added`,
    );
    if (added === 0) return;
  }
}

export class LogNodes1795985052280 implements MigrationInterface {
  name = 'LogNodes1795985052280';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "log_nodes" ("level" smallint NOT NULL, "index" bigint NOT NULL, "hash" character(64) NOT NULL, CONSTRAINT "PK_1e8fbdc6eb902a5571cf3b366f4" PRIMARY KEY ("level", "index"))`,
    );
    await backfillLogNodes(queryRunner);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "log_nodes"`);
  }
}
