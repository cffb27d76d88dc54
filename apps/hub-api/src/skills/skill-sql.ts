/** SQL the write side shares: which version a skill lists, and that version's search document. */
import type { EntityManager } from 'typeorm';

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

/**
 * Points a skill at the version it lists and rewrites its search document from that
 * version; a skill whose versions are all yanked lists nothing and is found by no search.
 */
export async function refreshListing(m: EntityManager, skillId: string): Promise<void> {
  await m.query(`UPDATE "skills" SET "latest_version_id" = NULL, "search_vector" = NULL WHERE "id" = $1`, [skillId]);
  await m.query(
    `UPDATE "skills" s SET "latest_version_id" = l."id", "search_vector" = ${SKILL_SEARCH_VECTOR_SQL}
     FROM (SELECT v.* FROM "skill_versions" v WHERE v."skill_id" = $1 AND ${LISTED_VERSION_SQL}
           ORDER BY ${LISTED_VERSION_ORDER_SQL} LIMIT 1) l
     WHERE s."id" = $1`,
    [skillId],
  );
}
