import type { EntityManager } from 'typeorm';
import type { SkillRepository, SkillVersion } from '@skillhub/database';
import { SkillNotFoundError } from './skills.errors';
import { kazmaSkillId } from './skill-ref';

/** `author/name@version`, or the skill's listed version when `version` is omitted; 404 when there is none. */
export async function findVersion(
  skills: SkillRepository,
  author: string,
  name: string,
  version?: string,
  m?: EntityManager,
): Promise<SkillVersion> {
  const v = await skills.findVersion(author, name, version, m);
  if (!v) throw new SkillNotFoundError(kazmaSkillId(author, name, version));
  return v;
}
