/**
 * Text a person reviewing a skill cannot see but a model reads: invisible and format characters,
 * text smuggled in Unicode tag characters or variation selectors, terminal escape sequences and
 * control characters. Each run of one kind is one finding; smuggled text is decoded so the
 * message can show what was hidden.
 */

export type HiddenKind =
  | 'zero-width'
  | 'bidi-control'
  | 'tag'
  | 'variation-selector'
  | 'hangul-filler'
  | 'braille-blank'
  | 'invisible-format'
  | 'line-separator'
  | 'space-padding'
  | 'private-use'
  | 'escape-sequence'
  | 'control-character'
  | 'lone-surrogate';

export interface HiddenText {
  kind: HiddenKind;
  /** UTF-16 offset of the run in the text. */
  index: number;
  /** UTF-16 length of the run. */
  length: number;
  /** The run's distinct code points, in order of appearance. */
  codePoints: readonly number[];
  /** How many code points the run holds. */
  count: number;
  /** What tag characters or variation selectors spell, when they spell something; else null. */
  decoded: string | null;
  /** What an escape sequence does on a terminal ("conceals the text after it"); else null. */
  effect: string | null;
}

export interface HiddenTextOptions {
  /** Form feeds are page breaks in text and source files (not in a one-line field). */
  allowFormFeed?: boolean;
  /** A byte-order mark at offset 0 is how some editors start a UTF-8 file. */
  allowLeadingBom?: boolean;
}

/** Singular names of the kinds, as messages use them. */
export const HIDDEN_KIND_NAMES: Readonly<Record<HiddenKind, string>> = {
  'zero-width': 'zero-width character',
  'bidi-control': 'bidirectional control character',
  tag: 'Unicode tag character',
  'variation-selector': 'variation selector',
  'hangul-filler': 'Hangul filler',
  'braille-blank': 'blank Braille pattern',
  'invisible-format': 'invisible format character',
  'line-separator': 'line or paragraph separator',
  'space-padding': 'run of wide or non-breaking spaces',
  'private-use': 'private-use character',
  'escape-sequence': 'terminal escape sequence',
  'control-character': 'control character',
  'lone-surrogate': 'unpaired surrogate',
};

/**
 * Every character that may start a finding. Spaces other than U+0020 are here for padding runs;
 * Default_Ignorable_Code_Point is Unicode's own list of what renders as nothing.
 */
const CANDIDATE =
  /(?![\t\n])[\p{Cc}\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000\u2028\u2029\u2800\u115F\u1160\u3164\uFFA0\p{DI}\p{Cf}\p{Co}\p{Cs}]/gu;

const ZERO_WIDTH = /^[\u00AD\u180E\u200B-\u200D\u2060-\u2064\uFEFF]$/u;
const BIDI_CONTROL = /^[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]$/u;
const SPACE = /^[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]$/u;
const HANGUL_FILLER = /^[\u115F\u1160\u3164\uFFA0]$/u;
const EMOJI = /^\p{Emoji}$/u;
const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
const EMOJI_MODIFIER = /^\p{Emoji_Modifier}$/u;
/** Scripts whose spelling needs ZWJ/ZWNJ between letters (Persian, Indic conjuncts). */
const JOINING_SCRIPT =
  /^[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Khmer}\p{Script=Myanmar}]$/u;

/** A run of fewer wide spaces than this is typography (CJK indentation, `&nbsp;` pairs), not padding. */
const MIN_PADDING_RUN = 4;
const ESC = 0x1b;
const BLACK_FLAG = 0x1f3f4;
/** The subdivision flags (England, Scotland, Wales) are the only tag sequences real text carries. */
const FLAG_TAGS = new Set(['gbeng', 'gbsct', 'gbwls']);
/** Escape sequences longer than this are cut: a terminal string can hide as much as it likes. */
const MAX_SEQUENCE = 4096;
const MAX_LISTED_CODE_POINTS = 8;

export function findHiddenText(text: string, options: HiddenTextOptions = {}): HiddenText[] {
  const found: HiddenText[] = [];
  let run: Run | null = null;
  const close = (): void => {
    if (run && keep(run, text)) found.push(finish(run));
    run = null;
  };
  CANDIDATE.lastIndex = 0;
  for (let match = CANDIDATE.exec(text); match; match = CANDIDATE.exec(text)) {
    const index = match.index;
    const codePoint = match[0].codePointAt(0) as number;
    const sequence = escapeSequenceAt(text, index);
    if (sequence) {
      close();
      found.push({
        ...finish(newRun('escape-sequence', index, codePoint)),
        length: sequence.length,
        effect: sequence.effect,
      });
      CANDIDATE.lastIndex = index + sequence.length;
      continue;
    }
    const kind = kindAt(text, index, codePoint, options);
    if (kind === null) {
      close();
      continue;
    }
    if (run && run.kind === kind && run.end === index) {
      run.codePoints.push(codePoint);
      run.end = index + match[0].length;
    } else {
      close();
      run = newRun(kind, index, codePoint);
    }
  }
  close();
  return found;
}

interface Run {
  kind: HiddenKind;
  index: number;
  end: number;
  codePoints: number[];
}

const newRun = (kind: HiddenKind, index: number, codePoint: number): Run => ({
  kind,
  index,
  end: index + (codePoint > 0xffff ? 2 : 1),
  codePoints: [codePoint],
});

function finish(run: Run): HiddenText {
  return {
    kind: run.kind,
    index: run.index,
    length: run.end - run.index,
    codePoints: [...new Set(run.codePoints)],
    count: run.codePoints.length,
    decoded: decode(run),
    effect: null,
  };
}

/** Runs that real text carries and a reader sees for what they are. */
function keep(run: Run, text: string): boolean {
  if (run.kind === 'space-padding') return run.codePoints.length >= MIN_PADDING_RUN;
  const before = run.index > 0 ? codePointBefore(text, run.index) : null;
  if (run.kind === 'variation-selector') {
    // ❤️ and 1️⃣: one emoji or text presentation selector after a character that has both.
    const [only] = run.codePoints;
    const presentation = run.codePoints.length === 1 && (only === 0xfe0f || only === 0xfe0e);
    return !(presentation && before !== null && EMOJI.test(String.fromCodePoint(before)));
  }
  if (run.kind === 'tag') {
    const spelled = run.codePoints.map((codePoint) => String.fromCharCode(codePoint - 0xe0000)).join('');
    const flag = before === BLACK_FLAG && spelled.endsWith('\x7f') && FLAG_TAGS.has(spelled.slice(0, -1));
    return !flag;
  }
  return true;
}

function kindAt(text: string, index: number, codePoint: number, options: HiddenTextOptions): HiddenKind | null {
  const character = String.fromCodePoint(codePoint);
  if (codePoint <= 0x9f) {
    if (codePoint === 0x0d) return text.charCodeAt(index + 1) === 0x0a ? null : 'control-character';
    if (codePoint === 0x0c && options.allowFormFeed) return null;
    return 'control-character';
  }
  if (codePoint === 0xfeff && index === 0 && options.allowLeadingBom) return null;
  if ((codePoint === 0x200c || codePoint === 0x200d) && joinerInContext(text, index, codePoint)) return null;
  if (ZERO_WIDTH.test(character)) return 'zero-width';
  if (BIDI_CONTROL.test(character)) return 'bidi-control';
  if (codePoint >= 0xe0000 && codePoint <= 0xe007f) return 'tag';
  if ((codePoint >= 0xfe00 && codePoint <= 0xfe0f) || (codePoint >= 0xe0100 && codePoint <= 0xe01ef)) {
    return 'variation-selector';
  }
  if (HANGUL_FILLER.test(character)) return 'hangul-filler';
  if (codePoint === 0x2800) return 'braille-blank';
  if (codePoint === 0x2028 || codePoint === 0x2029) return 'line-separator';
  if (SPACE.test(character)) return 'space-padding';
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return 'lone-surrogate';
  if (/^\p{Co}$/u.test(character)) return 'private-use';
  return 'invisible-format';
}

/** ZWJ inside an emoji sequence (👩‍💻), or ZWJ/ZWNJ between letters of a script that spells with them. */
function joinerInContext(text: string, index: number, codePoint: number): boolean {
  let before = index > 0 ? codePointBefore(text, index) : null;
  let at = index;
  // Skip back over the selectors and skin tones that sit between an emoji and the joiner.
  while (before !== null && (before === 0xfe0f || EMOJI_MODIFIER.test(String.fromCodePoint(before)))) {
    at -= before > 0xffff ? 2 : 1;
    before = at > 0 ? codePointBefore(text, at) : null;
  }
  const after = text.codePointAt(index + 1);
  if (before === null || after === undefined) return false;
  const [b, a] = [String.fromCodePoint(before), String.fromCodePoint(after)];
  if (codePoint === 0x200d && PICTOGRAPHIC.test(b) && PICTOGRAPHIC.test(a)) return true;
  return JOINING_SCRIPT.test(b) && JOINING_SCRIPT.test(a);
}

function codePointBefore(text: string, index: number): number {
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(index - 2) as number;
  }
  return low;
}

/** Tag characters spell ASCII; variation selectors carry one byte each (FE00–FE0F: 0–15, E0100–E01EF: 16–255). */
function decode(run: Run): string | null {
  if (run.kind === 'tag') {
    const spelled = run.codePoints
      .filter((codePoint) => codePoint >= 0xe0020 && codePoint <= 0xe007e)
      .map((codePoint) => String.fromCharCode(codePoint - 0xe0000))
      .join('');
    return spelled === '' ? null : spelled;
  }
  if (run.kind === 'variation-selector' && run.codePoints.length > 1) {
    const bytes = run.codePoints.map((codePoint) =>
      codePoint <= 0xfe0f ? codePoint - 0xfe00 : codePoint - 0xe0100 + 16,
    );
    const spelled = new TextDecoder('utf-8').decode(Uint8Array.from(bytes));
    return /[\p{L}\p{N}]/u.test(spelled) ? spelled : null;
  }
  return null;
}

export interface EscapeSequence {
  length: number;
  effect: string;
}

// C1 forms of the introducers (CSI, OSC, DCS, SOS, PM, APC) and their ESC-letter spellings.
const C1_INTRODUCERS: Readonly<Record<number, string>> = {
  0x9b: '[',
  0x9d: ']',
  0x90: 'P',
  0x98: 'X',
  0x9e: '^',
  0x9f: '_',
};

/** An ECMA-48 escape sequence starting at `index` (ESC, or a C1 introducer), or null. */
export function escapeSequenceAt(text: string, index: number): EscapeSequence | null {
  const first = text.charCodeAt(index);
  let introducer: string;
  let start: number;
  if (first === ESC) {
    introducer = text[index + 1] ?? '';
    start = index + 2;
  } else if (C1_INTRODUCERS[first] !== undefined) {
    introducer = C1_INTRODUCERS[first];
    start = index + 1;
  } else {
    return null;
  }
  if (introducer === '[') return controlSequence(text, index, start);
  if (introducer !== '' && ']PX^_'.includes(introducer)) return commandString(text, index, start, introducer);
  if (first !== ESC) return null;
  // ESC, intermediates (SP to /), one final byte: resets, cursor saves, character set changes.
  const two = /^[\x20-\x2f]*[\x30-\x7e]/.exec(text.slice(start - 1, start + 15));
  if (!two) return { length: 1, effect: 'starts a terminal escape sequence' };
  const effect =
    two[0] === 'c'
      ? 'resets the terminal'
      : two[0] === '7' || two[0] === '8'
        ? 'saves or restores the cursor'
        : 'controls the terminal';
  return { length: 1 + two[0].length, effect };
}

function controlSequence(text: string, index: number, start: number): EscapeSequence {
  const body = /^([\x30-\x3f]*)[\x20-\x2f]*([\x40-\x7e])?/.exec(text.slice(start, start + 64)) as RegExpExecArray;
  const [whole, parameters = '', final] = body;
  return { length: start - index + whole.length, effect: controlEffect(parameters, final) };
}

function controlEffect(parameters: string, final: string | undefined): string {
  if (final === 'm') {
    const codes = parameters.split(/[;:]/);
    if (codes.includes('8')) return 'conceals the text after it on a terminal';
    return codes.every((code) => code === '' || code === '0')
      ? 'resets the text style'
      : 'changes the text colour or style';
  }
  if (final !== undefined && 'ABCDEFGHdf'.includes(final))
    return 'moves the cursor, so later text can overwrite earlier text';
  if (final === 'J' || final === 'K') return 'erases text already on the terminal';
  return 'controls the terminal';
}

/** OSC, DCS, SOS, PM and APC strings run to BEL or the string terminator (ESC \ or U+009C). */
function commandString(text: string, index: number, start: number, introducer: string): EscapeSequence {
  const limit = Math.min(text.length, start + MAX_SEQUENCE);
  let end = start;
  let terminator = 0;
  for (; end < limit; end++) {
    const code = text.charCodeAt(end);
    if (code === 0x07 || code === 0x9c) {
      terminator = 1;
      break;
    }
    if (code === ESC && text[end + 1] === '\\') {
      terminator = 2;
      break;
    }
  }
  const body = text.slice(start, end);
  return { length: end + terminator - index, effect: stringEffect(introducer, body) };
}

function stringEffect(introducer: string, body: string): string {
  if (introducer !== ']') return 'sends a hidden string to the terminal';
  const command = body.slice(0, body.indexOf(';') === -1 ? body.length : body.indexOf(';'));
  if (command === '8') return 'makes a terminal hyperlink whose target is not shown';
  if (command === '52') return "writes to the terminal's clipboard";
  if (command === '0' || command === '1' || command === '2') return 'sets the terminal window title';
  return 'sends an operating-system command to the terminal';
}

/** `a zero-width character (U+200B)`, `3 Unicode tag characters (U+E0049, …) spelling "ign"`. */
export function describeHiddenText(hidden: HiddenText): string {
  const name = HIDDEN_KIND_NAMES[hidden.kind];
  const listed = hidden.codePoints.slice(0, MAX_LISTED_CODE_POINTS).map(codePointLabel);
  const codes = `${listed.join(', ')}${hidden.codePoints.length > MAX_LISTED_CODE_POINTS ? ', …' : ''}`;
  if (hidden.kind === 'escape-sequence') return `a ${name} that ${hidden.effect}`;
  if (hidden.kind === 'space-padding') return `a ${name} (${hidden.count} × ${codes}) that can push text out of view`;
  const counted =
    hidden.count === 1 ? `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}` : `${hidden.count} ${pluralName(name)}`;
  const spelled = hidden.decoded === null ? '' : ` spelling ${JSON.stringify(cut(hidden.decoded, 120))}`;
  return `${counted} (${codes})${spelled}`;
}

const pluralName = (name: string): string => (name.endsWith('y') ? `${name.slice(0, -1)}ies` : `${name}s`);

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** `U+200B`. */
export const codePointLabel = (codePoint: number): string =>
  `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;

const ONE_CANDIDATE = new RegExp(`^${CANDIDATE.source}$`, 'u');

/** Whether one character never shows (for normalising, and for escaping text quoted in messages). */
export function isInvisible(codePoint: number): boolean {
  if (codePoint === 0x09 || codePoint === 0x0a || codePoint === 0x0d) return false;
  const character = String.fromCodePoint(codePoint);
  return ONE_CANDIDATE.test(character) && !SPACE.test(character);
}
