/**
 * C10 squatting: names people read (the author as written, the namespace, the skill's name and
 * display name, tool and server names). One that mixes scripts in a word ("Acmе Labs" with a
 * Cyrillic е) or is a pure lookalike of another owner's popular name or namespace fails; one that
 * is the same as, or a few edits from, such a name is a review finding (it can be innocent) that
 * blocks standard.
 */
import type { Bundle } from '@skillhub/bundle';
import { mixedScript, plainName, quoteForMessage } from '@skillhub/text-analysis';
import { isSkip, parsedSkill, type Check } from '../check';
import type { PopularName } from '../certification-input';
import { newFinding, type Finding } from '../finding';
import { lineOfFirstMatch } from '../scanned-text';
import {
  describeLikeness,
  likeness,
  likenessRank,
  likenessSeverity,
  namesPeopleRead,
  type Likeness,
  type ReadName,
} from './name-similarity';
import { escapeRegExp } from './server-location';

/** Only the closest few likenesses are reported; one is enough to block standard. */
const MAX_REPORTED = 10;

export const squattingCheck: Check = {
  id: 'C10',
  decides: ['no_review_findings'],
  appliesToManifestOnly: true,
  run(input) {
    const skill = parsedSkill(input);
    if (isSkip(skill)) return skill;
    const names = namesPeopleRead(skill, input.liveServers);
    const own = input.namespace.slug.toLowerCase();
    // A ref in the publisher's own namespace is its own skill, not someone else's.
    const others = input.popularNames.filter(
      (popular) => namespaceOf(popular.ref) !== own && popular.owner.toLowerCase() !== own,
    );
    const findings = [
      ...names.flatMap((name) => mixedScriptFinding(input.bundle, name)),
      ...similarNames(
        input.bundle,
        [...names, { role: 'namespace', value: input.namespace.slug, file: skill.manifestPath }],
        others,
      ),
    ];
    return { findings, requirements: { no_review_findings: findings.length === 0 } };
  },
};

function mixedScriptFinding(bundle: Bundle, name: ReadName): Finding[] {
  const mixed = mixedScript(name.value);
  if (!mixed) return [];
  return [
    newFinding({
      check: 'C10',
      code: 'mixed-script',
      severity: 'high',
      file: name.file,
      line: lineOf(bundle, name),
      message: `The ${name.role} '${shown(name.value)}' mixes ${mixed.scripts.join(' and ')} letters in the word '${shown(mixed.word)}', so it can pass for a name it is not.`,
      fixHint:
        'Write each word of the name in one script (retype the lookalike letters); a name that mixes scripts within a word is never certified.',
    }),
  ];
}

interface Match {
  name: ReadName;
  /** What it is like: a popular skill's ref, or another owner's namespace. */
  target: string;
  targetKind: 'skill' | 'namespace';
  alike: Likeness;
}

/** The skill's name and display name against popular skills; its author and namespace against other namespaces. */
function similarNames(bundle: Bundle, names: ReadName[], others: PopularName[]): Finding[] {
  const skillNames = names.filter((name) => name.role === 'name' || name.role === 'display name');
  const authors = names.filter((name) => name.role === 'author' || name.role === 'namespace');
  const owners = [...new Set(others.flatMap((popular) => [popular.owner, namespaceOf(popular.ref) ?? popular.owner]))];
  const matches: Match[] = [
    ...skillNames.flatMap((name) =>
      others.flatMap((popular) => {
        // The same name in another namespace is another skill (`acme/pdf`, `anthropic/pdf`): the
        // namespace tells them apart, and is judged against other namespaces below.
        const alike = likeness(name.value, nameOf(popular.ref));
        return alike && alike.kind !== 'same'
          ? [{ name, target: popular.ref, targetKind: 'skill' as const, alike }]
          : [];
      }),
    ),
    ...authors.flatMap((name) =>
      owners.flatMap((owner) => {
        const alike = likeness(name.value, owner);
        return alike ? [{ name, target: owner, targetKind: 'namespace' as const, alike }] : [];
      }),
    ),
  ];
  // An author that slugifies to the namespace is one name, reported once.
  const seen = new Set<string>();
  return matches
    .sort((a, b) => likenessRank(a.alike) - likenessRank(b.alike) || compareText(a.target, b.target))
    .filter(({ name, target }) => {
      const key = `${plainName(name.value)} ${target}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_REPORTED)
    .map(({ name, target, targetKind, alike }) => {
      const severity = likenessSeverity(alike);
      const whose =
        targetKind === 'skill'
          ? `'${target}', a popular skill or package of another owner`
          : `the namespace '${target}' of another owner`;
      return newFinding({
        check: 'C10',
        code: severity === 'high' ? 'confusable-name' : 'similar-name',
        severity,
        file: name.file,
        line: lineOf(bundle, name),
        message: `The ${name.role} '${shown(name.value)}' ${describeLikeness(alike)} ${whose}, and could be mistaken for it.`,
        fixHint:
          severity === 'high'
            ? "Choose a name that does not imitate another owner's: one spelled with lookalike letters or digits is never certified. If that name is yours, publish under its namespace."
            : "Choose a name that cannot be taken for another owner's; if that skill is yours, publish under its namespace. A reviewer can clear this finding.",
      });
    });
}

/** The first line of the name's file that shows it. */
const lineOf = (bundle: Bundle, name: ReadName): number | null =>
  lineOfFirstMatch(bundle, name.file, new RegExp(escapeRegExp(name.value)));

/** The name as quoted in a message: invisible characters spelled out. */
const shown = (name: string): string => quoteForMessage(name).slice(1, -1);

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const nameOf = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);

/** `acme/x` → `acme`; `@scope/x` → `scope`; a bare package name has none. */
const namespaceOf = (ref: string): string | null =>
  ref.includes('/') ? ref.slice(0, ref.lastIndexOf('/')).replace(/^@/, '').toLowerCase() : null;
