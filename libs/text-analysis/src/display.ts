/** Text shown to a person: quoted in a finding's message, or escaped for a terminal or a page. */
import { findHiddenText, isInvisible } from './hidden-text';

const DEFAULT_MAX = 80;

/** `"Extracts\u{200B} text"`: quoted, invisible and control characters escaped, cut to `max` characters. */
export function quoteForMessage(text: string, max = DEFAULT_MAX): string {
  let shown = '';
  let characters = 0;
  for (const character of text) {
    if (characters >= max) return `"${shown}…"`;
    shown += escapeCharacter(character);
    characters++;
  }
  return `"${shown}"`;
}

/** The text around `index`: from the start of its line (or `context` characters before) to the end of the match. */
export function excerptAt(text: string, index: number, length: number, context = 20): string {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  const start = Math.max(lineStart, index - context);
  const lineEnd = text.indexOf('\n', index + length);
  const end = Math.min(lineEnd === -1 ? text.length : lineEnd, index + length + context);
  return text.slice(start, Math.max(end, index + length));
}

export interface DisplayOptions {
  /** Also spell out line breaks and tabs (`\n`, `\t`, `\u{000D}`): for a table cell or a one-line field. */
  oneLine?: boolean;
}

/**
 * Text someone else wrote (a publisher, a hub), fit to show on a terminal or a page: every hidden
 * run `findHiddenText` reports (terminal escape sequences, bidirectional controls, zero-width and
 * tag characters, control characters…) is spelled out (`\u{001B}[2J`, `\u{202E}`), so it shows
 * instead of acting; what real text carries (an emoji's joiner or selector, CR LF) is kept.
 */
export function escapeForDisplay(text: string, options: DisplayOptions = {}): string {
  let shown = '';
  let at = 0;
  const plain = (end: number) => {
    const part = text.slice(at, end);
    shown += options.oneLine ? part.replace(/\r|\n|\t/g, (c) => escapeCharacter(c)) : part;
  };
  for (const hidden of findHiddenText(text)) {
    plain(hidden.index);
    // An escape sequence's printable tail (`[2J`) stays: it shows what the sequence would have done.
    for (const character of text.slice(hidden.index, hidden.index + hidden.length)) {
      shown += /^[\x20-\x7e]$/.test(character) ? character : spell(character.codePointAt(0) as number);
    }
    at = hidden.index + hidden.length;
  }
  plain(text.length);
  return shown;
}

const spell = (codePoint: number): string => `\\u{${codePoint.toString(16).toUpperCase().padStart(4, '0')}}`;

function escapeCharacter(character: string): string {
  const codePoint = character.codePointAt(0) as number;
  if (character === '\n') return '\\n';
  if (character === '\t') return '\\t';
  if (character === '"' || character === '\\') return `\\${character}`;
  return codePoint === 0x0d || isInvisible(codePoint) ? spell(codePoint) : character;
}
