/** Terminal output: plain tables, and colours only for a terminal without NO_COLOR. */

export interface Painter {
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  bold(text: string): string;
}

export function painter(enabled: boolean): Painter {
  const wrap = (code: number) => (text: string) => (enabled ? `\x1b[${code}m${text}\x1b[0m` : text);
  return { green: wrap(32), red: wrap(31), yellow: wrap(33), bold: wrap(1) };
}

/** Colours are on only when the stream is a terminal and NO_COLOR is unset (or empty). */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}

/** Visible width: ANSI colour codes take no room. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const width = (text: string): number => text.replace(ANSI, '').length;

/** Columns aligned under a header; an empty list reads "(none)". */
export function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  if (rows.length === 0) return '(none)';
  const widths = headers.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat(widths[i]! - width(cell))))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(r))].join('\n');
}

/** `key: value` lines, keys aligned. */
export function fields(entries: ReadonlyArray<readonly [string, string]>): string {
  const pad = Math.max(...entries.map(([k]) => k.length));
  return entries.map(([k, v]) => `${`${k}:`.padEnd(pad + 1)} ${v}`).join('\n');
}
