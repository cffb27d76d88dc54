/**
 * C10 squatting: a name that could be taken for a popular skill or package of another owner is a
 * review finding. It does not fail basic (a name can be innocently alike) but blocks standard.
 */
import { isSkip, parsedSkill, type Check } from '../check';
import type { PopularName } from '../certification-input';
import { newFinding } from '../finding';
import { likeness, type Likeness } from './name-similarity';

/** Only the closest few are reported; one is enough to block standard. */
const MAX_REPORTED = 10;

export const squattingCheck: Check = {
  id: 'C10',
  decides: ['no_review_findings'],
  appliesToManifestOnly: true,
  run(input) {
    const skill = parsedSkill(input);
    if (isSkip(skill)) return skill;
    const own = input.namespace.slug.toLowerCase();
    const matches = input.popularNames
      // A ref in the publisher's own namespace is its own skill, not someone else's.
      .filter((popular) => namespaceOf(popular.ref) !== own && popular.owner.toLowerCase() !== own)
      .flatMap((popular) => {
        const alike = likeness(skill.name, nameOf(popular.ref));
        return alike ? [{ popular, alike }] : [];
      })
      .sort((a, b) => rank(a.alike) - rank(b.alike) || compareRefs(a.popular, b.popular))
      .slice(0, MAX_REPORTED);
    const findings = matches.map(({ popular, alike }) =>
      newFinding({
        check: 'C10',
        code: 'similar-name',
        severity: 'medium',
        file: skill.manifestPath,
        message: `The name '${skill.name}' ${describe(alike)} '${popular.ref}', a popular skill or package of another owner, and could be mistaken for it.`,
        fixHint:
          "Choose a name that cannot be taken for another owner's; if that skill is yours, publish under its namespace. A reviewer can clear this finding.",
      }),
    );
    return { findings, requirements: { no_review_findings: findings.length === 0 } };
  },
};

const compareRefs = (a: PopularName, b: PopularName): number => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0);

const nameOf = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);

/** `acme/x` → `acme`; `@scope/x` → `scope`; a bare package name has none. */
const namespaceOf = (ref: string): string | null =>
  ref.includes('/') ? ref.slice(0, ref.lastIndexOf('/')).replace(/^@/, '').toLowerCase() : null;

const rank = (alike: Likeness): number => (alike.kind === 'near' ? alike.distance + 1 : alike.kind === 'same' ? 0 : 1);

function describe(alike: Likeness): string {
  if (alike.kind === 'same') return 'is the same as the name of';
  if (alike.kind === 'confusable') return 'is spelled confusably like';
  return `is ${alike.distance} edit${alike.distance === 1 ? '' : 's'} away from`;
}
