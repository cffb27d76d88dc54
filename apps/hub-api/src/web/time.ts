/** Times on the pages: relative words ("3 days ago") in a <time> that carries the exact UTC time. */
import { html, type SafeHtml } from './html';

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];
const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "3 days ago", "in 11 months", "just now". */
export function relativeTime(at: Date, now: Date): string {
  const ms = at.getTime() - now.getTime();
  for (const [unit, size] of UNITS) {
    if (Math.abs(ms) >= size) return RELATIVE.format(Math.trunc(ms / size), unit);
  }
  return 'just now';
}

/** `2026-12-01 13:47 UTC`. */
export const absoluteTime = (at: Date): string => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** A time from an ISO string: relative words, the exact time as its title and its datetime. */
export function timeTag(iso: string, now: Date): SafeHtml {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return html`${iso}`;
  return html`<time datetime="${at.toISOString()}" title="${absoluteTime(at)}">${relativeTime(at, now)}</time>`;
}
