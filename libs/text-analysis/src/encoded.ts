/**
 * Text hidden in an encoding a model decodes on its own: base64 (and base64url), base32,
 * ascii85, hex, percent-encoding, and rot13 next to a hint that it is one ("rot13", "caesar").
 * Runs are found on the source, decoded within bounds (run length, runs per text, decoded bytes),
 * and kept only when they decode to readable text, which is then scanned like any other.
 */

export type Encoding = 'base64' | 'base32' | 'ascii85' | 'hex' | 'percent-encoding' | 'rot13';

export interface DecodedRun {
  encoding: Encoding;
  /** UTF-16 offset and length of the encoded run in the source. */
  index: number;
  length: number;
  text: string;
  /** The decoded text has one character per source character (rot13): a match inside maps back. */
  inPlace: boolean;
}

/** Shorter runs decode to a word or two, which no phrase needs. */
const MIN_RUN = 24;
const MAX_RUN = 64 * 1024;
const MAX_RUNS = 32;
const MAX_DECODED = 256 * 1024;
/** How much text after a rot13 hint is read as rot13. */
const ROT13_REACH = 4000;

// Each class is bounded on both sides by characters outside it, so that no run backtracks.
// Base32 and plain hex are written in base64's alphabet: its runs are sorted out in `encodingOf`.
const CANDIDATES: readonly { encoding: Encoding; pattern: RegExp }[] = [
  { encoding: 'base64', pattern: /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{24,}={0,6}(?![A-Za-z0-9+/=_-])/g },
  { encoding: 'ascii85', pattern: /<~[!-uz\s]{10,}~>/g },
  { encoding: 'hex', pattern: /(?:\\x[0-9A-Fa-f]{2}){8,}/g },
  { encoding: 'hex', pattern: /(?<![0-9A-Za-z])(?:[0-9A-Fa-f]{2}[ :,]){11,}[0-9A-Fa-f]{2}(?![0-9A-Za-z])/g },
  // From a `%`, so that the scan skips to the next one; the word it is in is taken back below.
  {
    encoding: 'percent-encoding',
    pattern: /%[0-9A-Fa-f]{2}(?:[^\s%()<>"'`[\]]{0,16}%[0-9A-Fa-f]{2})+[^\s%()<>"'`[\]]{0,64}/g,
  },
];
const ROT13_HINT = /(?<![a-z0-9])(?:rot[\s_-]?13|caesar|c[ée]sar)(?![a-z0-9])/gi;
/** Raw ascii85 after a hint that it is one. */
const ASCII85_HINT = /(?<![a-z0-9])(?:ascii85|base85|a85)(?![a-z0-9])[^!-u]{0,40}([!-u]{24,})/gi;

/** Two words, or four characters of a script written without spaces. */
const WORDS = /\p{L}{2,}[\s\p{P}]+\p{L}|[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]{4}/u;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Readable text: valid UTF-8, mostly letters, digits, spaces and punctuation, with words. */
function readable(bytes: Uint8Array): string | null {
  if (bytes.length < 12) return null;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  const odd = text.match(/[^\p{L}\p{N}\p{P}\p{S}\p{Zs}\n\r\t]/gu)?.length ?? 0;
  if (odd > text.length / 20) return null;
  // Words, or another encoded run (base64 of base64).
  return WORDS.test(text) || /^[A-Za-z0-9+/=_-]{24,}$/.test(text) ? text : null;
}

function decodeBase64(run: string): Uint8Array | null {
  const body = run.replace(/=+$/, '');
  // Text in base64 mixes cases all along; a word, a path or an identifier has long runs of one.
  if (body.length % 4 === 1 || !/[a-z]/.test(body) || !/[A-Z]/.test(body) || /[a-z]{12}|[A-Z]{12}/.test(body)) {
    return null;
  }
  // Mixed alphabets are a path or an identifier, not base64.
  if (/[+/]/.test(body) && /[_-]/.test(body)) return null;
  return Buffer.from(body.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function decodeBase32(run: string): Uint8Array {
  const body = run.replace(/=+$/, '');
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const character of body) {
    buffer = (buffer << 5) | BASE32.indexOf(character);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}

function decodeAscii85(run: string): Uint8Array | null {
  const body = run.replace(/^<~|~>$/g, '').replace(/\s+/g, '');
  const bytes: number[] = [];
  let group: number[] = [];
  const flush = (count: number): void => {
    let value = 0;
    for (let at = 0; at < 5; at++) value = value * 85 + (group[at] ?? 84);
    if (value > 0xffffffff) return;
    for (let at = 0; at < count; at++) bytes.push((value >>> (24 - 8 * at)) & 0xff);
  };
  for (const character of body) {
    if (character === 'z' && group.length === 0) {
      bytes.push(0, 0, 0, 0);
      continue;
    }
    const digit = character.charCodeAt(0) - 33;
    if (digit < 0 || digit > 84) return null;
    group.push(digit);
    if (group.length === 5) {
      flush(4);
      group = [];
    }
  }
  if (group.length === 1) return null;
  if (group.length > 0) flush(group.length - 1);
  return Uint8Array.from(bytes);
}

const decodeHex = (run: string): Uint8Array => Buffer.from(run.replace(/\\x|[ :,]/g, ''), 'hex');

function decodePercent(run: string): string | null {
  try {
    const text = decodeURIComponent(run.replace(/\+/g, ' '));
    return WORDS.test(text) ? text : null;
  } catch {
    return null;
  }
}

const DECODERS: Readonly<Record<Exclude<Encoding, 'percent-encoding' | 'rot13'>, (run: string) => Uint8Array | null>> =
  {
    base64: decodeBase64,
    base32: decodeBase32,
    ascii85: decodeAscii85,
    hex: decodeHex,
  };

/** Which of base64, base32 and hex a run of base64's alphabet is. */
function encodingOf(run: string): Encoding {
  if (/^(?:[0-9a-f]{2})+$|^(?:[0-9A-F]{2})+$/.test(run)) return 'hex';
  return /^[A-Z2-7]+=*$/.test(run) ? 'base32' : 'base64';
}

/** The characters of a URL or word just before `index`. */
const wordBefore = (source: string, index: number): string =>
  (/[^\s%()<>"'`[\]]{0,64}$/.exec(source.slice(Math.max(0, index - 64), index)) as RegExpExecArray)[0];

const rot13 = (text: string): string =>
  text.replace(/[a-z]/gi, (letter) => {
    const base = letter <= 'Z' ? 65 : 97;
    return String.fromCharCode(((letter.charCodeAt(0) - base + 13) % 26) + base);
  });

/** The encoded runs of `source` that decode to readable text, in source order, within the bounds above. */
export function findDecodedRuns(source: string): DecodedRun[] {
  const runs: DecodedRun[] = [];
  let budget = MAX_DECODED;
  const add = (run: DecodedRun): boolean => {
    budget -= run.text.length;
    if (budget >= 0) runs.push(run);
    return runs.length < MAX_RUNS && budget > 0;
  };
  const decode = (encoding: Encoding, run: string): string | null => {
    if (encoding === 'percent-encoding') return decodePercent(run);
    const bytes = DECODERS[encoding as keyof typeof DECODERS](run);
    return bytes ? readable(bytes) : null;
  };
  for (const candidate of CANDIDATES) {
    for (const match of source.matchAll(candidate.pattern)) {
      const encoding = candidate.encoding === 'base64' ? encodingOf(match[0]) : candidate.encoding;
      const lead = encoding === 'percent-encoding' ? wordBefore(source, match.index) : '';
      const run = lead + match[0];
      if ((run.length < MIN_RUN && encoding !== 'percent-encoding') || run.length > MAX_RUN) continue;
      const text = decode(encoding, run);
      const index = match.index - lead.length;
      if (text !== null && !add({ encoding, index, length: run.length, text, inPlace: false })) return runs;
    }
  }
  for (const match of source.matchAll(ASCII85_HINT)) {
    const run = match[1] as string;
    const bytes = decodeAscii85(run);
    const text = bytes ? readable(bytes) : null;
    const index = match.index + match[0].length - run.length;
    if (text !== null && !add({ encoding: 'ascii85', index, length: run.length, text, inPlace: false })) return runs;
  }
  let covered = 0;
  for (const hint of source.matchAll(ROT13_HINT)) {
    // The hint's paragraph and what follows it: "rot13:" before the text, or "(rot13)" after it.
    const paragraph = source.lastIndexOf('\n\n', hint.index);
    const index = Math.max(covered, paragraph === -1 ? 0 : paragraph, hint.index - ROT13_REACH);
    const end = Math.min(source.length, hint.index + ROT13_REACH);
    if (end <= index) continue;
    covered = end;
    const text = rot13(source.slice(index, end));
    if (!add({ encoding: 'rot13', index, length: end - index, text, inPlace: true })) return runs;
  }
  return runs;
}
