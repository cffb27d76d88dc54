/**
 * First pass of security check C12 on text a model will read (descriptions, instructions):
 * characters a reviewer cannot see are errors, prompt-injection markers are warnings for review.
 */

export interface TextFinding {
  severity: 'error' | 'warning';
  /** Reads after the field's name: "contains a hidden zero-width character U+200B ...". */
  message: string;
  /** Offset (UTF-16) of the first occurrence in the text. */
  index: number;
}

// Character classes (as regex source) of what a reader cannot see; U+00AD (soft hyphen) counts as zero-width.
const ZERO_WIDTH = '\\u00AD\\u180E\\u200B-\\u200D\\u2060-\\u2064\\uFEFF';
const BIDI_CONTROL = '\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069';
const UNICODE_TAG = '\\u{E0000}-\\u{E007F}';
const HIDDEN = new RegExp(`[${ZERO_WIDTH}${BIDI_CONTROL}${UNICODE_TAG}]`, 'gu');
const IS_ZERO_WIDTH = new RegExp(`^[${ZERO_WIDTH}]$`, 'u');
const IS_BIDI_CONTROL = new RegExp(`^[${BIDI_CONTROL}]$`, 'u');

const MARKERS: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /<\/?\s*important\s*>/i, what: 'an <IMPORTANT> tag' },
  {
    pattern:
      /\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior|above|earlier)\s+instructions\b/i,
    what: 'an "ignore previous instructions" phrase',
  },
  { pattern: /<!--/, what: 'an HTML comment' },
];

/** Every kind of hidden character (once per code point) and every marker kind found in `text`. */
export function scanText(text: string): TextFinding[] {
  return [...hiddenCharacters(text), ...markers(text)];
}

function hiddenCharacters(text: string): TextFinding[] {
  const firstIndex = new Map<number, number>();
  for (const match of text.matchAll(HIDDEN)) {
    const codePoint = match[0].codePointAt(0) as number;
    if (!firstIndex.has(codePoint)) firstIndex.set(codePoint, match.index);
  }
  return [...firstIndex].map(([codePoint, index]) => {
    const what = `${hiddenKind(String.fromCodePoint(codePoint))} ${codePointName(codePoint)}`;
    return { severity: 'error', message: `contains a hidden ${what} at character ${index + 1}`, index };
  });
}

function markers(text: string): TextFinding[] {
  return MARKERS.flatMap(({ pattern, what }) => {
    const match = pattern.exec(text);
    if (!match) return [];
    return [
      {
        severity: 'warning' as const,
        message: `contains ${what}, a hidden-instruction marker to review`,
        index: match.index,
      },
    ];
  });
}

function hiddenKind(character: string): string {
  if (IS_ZERO_WIDTH.test(character)) return 'zero-width character';
  if (IS_BIDI_CONTROL.test(character)) return 'bidirectional control character';
  return 'Unicode tag character';
}

function codePointName(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** 1-based line of `index` in `text`, for findings inside a multi-line body. */
export function lineOfIndex(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
