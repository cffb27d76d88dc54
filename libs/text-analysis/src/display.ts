/** Text quoted in a finding's message: invisible characters spelled out, short, on one line. */
import { isInvisible } from './hidden-text';

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

function escapeCharacter(character: string): string {
  const codePoint = character.codePointAt(0) as number;
  if (character === '\n') return '\\n';
  if (character === '\t') return '\\t';
  if (character === '"' || character === '\\') return `\\${character}`;
  if (codePoint === 0x0d || isInvisible(codePoint)) {
    return `\\u{${codePoint.toString(16).toUpperCase().padStart(4, '0')}}`;
  }
  return character;
}
