import { MigrationInterface, QueryRunner } from 'typeorm';

export class Init1795973621262 implements MigrationInterface {
  name = 'Init1795973621262';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "blobs" ("sha256" character(64) NOT NULL, "size" integer NOT NULL, "content" bytea NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_bf448430f9a07c61c2eb85de185" PRIMARY KEY ("sha256"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "publishers" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(100) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_39082806f986a63cd7dcf1782a5" UNIQUE ("name"), CONSTRAINT "PK_9d73f23749dca512efc3ccbea6a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "namespaces" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "slug" character varying(39) NOT NULL, "owner_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "namespaces_slug_format" CHECK ("slug" ~ '^[a-z0-9][a-z0-9-]{0,38}$'), CONSTRAINT "PK_35c142e0f0de70165cc1a74b2cb" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "namespaces_slug_key" ON "namespaces" ("slug") `);
    await queryRunner.query(
      `CREATE TABLE "skills" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "namespace_id" uuid NOT NULL, "name" character varying(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0d3212120f4ecedf90864d7e298" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "skills_namespace_name_key" ON "skills" ("namespace_id", "name") `);
    await queryRunner.query(
      `CREATE TABLE "skill_versions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "skill_id" uuid NOT NULL, "version" character varying(64) NOT NULL, "major" integer NOT NULL, "minor" integer NOT NULL, "patch" integer NOT NULL, "prerelease" character varying(64), "format" character varying(16) NOT NULL, "author" character varying(200) NOT NULL, "description" text NOT NULL, "license" character varying(100), "category" character varying(64), "capabilities" text array NOT NULL DEFAULT '{}', "permissions" text array NOT NULL DEFAULT '{}', "tags" text array NOT NULL DEFAULT '{}', "tools" jsonb NOT NULL DEFAULT '[]', "mcp_servers" jsonb NOT NULL DEFAULT '[]', "entry_point" character varying(512), "manifest_path" character varying(512) NOT NULL, "manifest" jsonb NOT NULL, "files" jsonb NOT NULL, "bundle_sha256" character(64) NOT NULL, "bundle_size" integer NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'active', "status_message" character varying(1000), "status_changed_at" TIMESTAMP WITH TIME ZONE, "published_by" uuid NOT NULL, "downloads" bigint NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "skill_versions_format_check" CHECK ("format" IN ('kazma', 'swarmkit', 'agent-skill')), CONSTRAINT "skill_versions_status_check" CHECK ("status" IN ('active', 'deprecated', 'yanked')), CONSTRAINT "PK_5c98dbb0de0ba8fbe6c7e0a768c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "skill_versions_skill_order_idx" ON "skill_versions" ("skill_id", "major", "minor", "patch") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "skill_versions_skill_version_key" ON "skill_versions" ("skill_id", "version") `,
    );
    await queryRunner.query(
      `CREATE TABLE "certifications" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "skill_version_id" uuid NOT NULL, "policy_version" integer NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "level" character varying(16) NOT NULL DEFAULT 'none', "report" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "certifications_level_check" CHECK ("level" IN ('none', 'basic', 'standard')), CONSTRAINT "certifications_status_check" CHECK ("status" IN ('pending', 'certified', 'failed', 'inconclusive', 'revoked', 'expired')), CONSTRAINT "PK_fd763d412e4a1fb1b6dadd6e72b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "certifications_version_policy_key" ON "certifications" ("skill_version_id", "policy_version") `,
    );
    await queryRunner.query(
      `CREATE TABLE "outbox" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "queue" character varying(64) NOT NULL, "job_name" character varying(64) NOT NULL, "payload" jsonb NOT NULL, "available_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "attempts" integer NOT NULL DEFAULT '0', "last_error" character varying(1000), "dispatched_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_340ab539f309f03bdaa14aa7649" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "outbox_pending_idx" ON "outbox" ("available_at") WHERE "dispatched_at" IS NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "publisher_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "publisher_id" uuid NOT NULL, "name" character varying(100) NOT NULL, "prefix" character varying(16) NOT NULL, "token_hash" character(64) NOT NULL, "scopes" text array NOT NULL, "namespace_id" uuid, "expires_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1b345ee13a8b3692dbb6a8b92d1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "publisher_tokens_publisher_id_idx" ON "publisher_tokens" ("publisher_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "publisher_tokens_hash_key" ON "publisher_tokens" ("token_hash") `);
    await queryRunner.query(
      `CREATE TABLE "submissions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "namespace_slug" character varying(39) NOT NULL, "name" character varying(64) NOT NULL, "version" character varying(64) NOT NULL, "manifest" jsonb NOT NULL, "problems" jsonb NOT NULL DEFAULT '[]', "source_url" character varying(2048), "submitter_id" character varying(200), "client_address" character varying(64) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'quarantined', "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "claimed_at" TIMESTAMP WITH TIME ZONE, "skill_version_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "submissions_status_check" CHECK ("status" IN ('quarantined', 'claimed')), CONSTRAINT "PK_10b3be95b8b2fb1e482e07d706b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "submissions_client_created_idx" ON "submissions" ("client_address", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "namespaces" ADD CONSTRAINT "FK_b2bad37e327f06ed7285fc33332" FOREIGN KEY ("owner_id") REFERENCES "publishers"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "skills" ADD CONSTRAINT "FK_6bc5a2b8382af203e23720d8a49" FOREIGN KEY ("namespace_id") REFERENCES "namespaces"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "skill_versions" ADD CONSTRAINT "FK_1ef1caf0168b78a96ece715646d" FOREIGN KEY ("skill_id") REFERENCES "skills"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "skill_versions" ADD CONSTRAINT "FK_8f95868f7ec3e91d1640e984fcf" FOREIGN KEY ("bundle_sha256") REFERENCES "blobs"("sha256") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "certifications" ADD CONSTRAINT "FK_22d7fb8c495dd842640ad3392c6" FOREIGN KEY ("skill_version_id") REFERENCES "skill_versions"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "publisher_tokens" ADD CONSTRAINT "FK_b8bf3acc8cb14a6dfa126c66479" FOREIGN KEY ("publisher_id") REFERENCES "publishers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "publisher_tokens" ADD CONSTRAINT "FK_3ae49f2c2b091a76bb363190358" FOREIGN KEY ("namespace_id") REFERENCES "namespaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "submissions" ADD CONSTRAINT "FK_5d51ff419f0b816207db38dafdf" FOREIGN KEY ("skill_version_id") REFERENCES "skill_versions"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "submissions" DROP CONSTRAINT "FK_5d51ff419f0b816207db38dafdf"`);
    await queryRunner.query(`ALTER TABLE "publisher_tokens" DROP CONSTRAINT "FK_3ae49f2c2b091a76bb363190358"`);
    await queryRunner.query(`ALTER TABLE "publisher_tokens" DROP CONSTRAINT "FK_b8bf3acc8cb14a6dfa126c66479"`);
    await queryRunner.query(`ALTER TABLE "certifications" DROP CONSTRAINT "FK_22d7fb8c495dd842640ad3392c6"`);
    await queryRunner.query(`ALTER TABLE "skill_versions" DROP CONSTRAINT "FK_8f95868f7ec3e91d1640e984fcf"`);
    await queryRunner.query(`ALTER TABLE "skill_versions" DROP CONSTRAINT "FK_1ef1caf0168b78a96ece715646d"`);
    await queryRunner.query(`ALTER TABLE "skills" DROP CONSTRAINT "FK_6bc5a2b8382af203e23720d8a49"`);
    await queryRunner.query(`ALTER TABLE "namespaces" DROP CONSTRAINT "FK_b2bad37e327f06ed7285fc33332"`);
    await queryRunner.query(`DROP INDEX "public"."submissions_client_created_idx"`);
    await queryRunner.query(`DROP TABLE "submissions"`);
    await queryRunner.query(`DROP INDEX "public"."publisher_tokens_hash_key"`);
    await queryRunner.query(`DROP INDEX "public"."publisher_tokens_publisher_id_idx"`);
    await queryRunner.query(`DROP TABLE "publisher_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."outbox_pending_idx"`);
    await queryRunner.query(`DROP TABLE "outbox"`);
    await queryRunner.query(`DROP INDEX "public"."certifications_version_policy_key"`);
    await queryRunner.query(`DROP TABLE "certifications"`);
    await queryRunner.query(`DROP INDEX "public"."skill_versions_skill_version_key"`);
    await queryRunner.query(`DROP INDEX "public"."skill_versions_skill_order_idx"`);
    await queryRunner.query(`DROP TABLE "skill_versions"`);
    await queryRunner.query(`DROP INDEX "public"."skills_namespace_name_key"`);
    await queryRunner.query(`DROP TABLE "skills"`);
    await queryRunner.query(`DROP INDEX "public"."namespaces_slug_key"`);
    await queryRunner.query(`DROP TABLE "namespaces"`);
    await queryRunner.query(`DROP TABLE "publishers"`);
    await queryRunner.query(`DROP TABLE "blobs"`);
  }
}
