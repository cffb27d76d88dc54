/**
 * Names people read (authors, skill and tool names): whether one mixes scripts in a word (a
 * Cyrillic `е` in "Acmе"), its confusable skeleton (Unicode TR39's idea: what it looks like,
 * written in plain Latin), and how alike two names look.
 */
import { normalizeText } from './normalize';

/** Separators a reader skips over when comparing names. */
const SEPARATORS = /[\s\-_.·'"|/]+/g;

/** NFKC, lower case, separators dropped: "Web_Search" and "web-search" are the same name. */
export const plainName = (name: string): string => name.normalize('NFKC').toLowerCase().replace(SEPARATORS, '');

/**
 * What a name looks like, in plain Latin: lookalike letters folded, accents dropped, separators
 * dropped, and the ASCII confusions of names: 0/o, 1/l/i, rn/m, vv/w.
 */
export function skeleton(name: string): string {
  return normalizeText(name)
    .text.replace(SEPARATORS, '')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w')
    .replace(/0/g, 'o')
    .replace(/[1i]/g, 'l');
}

export interface MixedScript {
  /** The word that mixes scripts, as written. */
  word: string;
  /** The scripts it mixes, e.g. ['Latin', 'Cyrillic']. */
  scripts: string[];
}

/** Scripts a name is written in; letters of others count as 'Other'. */
// prettier-ignore
const SCRIPTS = [
  'Latin', 'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Devanagari', 'Bengali',
  'Gurmukhi', 'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan',
  'Myanmar', 'Georgian', 'Hangul', 'Ethiopic', 'Cherokee', 'Canadian_Aboriginal', 'Ogham', 'Runic', 'Khmer',
  'Mongolian', 'Hiragana', 'Katakana', 'Bopomofo', 'Han', 'Yi', 'Coptic', 'Glagolitic', 'Tifinagh', 'Vai', 'Lisu',
  'Osage', 'Adlam', 'Nko', 'Deseret', 'Gothic', 'Old_Italic',
].map((script) => ({ script, pattern: new RegExp(`^\\p{Script=${script}}$`, 'u') }));

/** Scripts written together in one word (TR39's "highly restrictive" level: Japanese, Chinese, Korean with Latin). */
const ALLOWED_TOGETHER: readonly ReadonlySet<string>[] = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

const LETTER = /^\p{L}$/u;

/**
 * The first word of `name` whose letters come from scripts that are not written together, or
 * null. Fullwidth or mathematical letters next to plain ones of the same script count as a
 * script of their own ("Ａcme"), since they too are there to look like something else.
 */
export function mixedScript(name: string): MixedScript | null {
  for (const word of name.split(/[^\p{L}\p{M}\p{N}]+/u)) {
    const scripts = new Set<string>();
    for (const character of word) {
      if (!LETTER.test(character)) continue;
      const plain = character.normalize('NFKC');
      const script = scriptOf(LETTER.test(plain) ? plain : character);
      if (script === null) continue;
      scripts.add(plain === character ? script : `${script} (compatibility form)`);
    }
    if (!singleScript(scripts)) return { word, scripts: [...scripts] };
  }
  return null;
}

function scriptOf(character: string): string | null {
  if (/^[\p{Script=Common}\p{Script=Inherited}]$/u.test(character)) return null;
  return SCRIPTS.find(({ pattern }) => pattern.test(character))?.script ?? 'Other';
}

function singleScript(scripts: ReadonlySet<string>): boolean {
  if (scripts.size <= 1) return true;
  const plain = [...scripts].map((script) => script.replace(' (compatibility form)', ''));
  // The same script in plain and compatibility forms is a mix; a compatibility form of one script beside another is not ("Ｗｅｂ検索").
  if (new Set(plain).size < plain.length) return false;
  return ALLOWED_TOGETHER.some((allowed) => plain.every((script) => allowed.has(script)));
}

export type NameLikeness = { kind: 'same' } | { kind: 'confusable' } | { kind: 'near'; distance: number };

export interface NameComparison {
  /** Shorter skeletons are compared only for confusability: two edits turn `git` into `gh`. Default 5. */
  minLengthForDistance?: number;
  /** Default 2. */
  maxDistance?: number;
}

/** Longer names are cut before comparing: the cost is quadratic, and no name people read is this long. */
const MAX_COMPARED_LENGTH = 128;

/**
 * How alike two names look: 'same' when they are one name written differently (case, separators),
 * 'confusable' when they differ only by lookalikes (the same skeleton), 'near' when their skeletons
 * are at most `maxDistance` edits apart; null when they are not alike.
 */
export function compareNames(a: string, b: string, options: NameComparison = {}): NameLikeness | null {
  const { minLengthForDistance = 5, maxDistance = 2 } = options;
  const [x, y] = [a, b].map((name) => name.slice(0, MAX_COMPARED_LENGTH));
  if (plainName(x as string) === plainName(y as string)) return { kind: 'same' };
  const [p, q] = [skeleton(x as string), skeleton(y as string)];
  if (p === q) return { kind: 'confusable' };
  if (Math.min(p.length, q.length) < minLengthForDistance) return null;
  const distance = editDistance(p, q);
  return distance <= maxDistance ? { kind: 'near', distance } : null;
}

/** Edit distance where swapping two neighbours is one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  // Rows i-2, i-1 and i of the usual matrix are all that is needed.
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (before[j - 2] as number) + 1);
      }
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}
