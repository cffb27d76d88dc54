/**
 * Parts of a Markdown file that its rendered page never shows: HTML comments, the `[//]: # (…)`
 * comment idiom, and raw HTML elements that hide themselves. A model reads them; a reviewer
 * reading the page does not. Code (fenced blocks and inline spans) shows its text, so it is skipped.
 */

export type HiddenMarkdownKind = 'html-comment' | 'reference-comment' | 'hidden-element';

export interface HiddenMarkdown {
  kind: HiddenMarkdownKind;
  /** UTF-16 offset and length in the Markdown source. */
  index: number;
  length: number;
  /** The text inside, as written. */
  content: string;
}

/** Comments that only steer tools (formatters, linters, generators) and say nothing to a reader. */
const TOOL_DIRECTIVE =
  /^\s*(?:prettier-ignore(?:-start|-end)?|markdownlint-(?:disable|enable|capture|restore|configure-file)(?:-next-line|-line)?(?:\s[\w\s-]*)?|textlint-(?:disable|enable)[\w\s-]*|cspell:[\w\s:-]*|vale\s[\w.\s=-]*|eslint-(?:disable|enable)[\w\s-]*|\/?toc|omit in toc|[^\n]*\bdoctoc\b[^\n]*|(?:begin|end|start)(?:[\s:_-]+[\w.-]+){0,3}|[\w-]{0,40}:(?:start|end)(?:\s+-\s+do not remove or modify this section)?|)\s*$/i;
const MAX_DIRECTIVE = 100;

/** The hidden parts of `markdown`, in source order. Comments that only steer tools are left out. */
export function findHiddenMarkdown(markdown: string): HiddenMarkdown[] {
  const code = codeRanges(markdown);
  const inCode = (index: number): boolean => code.some(([start, end]) => index >= start && index < end);
  const found: HiddenMarkdown[] = [];

  for (let at = markdown.indexOf('<!--'); at !== -1; at = markdown.indexOf('<!--', at + 4)) {
    if (inCode(at)) continue;
    // An unclosed comment hides the rest of the file.
    const close = markdown.indexOf('-->', at + 4);
    const end = close === -1 ? markdown.length : close + 3;
    const content = markdown.slice(at + 4, close === -1 ? markdown.length : close);
    if (!(content.length <= MAX_DIRECTIVE && TOOL_DIRECTIVE.test(content))) {
      found.push({ kind: 'html-comment', index: at, length: end - at, content });
    }
    at = end - 4;
  }

  for (const match of markdown.matchAll(
    /^ {0,3}\[[^\]\n]{1,100}\]:[ \t]*(?:#|<>)[ \t]*(?:\(([^\n]*)\)|"([^\n]*)"|'([^\n]*)')[ \t]*$/gm,
  )) {
    if (inCode(match.index)) continue;
    const content = match[1] ?? match[2] ?? match[3] ?? '';
    if (content.trim() !== '')
      found.push({ kind: 'reference-comment', index: match.index, length: match[0].length, content });
  }

  const hiding =
    /<([a-z][a-z0-9-]*)\b[^<>]*?(?:\shidden(?=[\s=>/])|style\s*=\s*["'][^"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d]*[1-9])|opacity\s*:\s*0(?![.\d]*[1-9]))[^"']*["'])[^<>]*>/gi;
  for (const match of markdown.matchAll(hiding)) {
    if (inCode(match.index)) continue;
    const tag = (match[1] as string).toLowerCase();
    const close = markdown.toLowerCase().indexOf(`</${tag}>`, match.index + match[0].length);
    const end = close === -1 ? match.index + match[0].length : close + tag.length + 3;
    const content = markdown.slice(match.index + match[0].length, close === -1 ? end : close);
    found.push({ kind: 'hidden-element', index: match.index, length: end - match.index, content });
  }

  return found.sort((a, b) => a.index - b.index);
}

/** Fenced code blocks and inline code spans, as [start, end) offsets. */
function codeRanges(markdown: string): [number, number][] {
  const ranges: [number, number][] = [];
  let fence: { marker: string; start: number } | null = null;
  let offset = 0;
  for (const line of markdown.split('\n')) {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (
        opening &&
        opening[1]?.[0] === fence.marker[0] &&
        (opening[1]?.length ?? 0) >= fence.marker.length &&
        line.trim() === opening[1]
      ) {
        ranges.push([fence.start, offset + line.length]);
        fence = null;
      }
    } else if (opening) {
      fence = { marker: opening[1] as string, start: offset };
    } else {
      for (const span of line.matchAll(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g)) {
        ranges.push([offset + span.index, offset + span.index + span[0].length]);
      }
    }
    offset += line.length + 1;
  }
  // An unclosed fence runs to the end of the file.
  if (fence) ranges.push([fence.start, markdown.length]);
  return ranges;
}
