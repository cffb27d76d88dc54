/**
 * Skills, their immutable versions and the bundle bytes behind them: publish's writes, the
 * lookups by `author/name@version`, lifecycle changes with the listing they move, and downloads.
 */
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { verifiedBlob } from '../blob-integrity';
import { Blob } from '../entities/blob.entity';
import { Namespace } from '../entities/namespace.entity';
import { Skill } from '../entities/skill.entity';
import { SkillVersion, type VersionStatus } from '../entities/skill-version.entity';

/**
 * The weighted full-text document of skill `s` listing version `l` (ranking rule in
 * libs/search). Hyphens and underscores are also split, so `get_weather` and
 * `weather-now` match `weather`.
 */
export const SKILL_SEARCH_VECTOR_SQL = `setweight(to_tsvector('english', s."name" || ' ' || replace(s."name", '-', ' ')), 'A')
  || setweight(to_tsvector('english', l."description"), 'B')
  || setweight(to_tsvector('english', array_to_string(l."tags" || l."capabilities", ' ')), 'C')
  || setweight(to_tsvector('english', coalesce((SELECT string_agg(t->>'name' || ' ' || replace(t->>'name', '_', ' ')
       || ' ' || coalesce(t->>'description', ''), ' ') FROM jsonb_array_elements(l."tools") t), '')), 'D')`;

/** Which version a skill lists: never a yanked one; a stable one before a pre-release; then the highest. */
export const LISTED_VERSION_SQL = `v."status" <> 'yanked'`;
export const LISTED_VERSION_ORDER_SQL = `(v."prerelease" IS NOT NULL), v."major" DESC, v."minor" DESC, v."patch" DESC, v."prerelease" DESC`;

/** A version as publish writes it: everything but the generated columns. */
export type NewVersion = Omit<
  SkillVersion,
  'id' | 'skill' | 'bundle' | 'status' | 'statusMessage' | 'statusChangedAt' | 'downloads' | 'createdAt'
>;

/** A skill whose name C10 compares new names against. */
export interface PopularSkill {
  /** `author/name`. */
  ref: string;
  owner: string;
}

@Injectable()
export class SkillRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** `author/name@version`, or the skill's listed version when `version` is omitted; null when there is none. */
  findVersion(
    author: string,
    name: string,
    version?: string,
    m: EntityManager = this.dataSource.manager,
  ): Promise<SkillVersion | null> {
    const qb = m
      .getRepository(SkillVersion)
      .createQueryBuilder('v')
      .innerJoin(Skill, 's', 's.id = v.skill_id')
      .innerJoin(Namespace, 'n', 'n.id = s.namespace_id')
      .where('n.slug = :author AND s.name = :name', { author, name });
    return (
      version ? qb.andWhere('v.version = :version', { version }) : qb.andWhere('v.id = s.latest_version_id')
    ).getOne();
  }

  versionById(id: string): Promise<SkillVersion | null> {
    return this.dataSource.manager.findOneBy(SkillVersion, { id });
  }

  findSkill(author: string, name: string): Promise<Skill | null> {
    return this.dataSource
      .getRepository(Skill)
      .createQueryBuilder('s')
      .innerJoin(Namespace, 'n', 'n.id = s.namespace_id')
      .where('n.slug = :author AND s.name = :name', { author, name })
      .getOne();
  }

  skillById(id: string): Promise<Skill | null> {
    return this.dataSource.manager.findOneBy(Skill, { id });
  }

  /** A skill's versions, highest first by their numeric parts (pre-releases are ordered by the caller). */
  versionsOf(skillId: string, limit: number): Promise<SkillVersion[]> {
    return this.dataSource.manager.find(SkillVersion, {
      where: { skillId },
      order: { major: 'DESC', minor: 'DESC', patch: 'DESC' },
      take: limit,
    });
  }

  /** The stored bytes of a bundle (content-addressed); throws when they are missing, which nothing allows. */
  /** The bundle's bytes, proven to hash to `sha256` (else CorruptBlobError, counted). */
  async bundleBytes(sha256: string): Promise<Buffer> {
    const blob = await this.dataSource
      .getRepository(Blob)
      .createQueryBuilder('b')
      .addSelect('b.content')
      .where('b.sha256 = :sha256', { sha256 })
      .getOneOrFail();
    return verifiedBlob(sha256, blob.content);
  }

  /** Creates the skill or touches it, and returns its id either way, in one statement. */
  async upsertSkill(m: EntityManager, namespaceId: string, name: string): Promise<string> {
    const upserted = await m
      .createQueryBuilder()
      .insert()
      .into(Skill)
      .values({ namespaceId, name })
      .orUpdate(['updated_at'], ['namespace_id', 'name'])
      .returning(['id'])
      .updateEntity(false)
      .execute();
    return (upserted.raw as Array<{ id: string }>)[0]!.id;
  }

  /** Stores bundle bytes once per digest. */
  async storeBundle(m: EntityManager, sha256: string, content: Buffer): Promise<void> {
    await m
      .createQueryBuilder()
      .insert()
      .into(Blob)
      .values({ sha256, size: content.length, content })
      .orIgnore()
      .execute();
  }

  /**
   * Inserts a version and moves its skill's listing; null when the (skill, version) already
   * exists: the unique index decides races, and the caller compares bytes with the row there.
   */
  async addVersion(m: EntityManager, version: NewVersion): Promise<string | null> {
    const inserted = await m
      .createQueryBuilder()
      .insert()
      .into(SkillVersion)
      .values(version)
      .orIgnore()
      .returning(['id'])
      .updateEntity(false)
      .execute();
    const id = (inserted.raw as Array<{ id: string }>)[0]?.id ?? null;
    if (id) await this.refreshListing(m, version.skillId);
    return id;
  }

  versionOf(m: EntityManager, skillId: string, version: string): Promise<SkillVersion> {
    return m.findOneByOrFail(SkillVersion, { skillId, version });
  }

  /** The owner's lifecycle change (deprecate, yank, reactivate); the skill lists what the new status allows. */
  async setStatus(
    m: EntityManager,
    version: SkillVersion,
    status: VersionStatus,
    message: string | null,
  ): Promise<void> {
    await m.update(SkillVersion, version.id, { status, statusMessage: message, statusChangedAt: new Date() });
    await this.refreshListing(m, version.skillId);
  }

  /**
   * Points a skill at the version it lists and rewrites its search document from that
   * version; a skill whose versions are all yanked lists nothing and is found by no search.
   */
  private async refreshListing(m: EntityManager, skillId: string): Promise<void> {
    await m.query(`UPDATE "skills" SET "latest_version_id" = NULL, "search_vector" = NULL WHERE "id" = $1`, [skillId]);
    await m.query(
      `UPDATE "skills" s SET "latest_version_id" = l."id", "search_vector" = ${SKILL_SEARCH_VECTOR_SQL}
       FROM (SELECT v.* FROM "skill_versions" v WHERE v."skill_id" = $1 AND ${LISTED_VERSION_SQL}
             ORDER BY ${LISTED_VERSION_ORDER_SQL} LIMIT 1) l
       WHERE s."id" = $1`,
      [skillId],
    );
  }

  /** Adds gathered download counts to versions and their skills, in one transaction. */
  async addDownloads(versions: ReadonlyMap<string, number>, skills: ReadonlyMap<string, number>): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await m.query(
        `UPDATE "skill_versions" v SET "downloads" = v."downloads" + d.n
         FROM unnest($1::uuid[], $2::bigint[]) AS d(id, n) WHERE v."id" = d.id`,
        [[...versions.keys()], [...versions.values()]],
      );
      await m.query(
        `UPDATE "skills" s SET "downloads" = s."downloads" + d.n
         FROM unnest($1::uuid[], $2::bigint[]) AS d(id, n) WHERE s."id" = d.id`,
        [[...skills.keys()], [...skills.values()]],
      );
    });
  }

  /** The most downloaded skills of other owners than `ownerId` (of every owner when it is null); never downloaded is not popular. */
  popular(ownerId: string | null, limit: number): Promise<PopularSkill[]> {
    return this.dataSource.query(
      `SELECT n."slug" || '/' || s."name" AS ref, n."slug" AS owner
       FROM "skills" s JOIN "namespaces" n ON n."id" = s."namespace_id"
       WHERE s."downloads" > 0 AND ($1::uuid IS NULL OR n."owner_id" <> $1::uuid)
       ORDER BY s."downloads" DESC LIMIT $2`,
      [ownerId, limit],
    );
  }
}
