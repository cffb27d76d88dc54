/**
 * First pass of security check C12 on text a model will read (descriptions, instructions), when a
 * skill is parsed: characters a reviewer cannot see are errors (the skill is refused), instruction
 * injection and hidden markup are warnings for review. The certifier's C12 reads every file too.
 */
import {
  HIDDEN_KIND_NAMES,
  codePointLabel,
  describeHiddenText,
  findHiddenMarkdown,
  findHiddenText,
  findInjections,
  quoteForMessage,
  type HiddenMarkdownKind,
  type HiddenText,
} from '@skillhub/text-analysis';

export interface TextFinding {
  severity: 'error' | 'warning';
  /** Reads after the field's name: "contains a hidden zero-width character U+200B ...". */
  message: string;
  /** Offset (UTF-16) of the first occurrence in the text. */
  index: number;
}

const MARKUP: Readonly<Record<HiddenMarkdownKind, string>> = {
  'html-comment': 'an HTML comment',
  'reference-comment': 'a Markdown comment',
  'hidden-element': 'an HTML element hidden from view',
};

/** Every ordinary text field is judged as the start of a description, as a tool's description would be. */
const FIELD_CONTEXT = { tool: { server: '', siblings: [], others: [] } };

/** Every kind of hidden character (once per code point, or per smuggled run) and every kind of marker found in `text`. */
export function scanText(text: string): TextFinding[] {
  return [...hiddenCharacters(text), ...markers(text)];
}

function hiddenCharacters(text: string): TextFinding[] {
  const findings: TextFinding[] = [];
  const seen = new Set<string>();
  for (const hidden of findHiddenText(text)) {
    if (spellsSomething(hidden)) {
      const message = `contains hidden text, ${describeHiddenText(hidden)}, at character ${hidden.index + 1}`;
      findings.push({ severity: 'error', message, index: hidden.index });
      continue;
    }
    for (const codePoint of hidden.codePoints) {
      const key = `${hidden.kind} ${codePoint}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const index = text.indexOf(String.fromCodePoint(codePoint), hidden.index);
      const what = `${HIDDEN_KIND_NAMES[hidden.kind]} ${codePointLabel(codePoint)}`;
      const effect = hidden.effect === null ? '' : ` that ${hidden.effect}`;
      findings.push({
        severity: 'error',
        message: `contains a hidden ${what}${effect} at character ${index + 1}`,
        index,
      });
    }
  }
  return findings;
}

const spellsSomething = (hidden: HiddenText): boolean => hidden.decoded !== null;

interface Marker {
  /** What kind of marker it is ("an HTML comment"): one warning per kind. */
  kind: string;
  /** The kind, with what was found when that helps ("… ("ignore all previous instructions")"). */
  shown: string;
  index: number;
  length: number;
}

/** One warning per kind of marker, at its first occurrence; a marker inside another (a phrase in a comment) is that one. */
function markers(text: string): TextFinding[] {
  const found: Marker[] = [
    ...findHiddenMarkdown(text).map(({ kind, index, length }) => ({
      kind: MARKUP[kind],
      shown: MARKUP[kind],
      index,
      length,
    })),
    ...findInjections(text, FIELD_CONTEXT).map(({ label, index, length }) => ({
      kind: label,
      shown: `${label} (${quoteForMessage(text.slice(index, index + length), 60)})`,
      index,
      length,
    })),
  ];
  const inside = (inner: Marker, outer: Marker): boolean =>
    outer.length > inner.length &&
    outer.index <= inner.index &&
    inner.index + inner.length <= outer.index + outer.length;
  const firstOfKind = new Map<string, Marker>();
  for (const marker of found.sort((a, b) => a.index - b.index)) {
    if (found.some((outer) => inside(marker, outer)) || firstOfKind.has(marker.kind)) continue;
    firstOfKind.set(marker.kind, marker);
  }
  return [...firstOfKind.values()].map((marker) => ({
    severity: 'warning',
    message: `contains ${marker.shown}, a hidden-instruction marker to review`,
    index: marker.index,
  }));
}

/** 1-based line of `index` in `text`, for findings inside a multi-line body. */
export function lineOfIndex(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
