/**
 * Terminal output: every value someone else wrote (the hub, a publisher, a file) escaped, tables
 * aligned, and colours only for a terminal without NO_COLOR.
 */
import { escapeForDisplay, isInvisible } from '@skillhub/text-analysis';

/** What may be shown: the CLI's own TerminalText, or a value that is escaped on the way. */
export type Shown = TerminalText | string | number;

const BUILT = Symbol('made in format.ts');

/**
 * Text fit for the terminal, made only by the helpers of this file: the CLI's own words and
 * colours, and values passed through `escapeForDisplay` (escape sequences, bidi controls, other
 * hidden characters and, on one line, line breaks spelled out). A publisher's `ESC[2J`, a fake
 * green "CERTIFIED SAFE", an OSC-8 link or a title change therefore shows as text, never acts.
 */
export class TerminalText {
  /** Only this file holds the key, so no other code can pass raw text off as escaped. */
  constructor(
    key: typeof BUILT,
    readonly text: string,
  ) {
    if (key !== BUILT) throw new Error('TerminalText is made by the helpers of format.ts');
  }
}

const built = (text: string): TerminalText => new TerminalText(BUILT, text);

/** The escaped form of a value on one line (TerminalText stays as it is). */
const of = (value: Shown): string =>
  value instanceof TerminalText ? value.text : escapeForDisplay(String(value), { oneLine: true });

/** A value on one line: line breaks and tabs are spelled out too. */
export const oneLine = (value: Shown): TerminalText => built(of(value));

/** A value over several lines (a message that lists things): hidden characters spelled out, line breaks kept. */
export const block = (value: string): TerminalText => built(escapeForDisplay(value));

/** `` tty`published: ${id}` ``: the literal parts are the CLI's own (a template in its source); each value is escaped. */
export const tty = (strings: TemplateStringsArray, ...values: Shown[]): TerminalText =>
  built(strings.reduce((out, part, i) => out + part + (i < values.length ? of(values[i]!) : ''), ''));

/** Lines, each escaped unless it is TerminalText already. */
export const lines = (...parts: Shown[]): TerminalText => built(parts.map(of).join('\n'));

/**
 * `--json` output, which may land on a terminal too: JSON.stringify escapes C0 controls but leaves
 * C1 controls, bidi and zero-width characters raw, so those are written as `\uXXXX` (the same JSON).
 */
export function terminalJson(value: unknown): string {
  let out = '';
  for (const character of JSON.stringify(value, null, 2) ?? 'null') {
    if (!isInvisible(character.codePointAt(0) as number)) {
      out += character;
      continue;
    }
    for (let i = 0; i < character.length; i++) out += `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`;
  }
  return out;
}

const COLOURS = { green: 32, red: 31, yellow: 33, bold: 1 } as const;
type Colour = (typeof COLOURS)[keyof typeof COLOURS];

export type Painter = Record<keyof typeof COLOURS, (value: Shown) => TerminalText>;

export function painter(enabled: boolean): Painter {
  const wrap = (code: Colour) => (value: Shown) => built(enabled ? `\x1b[${code}m${of(value)}\x1b[0m` : of(value));
  return { green: wrap(COLOURS.green), red: wrap(COLOURS.red), yellow: wrap(COLOURS.yellow), bold: wrap(COLOURS.bold) };
}

/** Colours are on only when the stream is a terminal and NO_COLOR is unset (or empty). */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}

/** Visible width: the painter's colour codes take no room (values hold none: they are escaped). */
const SGR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const width = (text: string): number => text.replace(SGR, '').length;

/** Columns aligned under a header; an empty list reads "(none)". */
export function table(headers: readonly string[], rows: ReadonlyArray<readonly Shown[]>): TerminalText {
  if (rows.length === 0) return oneLine('(none)');
  const cells = rows.map((row) => row.map(of));
  const widths = headers.map((h, i) => Math.max(width(h), ...cells.map((r) => width(r[i] ?? ''))));
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell + ' '.repeat(widths[i]! - width(cell))))
      .join('  ')
      .trimEnd();
  return built([line(headers.map(of)), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n'));
}

/** `key: value` lines, keys aligned. */
export function fields(entries: ReadonlyArray<readonly [string, Shown]>): TerminalText {
  const pad = Math.max(...entries.map(([k]) => k.length));
  return lines(...entries.map(([k, v]) => tty`${`${k}:`.padEnd(pad + 1)} ${v}`));
}
