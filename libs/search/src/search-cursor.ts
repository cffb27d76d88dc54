/** Opaque cursors for `limit` + `cursor` paging: the position after the last item, base64url JSON. */

export type CursorValues = Array<string | number | null>;

/**
 * What each position of a cursor holds: the PostgreSQL type of a keyset column it is compared
 * with, or the row offset of a sort that has no keyset. A cursor is a client's text, so each value
 * is checked here against its column: one PostgreSQL would refuse never reaches it.
 */
export type CursorColumn = 'timestamptz' | 'uuid' | 'bigint' | 'int' | 'text' | 'offset';

const MAX_CURSOR_LENGTH = 512;
const INT4_MAX = 2 ** 31 - 1;
/** A text key (a skill name) is at most this long. */
const MAX_TEXT_KEY = 200;
const INT8_MAX = 2n ** 63n - 1n;
/** `timestamptz::text` as PostgreSQL writes it: `2026-11-29 10:58:01.123456+00`. */
const TIMESTAMPTZ = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-]\d{2}(?::\d{2}){0,2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const FITS: Readonly<Record<CursorColumn, (value: unknown) => boolean>> = {
  timestamptz: (v) => typeof v === 'string' && isTimestamp(v),
  uuid: (v) => typeof v === 'string' && UUID.test(v),
  // A bigint reaches JavaScript as a string of digits (node-postgres keeps its precision).
  bigint: (v) => typeof v === 'string' && /^\d{1,19}$/.test(v) && BigInt(v) <= INT8_MAX,
  int: (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= INT4_MAX,
  text: (v) => typeof v === 'string' && v.length <= MAX_TEXT_KEY && !v.includes('\u0000'),
  offset: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
};

export function encodeCursor(sort: string, values: CursorValues): string {
  return Buffer.from(JSON.stringify({ s: sort, v: values }), 'utf8').toString('base64url');
}

/**
 * The cursor's values, or null when it is malformed, was made for another sort, or holds a value
 * that does not fit its column (a wrong type, a number out of range, a date that does not exist).
 */
export function decodeCursor(cursor: string, sort: string, columns: readonly CursorColumn[]): CursorValues | null {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let parsed: { s?: unknown; v?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown; v?: unknown };
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || parsed.s !== sort || !Array.isArray(parsed.v)) return null;
  const values: unknown[] = parsed.v;
  if (values.length !== columns.length || !columns.every((column, i) => FITS[column](values[i]))) return null;
  return values as CursorValues;
}

/** A real calendar date and time of day (PostgreSQL refuses 2026-02-31 and 25:00). */
function isTimestamp(text: string): boolean {
  const m = TIMESTAMPTZ.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}
