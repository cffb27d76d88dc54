/**
 * Markdown a publisher wrote (a README, the body of a SKILL.md, a fix hint), rendered by
 * markdown-it with raw HTML off, so nothing of it can add markup of its own: links only to
 * http(s) and mailto (anything else stays text), each with `rel` nofollow; images never
 * loaded (the page's CSP allows only the hub's own), shown as their alt text with a link;
 * headings moved under the section that holds them. Hidden characters are spelled out first,
 * as `html` does for every other value (see html.ts).
 */
import MarkdownIt from 'markdown-it';
import { escapeForDisplay } from '@skillhub/text-analysis';
import { EXTERNAL_REL, escapeHtml, raw, type SafeHtml } from './html';

/** Longer documents are cut here (a page stays small); the cut is said. */
export const MAX_MARKDOWN_CHARS = 64 * 1024;

const LINK_SCHEMES = /^(https?:|mailto:)/i;

type Rule = MarkdownIt.RendererRule;

function document(): MarkdownIt.MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  md.validateLink = (url) => LINK_SCHEMES.test(url.trim());
  const defaultLink: Rule = (tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options);
  const linkOpen = md.renderer.rules.link_open ?? defaultLink;
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx]!.attrSet('rel', EXTERNAL_REL);
    return linkOpen(tokens, idx, options, env, self);
  };
  md.renderer.rules.image = (tokens, idx) => {
    const token = tokens[idx]!;
    const alt = token.children?.map((c) => c.content).join('') || 'image';
    const src = String(token.attrGet('src') ?? '');
    return `<a class="img-link" href="${escapeHtml(src)}" rel="${EXTERNAL_REL}">[image: ${escapeHtml(alt)}]</a>`;
  };
  // The page's own h1 and h2 come first: a document's headings start at h3.
  const shift = (tokens: MarkdownIt.Token[], idx: number) => {
    const level = Math.min(6, Number(tokens[idx]!.tag.slice(1)) + 2);
    return `h${level}`;
  };
  md.renderer.rules.heading_open = (tokens, idx) => `<${shift(tokens, idx)}>`;
  md.renderer.rules.heading_close = (tokens, idx) => `</${shift(tokens, idx)}>\n`;
  return md;
}

const full = document();
/** Fix hints: inline code and nothing else (they are one sentence, never a document). */
const hints = new MarkdownIt('zero').enable(['backticks']);

/** A README or SKILL.md body as safe HTML; `truncated` when it was longer than MAX_MARKDOWN_CHARS. */
export function renderMarkdown(source: string): { html: SafeHtml; truncated: boolean } {
  const truncated = source.length > MAX_MARKDOWN_CHARS;
  const text = escapeForDisplay(truncated ? source.slice(0, MAX_MARKDOWN_CHARS) : source);
  return { html: raw(full.render(text)), truncated };
}

/**
 * A fix hint, its backticks as <code>. Reports name Kazma's `kazma hub sign`; a reader of this
 * hub signs with `skillhub sign`, which writes the same fields (README.md, "From the terminal").
 */
export function renderHint(hint: string): SafeHtml {
  return raw(hints.renderInline(escapeForDisplay(hint.replace(/\bkazma hub sign\b/g, 'skillhub sign'))));
}
