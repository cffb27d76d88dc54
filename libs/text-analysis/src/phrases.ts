/**
 * The phrase tables of languages.ts, compiled and matched on normalised text. A match counts
 * unless a negation of its language governs it: before it in its clause ("n'ignorez jamais"),
 * between its parts ("ignoriere niemals die vorherigen Anweisungen") or right after it in the
 * languages that negate there ("無視しないで"); so does a modal verb before it ("the tool can
 * reveal …" describes). A phrase that holds a negation itself ("ne dites pas à l'utilisateur") is
 * a negative instruction, not a negated one. Sending the conversation or secrets counts only with
 * an address in the sentence.
 */
import { LANGUAGES, type Language, type PhraseClass } from './languages';
import { normalizeText } from './normalize';

export interface PhraseMatch {
  class: PhraseClass;
  language: string;
  /** Offsets in the normalised text. */
  start: number;
  end: number;
}

interface Compiled {
  class: PhraseClass;
  pattern: RegExp;
}

/** Phrases with the same first word, tried where it is. */
interface Group {
  /** Sticky, the first word alone: a cheap test before the phrases' own. */
  first: RegExp;
  /** Sticky. */
  phrases: readonly Compiled[];
}

interface CompiledLanguage {
  language: Language;
  /** Where a phrase can start: the first words of all of them, found in one pass. */
  anchor: RegExp;
  groups: readonly Group[];
  before: RegExp;
  inside: RegExp;
  after: RegExp | null;
}

/**
 * Letters and digits of the tables' scripts, as normalised. Spelled out rather than `\p{L}`:
 * expressions without the `u` flag scan several times faster in V8.
 */
const LETTER =
  'a-z0-9\u00c0-\u024f\u0370-\u052f\u0600-\u06ff\u0900-\u09ff\u1100-\u11ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af';
const WORD_START = `(?<![${LETTER}])`;
const WORD_END = `(?![${LETTER}])`;
/** Between two words: anything but a letter, a digit, a sentence end or a blank line. */
const SEPARATOR_CHAR = `(?:[^${LETTER}.!?。\n]|\n(?!\n))`;
/** Inside a sentence. */
const SENTENCE_CHAR = String.raw`(?:[^.!?。\n]|\n(?!\n))`;
/** How far apart the parts of a phrase may be, in characters (fewer where a character is a word). */
const SPACED_GAP = 48;
const UNSPACED_GAP = 16;
/** How far before a phrase a negation reaches. */
const SPACED_NEGATION_REACH = 24;
const UNSPACED_NEGATION_REACH = 6;
/** How far after a phrase a negation that follows it reaches ("無視しないで", "… Anweisungen nicht"). */
const AFTER_REACH = 12;
/** Room for the negation word itself, on top of its reach. */
const NEGATION_WORD = 16;
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A literal of the notation, normalised as the text is. */
const literal = (text: string): string => escapeRegExp(normalizeText(text).text);

/** Where a secret or the conversation would go: an address, or a URL or link named. */
const DESTINATION = new RegExp(
  String.raw`https?://|www\.|[a-z0-9._%+-]+@[a-z0-9-]+\.[a-z]{2,}|${WORD_START}(?:${['url', 'link', 'endpoint', 'lien', 'enlace', 'ссылк', '链接', '鏈接', '网址', '網址', 'リンク', '링크', 'رابط'].map(literal).join('|')})`,
);

/** The notation of languages.ts as a regular expression; each `…` is a capturing group. */
function compilePhrase(notation: string, spaced: boolean): string {
  const source = notation.replace(/ *… */g, '…');
  let at = 0;
  const sequence = (): string => {
    let out = '';
    let pending = '';
    const flush = (): void => {
      if (pending !== '') out += literal(pending);
      pending = '';
    };
    while (at < source.length && source[at] !== '|' && source[at] !== ')') {
      const character = source[at++] as string;
      if (character === '(') {
        flush();
        const alternatives = [sequence()];
        while (source[at] === '|') {
          at++;
          alternatives.push(sequence());
        }
        at++;
        const optional = source[at] === '?';
        if (optional) at++;
        out += `(?:${alternatives.join('|')})${optional ? '?' : ''}`;
      } else if (character === ' ') {
        flush();
        out += spaced ? `${SEPARATOR_CHAR}{1,6}` : `${SEPARATOR_CHAR}{0,3}`;
      } else if (character === '…') {
        flush();
        out += spaced
          ? `(${SENTENCE_CHAR}{0,${SPACED_GAP}}?${SEPARATOR_CHAR})`
          : `(${SENTENCE_CHAR}{0,${UNSPACED_GAP}}?)`;
      } else if (character === '?') {
        throw new Error(`"?" makes a group optional, not a character: ${notation}`);
      } else if (character === '#') {
        flush();
        out += WORD_END;
      } else pending += character;
    }
    flush();
    return out;
  };
  return sequence();
}

/** One of `words`, as whole words where the language spaces them. */
function wordsPattern(words: readonly string[], spaced: boolean): string {
  const alternatives = words.map((word) => {
    const compiled = compilePhrase(word, spaced);
    return spaced ? `${WORD_START}${compiled}${word.endsWith("'") ? '' : WORD_END}` : compiled;
  });
  return `(?:${alternatives.join('|')})`;
}

/** The notation up to its first separator or gap outside parentheses: the phrase's first word. */
function firstWord(notation: string): string {
  let depth = 0;
  for (let at = 0; at < notation.length; at++) {
    const character = notation[at];
    if (character === '(') depth++;
    else if (character === ')') depth--;
    else if (depth === 0 && (character === ' ' || character === '…')) return notation.slice(0, at);
  }
  return notation;
}

const COMPILED: readonly CompiledLanguage[] = LANGUAGES.map((language) => {
  const { spaced } = language;
  const negationOrModal = wordsPattern([...language.negations, ...(language.descriptive ?? [])], spaced);
  const reach = spaced ? SPACED_NEGATION_REACH : UNSPACED_NEGATION_REACH;
  const notations = Object.entries(language.phrases).flatMap(([name, list]) =>
    list.map((notation) => ({ name: name as PhraseClass, notation })),
  );
  const start = spaced ? WORD_START : '';
  const groups = new Map<string, Compiled[]>();
  for (const { name, notation } of notations) {
    const first = compilePhrase(firstWord(notation), spaced);
    const pattern = new RegExp(`${start}${compilePhrase(notation, spaced)}`, 'y');
    groups.set(first, [...(groups.get(first) ?? []), { class: name, pattern }]);
  }
  return {
    language,
    anchor: new RegExp(`${start}(?:${[...groups.keys()].join('|')})`, 'g'),
    groups: [...groups].map(([first, phrases]) => ({ first: new RegExp(`${start}${first}`, 'y'), phrases })),
    before: new RegExp(`${negationOrModal}(?:${SENTENCE_CHAR}{0,${reach}})$`),
    inside: new RegExp(wordsPattern([...language.negations, ...(language.negationsAfter ?? [])], spaced)),
    after: language.negationsAfter
      ? new RegExp(`^${SENTENCE_CHAR}{0,${AFTER_REACH}}?${wordsPattern(language.negationsAfter, spaced)}`)
      : null,
  };
});

/** Phrases of every language whose script `text` holds (Latin-script languages always). */
export function findPhrases(text: string): PhraseMatch[] {
  const found: PhraseMatch[] = [];
  for (const compiled of COMPILED) {
    const { language } = compiled;
    if (language.script && !language.script.test(text)) continue;
    for (const { index: start } of text.matchAll(compiled.anchor)) {
      for (const phrase of phrasesAt(compiled, text, start)) {
        phrase.pattern.lastIndex = start;
        const match = phrase.pattern.exec(text);
        if (!match) continue;
        const end = start + match[0].length;
        if (negated(compiled, text, match)) continue;
        if (phrase.class === 'exfiltrate' && !DESTINATION.test(sentenceAround(text, start, end))) continue;
        found.push({ class: phrase.class, language: language.name, start, end });
      }
    }
  }
  return found;
}

/** The phrases whose first word is at `start`. */
function phrasesAt(compiled: CompiledLanguage, text: string, start: number): Compiled[] {
  return compiled.groups.flatMap((group) => {
    group.first.lastIndex = start;
    return group.first.test(text) ? group.phrases : [];
  });
}

/** Whether a negation of the phrase's language governs the match (see the top of the file). */
function negated(compiled: CompiledLanguage, text: string, match: RegExpExecArray): boolean {
  const gaps = match.slice(1).filter((gap): gap is string => gap !== undefined);
  if (gaps.some((gap) => compiled.inside.test(gap))) return true;
  // "Ne dites pas à l'utilisateur": the negation is the instruction.
  if (compiled.inside.test(match[0])) return false;
  const end = match.index + match[0].length;
  if (compiled.after?.test(text.slice(end, end + AFTER_REACH + NEGATION_WORD))) return true;
  const start = match.index;
  const before = text.slice(Math.max(0, start - SPACED_NEGATION_REACH - NEGATION_WORD), start);
  // Its own clause: "si no funciona, ignora …" is not negated by the "no" of another one.
  const clause = before.slice(before.search(/[^.!?。\n,;:、，；：]*$/));
  return compiled.before.test(clause);
}

/** The sentence around `[start, end)`, at most 200 characters each side. */
function sentenceAround(text: string, start: number, end: number): string {
  const before = text.slice(Math.max(0, start - 200), start);
  const after = text.slice(end, end + 200);
  const from = Math.max(before.lastIndexOf('\n\n'), before.search(/[.!?。]\s[^.!?。]*$/));
  const to = after.search(/[.!?。]\s|\n\n/);
  return before.slice(from + 1) + text.slice(start, end) + (to === -1 ? after : after.slice(0, to));
}
