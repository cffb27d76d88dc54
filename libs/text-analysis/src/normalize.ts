/**
 * Text as a model effectively reads it, for matching: NFKC (fullwidth and mathematical letters
 * become ASCII), lookalike letters of other scripts folded to Latin, accents dropped, lower case,
 * invisible characters and terminal escape sequences removed, whitespace collapsed. Every
 * character keeps where in the source it came from, so a match points at the original line.
 */
import { latinLookalike } from './confusables';
import { escapeSequenceAt, isInvisible } from './hidden-text';

export interface NormalizedText {
  /** Single spaces between words, `\n` for a line break and `\n\n` for a blank line (a paragraph). */
  text: string;
  /** `starts[i]`: UTF-16 offset in the source of the character that produced `text[i]`. */
  starts: Int32Array;
  /** The text that was normalised. */
  source: string;
}

/** Fillers a reader sees as blank space: they separate words like spaces do. */
const FILLER = /^[\u2800\u115F\u1160\u3164\uFFA0]$/u;
const BLANK = /^\s$/u;
const MARK = /\p{M}/gu;
const NEWLINE = 0x0a;
const SPACE = 0x20;

export function normalizeText(source: string): NormalizedText {
  const out = new Output(source.length);
  for (let index = 0; index < source.length;) {
    const code = source.charCodeAt(index);
    if (code < 0x80 && code !== 0x1b) {
      if (code === NEWLINE) out.blank(index, true);
      else if (code === SPACE || (code >= 0x09 && code <= 0x0d)) out.blank(index, false);
      // Other ASCII controls are invisible; letters are lower-cased in place.
      else if (code > SPACE && code !== 0x7f) out.unit(code >= 0x41 && code <= 0x5a ? code + 0x20 : code, index);
      index++;
      continue;
    }
    const sequence = code === 0x1b || (code >= 0x90 && code <= 0x9f) ? escapeSequenceAt(source, index) : null;
    if (sequence) {
      index += sequence.length;
      continue;
    }
    const codePoint = source.codePointAt(index) as number;
    const read = readAs(codePoint);
    if (read === LINE_BREAK) out.blank(index, true);
    else if (read === BLANK_SPACE) out.blank(index, false);
    else for (let unit = 0; unit < read.length; unit++) out.unit(read.charCodeAt(unit), index);
    index += codePoint > 0xffff ? 2 : 1;
  }
  return out.result(source);
}

/** Where in the source the normalised span `[start, end)` came from. */
export function sourceSpan(normalized: NormalizedText, start: number, end: number): { index: number; length: number } {
  const { starts, source } = normalized;
  if (starts.length === 0) return { index: 0, length: 0 };
  const index = starts[Math.min(start, starts.length - 1)] as number;
  const last = starts[Math.min(Math.max(start, end - 1), starts.length - 1)] as number;
  const high = source.charCodeAt(last);
  const width = high >= 0xd800 && high <= 0xdbff && last + 1 < source.length ? 2 : 1;
  return { index, length: last + width - index };
}

/** The normalised text as UTF-16 code units, each with the source offset it came from. */
class Output {
  private units: Uint16Array;
  private starts: Int32Array;
  private length = 0;
  /** Newlines in the pending run of blanks (0: spaces only), or -1 when there is none. */
  private newlines = -1;
  private blankAt = 0;

  constructor(capacity: number) {
    this.units = new Uint16Array(Math.max(16, capacity));
    this.starts = new Int32Array(Math.max(16, capacity));
  }

  blank(index: number, newline: boolean): void {
    if (this.newlines === -1) {
      this.newlines = 0;
      this.blankAt = index;
    }
    if (newline) this.newlines++;
  }

  unit(code: number, index: number): void {
    if (this.newlines !== -1) {
      const pending = this.newlines;
      this.newlines = -1;
      if (this.length > 0) {
        if (pending === 0) this.unit(SPACE, this.blankAt);
        else {
          this.unit(NEWLINE, this.blankAt);
          if (pending > 1) this.unit(NEWLINE, this.blankAt);
        }
      }
    }
    if (this.length === this.units.length) this.grow();
    this.units[this.length] = code;
    this.starts[this.length] = index;
    this.length++;
  }

  result(source: string): NormalizedText {
    const chunks: string[] = [];
    // fromCharCode takes its arguments on the stack: decode in slices.
    for (let at = 0; at < this.length; at += 8192) {
      chunks.push(String.fromCharCode(...this.units.subarray(at, Math.min(this.length, at + 8192))));
    }
    return { text: chunks.join(''), starts: this.starts.slice(0, this.length), source };
  }

  private grow(): void {
    const units = new Uint16Array(this.units.length * 2);
    units.set(this.units);
    this.units = units;
    const starts = new Int32Array(this.starts.length * 2);
    starts.set(this.starts);
    this.starts = starts;
  }
}

const LINE_BREAK = '\n';
const BLANK_SPACE = ' ';
const readCache = new Map<number, string>();

/**
 * What a non-ASCII character reads as: LINE_BREAK, BLANK_SPACE, '' when invisible (so
 * "ig\u200Bnore" reads "ignore"), else its NFKC form with accents off, lookalikes folded and
 * lower-cased, without blanks.
 */
function readAs(codePoint: number): string {
  let read = readCache.get(codePoint);
  if (read !== undefined) return read;
  const character = String.fromCodePoint(codePoint);
  const invisible = isInvisible(codePoint);
  if (codePoint === 0x2028 || codePoint === 0x2029) read = LINE_BREAK;
  // U+FEFF is a space to JavaScript's \s, and nothing in text.
  else if (FILLER.test(character) || (!invisible && BLANK.test(character))) read = BLANK_SPACE;
  else if (invisible) read = '';
  else {
    const decomposed = character.normalize('NFKC').normalize('NFD').replace(MARK, '');
    // Folding comes before lower-casing too: Greek capital eta reads as H, its lower case as n.
    const folded = foldLookalikes(foldLookalikes(decomposed).toLowerCase()).normalize('NFD').replace(MARK, '');
    read = /\s/u.test(folded) && folded.trim() === '' ? BLANK_SPACE : folded.replace(/\s+/gu, '');
  }
  readCache.set(codePoint, read);
  return read;
}

const foldLookalikes = (text: string): string =>
  [...text].map((character) => latinLookalike(character.codePointAt(0) as number) ?? character).join('');
