/** SQL the write side shares: the search document of a version and the choice of a skill's latest version. */
import type { NormalizedSkill } from '@skillhub/skill-formats';

/**
 * The weighted full-text document of a version (see libs/search for the ranking rule).
 * Hyphens and underscores are also split, so `get_weather` and `weather-now` match `weather`.
 */
export const SEARCH_VECTOR_SQL = `setweight(to_tsvector('english', :svName || ' ' || replace(:svName, '-', ' ')), 'A')
  || setweight(to_tsvector('english', :svDescription), 'B')
  || setweight(to_tsvector('english', :svTerms), 'C')
  || setweight(to_tsvector('english', :svTools), 'D')`;

export const searchVectorParams = (skill: NormalizedSkill) => ({
  svName: skill.name,
  svDescription: skill.description,
  svTerms: [...skill.tags, ...skill.capabilities].join(' '),
  svTools: skill.tools.map((t) => `${t.name} ${t.name.replace(/_/g, ' ')} ${t.description}`).join(' '),
});

/** Points a skill at its highest stable version not yanked, else its highest not yanked, else its highest. */
export const REFRESH_LATEST_VERSION_SQL = `UPDATE "skills" s SET "latest_version_id" = (
    SELECT v."id" FROM "skill_versions" v WHERE v."skill_id" = s."id"
    ORDER BY (v."status" = 'yanked'), (v."prerelease" IS NOT NULL), v."major" DESC, v."minor" DESC, v."patch" DESC, v."prerelease" DESC
    LIMIT 1)
  WHERE s."id" = $1`;
