/**
 * Quoted scalars as PyYAML (SwarmKit's loader) reads them. A double- or single-quoted value runs
 * to its closing quote there even when its later lines start left of the key, as hand-written
 * prompts do (`prompt: "Extract:` then `1. the issue` at column 0); the `yaml` package ends the
 * value at the first such line and refuses the file. Those lines are indented before parsing: a
 * quoted scalar folds its line breaks and drops each line's leading blanks, so the value parsed is
 * the value PyYAML reads. Nothing else changes, and nothing is repaired when it would be ambiguous:
 * no closing quote, or a line inside that YAML reads as a document marker (`---`, `...`).
 */
import { Lexer } from 'yaml';

/**
 * Each repair reads the text again from its start (the lexer keeps no state to resume from): the
 * reads a document's repairs may cost, in multiples of its length, so a crafted one stays cheap.
 * Past that the parser reports what is left, and the file is refused.
 */
const REREAD_BUDGET = 4;

/** Lexer tokens that stand for a mode, not for source text. */
const CONTROL_TOKENS = new Set(['\x02', '\x18', '\x1f']);

const DOCUMENT_MARKER = /^(?:---|\.\.\.)(?:[ \t\r\n]|$)/;

export function indentQuotedContinuations(text: string): string {
  let repaired = text;
  let budget = REREAD_BUDGET * text.length;
  for (;;) {
    const cut = firstCutQuote(repaired);
    if (!cut) return repaired;
    budget -= cut.start + 1;
    if (budget < 0) return repaired;
    const next = indentLines(repaired, cut.start, cut.end);
    // Indenting changed nothing (a quoted key at column 0): the parser says what is wrong.
    if (next === null || next === repaired) return repaired;
    repaired = next;
  }
}

/** The first quoted scalar the lexer ends before its closing quote, with that quote's offset. */
function firstCutQuote(text: string): { start: number; end: number } | null {
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    if (CONTROL_TOKENS.has(token)) continue;
    const quote = token[0];
    if (quote === '"' || quote === "'") {
      const end = closingQuote(text, offset, quote);
      if (end > offset + token.length - 1) return { start: offset, end };
    }
    offset += token.length;
  }
  return null;
}

/** Offset of the quote that closes the scalar opened at `start` (as the lexer finds it), or -1. */
function closingQuote(text: string, start: number, quote: string): number {
  let end = text.indexOf(quote, start + 1);
  if (quote === "'") {
    // `''` is an escaped quote inside a single-quoted scalar.
    while (end !== -1 && text[end + 1] === "'") end = text.indexOf("'", end + 2);
    return end;
  }
  while (end !== -1) {
    let backslashes = 0;
    while (text[end - 1 - backslashes] === '\\') backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}

/**
 * The text with every line after the first of the scalar at [start, end] indented to the opening
 * quote's column (deeper than any key that holds it); null when one of them is a document marker.
 */
function indentLines(text: string, start: number, end: number): string | null {
  const column = start - (text.lastIndexOf('\n', start - 1) + 1);
  const first = text.indexOf('\n', start);
  const body = text.slice(first + 1, end + 1).split('\n');
  if (body.some((line) => DOCUMENT_MARKER.test(line))) return null;
  const indented = body.map((line) => {
    const content = line.replace(/^[ \t]+/, '');
    const blank = content === '' || content === '\r';
    return blank || line.length - content.length >= column ? line : ' '.repeat(column) + content;
  });
  return text.slice(0, first + 1) + indented.join('\n') + text.slice(end + 1);
}
