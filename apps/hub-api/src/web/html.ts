/**
 * The one way the web pages write HTML: `html` escapes every interpolated value unless it
 * is already a `SafeHtml` (made by `html` itself or, for trusted fragments, `raw()`), and
 * spells out the hidden characters in it (a right-to-left override shows as `\u{202E}`, an
 * escape as `\u{001B}`), so a page shows what a publisher wrote instead of what it pretends.
 * Arrays are joined; null, undefined and false render nothing.
 */
import { escapeForDisplay } from '@skillhub/text-analysis';

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

/** Markup that is already safe to write as is. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** A trusted fragment written verbatim: never pass it anything a publisher or a request wrote. */
export const raw = (fragment: string): SafeHtml => new SafeHtml(fragment);

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(escapeForDisplay(String(value)));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/**
 * A URL someone else wrote, fit for an href: only absolute http(s) URLs pass (no
 * `javascript:`, `data:` or protocol-relative tricks); anything else is null.
 */
export function safeHttpUrl(url: unknown): string | null {
  if (typeof url !== 'string' || url.length > 2048) return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
}

/** Links to what a publisher named: no ranking credit, no `window.opener`, no referrer. */
export const EXTERNAL_REL = 'nofollow noopener noreferrer';

/** A link to a publisher-supplied URL when it is http(s), else the URL as plain text. */
export function externalLink(url: unknown, label?: string): SafeHtml {
  const href = safeHttpUrl(url);
  if (!href) return html`<span>${typeof url === 'string' ? url : ''}</span>`;
  return html`<a href="${href}" rel="${EXTERNAL_REL}">${label ?? href}</a>`;
}

/** A path segment of the hub's own URLs (slugs, names, versions), percent-encoded. */
export const seg = (value: string): string => encodeURIComponent(value);

/** A query string from defined values. */
export function queryString(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const s = search.toString();
  return s ? `?${s}` : '';
}

/** `1 download`, `2 downloads`: a count with its noun in the right number (English, regular plurals). */
export const counted = (n: number, noun: string): string => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
