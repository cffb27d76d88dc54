/** Opaque cursors for `limit` + `cursor` paging: the position after the last item, base64url JSON. */

export type CursorValues = Array<string | number | null>;

const MAX_CURSOR_LENGTH = 512;

export function encodeCursor(sort: string, values: CursorValues): string {
  return Buffer.from(JSON.stringify({ s: sort, v: values }), 'utf8').toString('base64url');
}

/** The cursor's values, or null when it is malformed or was made for another sort. */
export function decodeCursor(cursor: string, sort: string): CursorValues | null {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown; v?: unknown };
    if (parsed.s !== sort || !Array.isArray(parsed.v)) return null;
    const ok = parsed.v.every(
      (x) => x === null || typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)),
    );
    return ok ? (parsed.v as CursorValues) : null;
  } catch {
    return null;
  }
}
