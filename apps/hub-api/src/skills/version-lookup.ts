import type { EntityManager } from 'typeorm';
import { Namespace, Skill, SkillVersion } from '@skillhub/database';
import { SkillNotFoundError } from './skills.errors';
import { kazmaSkillId } from './skill-ref';

/** `author/name@version`, or the skill's listed version when `version` is omitted; 404 when there is none. */
export async function findVersion(
  m: EntityManager,
  author: string,
  name: string,
  version?: string,
): Promise<SkillVersion> {
  const qb = m
    .getRepository(SkillVersion)
    .createQueryBuilder('v')
    .innerJoin(Skill, 's', 's.id = v.skill_id')
    .innerJoin(Namespace, 'n', 'n.id = s.namespace_id')
    .where('n.slug = :author AND s.name = :name', { author, name });
  const v = await (
    version ? qb.andWhere('v.version = :version', { version }) : qb.andWhere('v.id = s.latest_version_id')
  ).getOne();
  if (!v) throw new SkillNotFoundError(kazmaSkillId(author, name, version));
  return v;
}
