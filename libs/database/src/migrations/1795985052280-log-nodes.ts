import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fills `log_nodes` from the leaves in `log_entries`, one level at a time in SQL: node =
 * SHA-256(0x01 || left || right) over each complete pair of the level below (RFC 6962); it
 * stops at the first level with no complete pair. Frozen with this migration: the log's
 * repository has its own copy, which may change; this one never does.
 */
async function backfillLogNodes(queryRunner: QueryRunner): Promise<void> {
  for (let level = 1; ; level++) {
    const below =
      level === 1
        ? `SELECT "index" AS idx, "leaf_hash" AS hash FROM "log_entries"`
        : `SELECT "index" AS idx, "hash" FROM "log_nodes" WHERE "level" = ${level - 1}`;
    const [{ pairs }]: Array<{ pairs: number }> = await queryRunner.query(
      `WITH below AS (${below}),
       pairs AS (
         SELECT l.idx / 2 AS idx,
                encode(sha256('\\x01'::bytea || decode(l.hash, 'hex') || decode(r.hash, 'hex')), 'hex') AS hash
         FROM below l JOIN below r ON r.idx = l.idx + 1
         WHERE l.idx % 2 = 0),
       added AS (
         INSERT INTO "log_nodes" ("level", "index", "hash")
         SELECT ${level}, idx, hash FROM pairs
         ON CONFLICT DO NOTHING)
       SELECT count(*)::int AS pairs FROM pairs`,
    );
    if (pairs === 0) return;
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
