/**
 * The abstract values the Python analyser computes for expressions: what a name, call or string
 * can be (every alternative, when a name is bound more than once), never less than it can be.
 */

/** Taint bits: where a value's content came from. */
/** Decoded, decompressed, reversed or built with chr(): a payload hidden from a reader. */
export const DECODED = 1;
/** Fetched over the network. */
export const DOWNLOADED = 2;

/**
 * Where a path points: relative to the working directory, inside the skill's own folder (built
 * from `__file__`), under the user's home, absolute, in the temporary directory, or unknown.
 */
export type PathRoot = 'relative' | 'skill' | 'home' | 'absolute' | 'temp' | 'computed';

/** A path as far as it is known: unknown parts are `*`. */
export interface PathInfo {
  root: PathRoot;
  text: string;
  /** For an open file: which file it is, to match a download written to it with a later run of it. */
  key?: string;
}

export type Value =
  /** A module, function, class or call result of a known origin: `os`, `os.system`, `socket.socket()`. */
  | { kind: 'ref'; name: string; taint: number; path?: PathInfo }
  /** A constant string or bytes, folded. */
  | { kind: 'str'; text: string; taint: number }
  | { kind: 'int'; value: number }
  /** True, False or None. */
  | { kind: 'const'; value: boolean | null }
  /** A list or tuple display with its items (a walk of a folder tree is one item that stands for each). */
  | { kind: 'seq'; items: Value[]; taint: number }
  /** A dictionary display with its keys and values, pair by pair. */
  | { kind: 'dict'; keys: Value[]; values: Value[]; taint: number }
  /** Computed at run time. */
  | { kind: 'unknown'; taint: number; path?: PathInfo }
  /** One of several values (a name bound more than once, `a if c else b`). */
  | { kind: 'union'; options: Value[] };

export const UNKNOWN: Value = { kind: 'unknown', taint: 0 };

export const ref = (name: string, taint = 0, path?: PathInfo): Value =>
  path ? { kind: 'ref', name, taint, path } : { kind: 'ref', name, taint };
export const str = (text: string, taint = 0): Value => ({ kind: 'str', text, taint });
export const unknown = (taint = 0, path?: PathInfo): Value =>
  taint === 0 && !path ? UNKNOWN : path ? { kind: 'unknown', taint, path } : { kind: 'unknown', taint };

/** The alternatives of a value (itself when it has one). */
export const alternatives = (value: Value): readonly Value[] => (value.kind === 'union' ? value.options : [value]);

export function taintOf(value: Value): number {
  switch (value.kind) {
    case 'union':
      return value.options.reduce((taint, option) => taint | taintOf(option), 0);
    case 'int':
    case 'const':
      return 0;
    case 'seq':
      return value.items.reduce((taint, item) => taint | taintOf(item), value.taint);
    case 'dict':
      return [...value.keys, ...value.values].reduce((taint, item) => taint | taintOf(item), value.taint);
    default:
      return value.taint;
  }
}

/** Alternatives kept per value; beyond it the references are kept and the rest becomes unknown. */
export const MAX_OPTIONS = 32;

export function union(values: readonly Value[]): Value {
  const options: Value[] = [];
  const seen = new Set<string>();
  let overflowTaint = -1;
  for (const value of values.flatMap(alternatives)) {
    const key = identity(value);
    if (key !== null && seen.has(key)) continue;
    if (key !== null) seen.add(key);
    if (options.length >= MAX_OPTIONS && value.kind !== 'ref') {
      overflowTaint = Math.max(overflowTaint, 0) | taintOf(value);
      continue;
    }
    options.push(value);
  }
  if (overflowTaint >= 0) options.push(unknown(overflowTaint));
  if (options.length === 0) return UNKNOWN;
  return options.length === 1 ? (options[0] as Value) : { kind: 'union', options };
}

function identity(value: Value): string | null {
  switch (value.kind) {
    case 'ref':
      return value.path ? null : `r${value.taint}:${value.name}`;
    case 'str':
      return `s${value.taint}:${value.text}`;
    case 'int':
      return `i${value.value}`;
    case 'const':
      return `c${String(value.value)}`;
    case 'unknown':
      return value.path ? null : `u${value.taint}`;
    default:
      return null;
  }
}

/** The constant strings a value can be, or null when one of its alternatives is not a constant. */
export function constantStrings(value: Value): string[] | null {
  const texts: string[] = [];
  for (const option of alternatives(value)) {
    if (option.kind !== 'str') return null;
    texts.push(option.text);
  }
  return texts;
}

/** The single constant string a value is, if it is one. */
export const constantString = (value: Value): string | null => (value.kind === 'str' ? value.text : null);

/** The qualified names a value can refer to. */
export const refNames = (value: Value): string[] =>
  alternatives(value).flatMap((option) => (option.kind === 'ref' ? [option.name] : []));

/**
 * What iterating a value gives, one alternative per item: a list's or tuple's items, a
 * dictionary's keys; anything else is computed.
 */
export function elementsOf(value: Value): Value {
  return union(
    alternatives(value).map((option) => {
      if (option.kind === 'seq') return option.items.length > 0 ? union(option.items) : unknown(option.taint);
      if (option.kind === 'dict') return option.keys.length > 0 ? union(option.keys) : unknown(option.taint);
      return unknown(taintOf(option));
    }),
  );
}

/** Item `index` of each tuple a value can be (`a, b = pair`); anything else is computed. */
export const itemAt = (value: Value, index: number): Value =>
  union(
    alternatives(value).map((option) =>
      option.kind === 'seq' ? (option.items[index] ?? unknown(option.taint)) : unknown(taintOf(option)),
    ),
  );

/**
 * Every combination of the alternatives of some values (`os.path.join(base, name)` with two
 * names is two paths), at most `limit`; null when there are more.
 */
export function combinations(values: readonly Value[], limit = MAX_OPTIONS): Value[][] | null {
  let result: Value[][] = [[]];
  for (const value of values) {
    const options = alternatives(value);
    if (result.length * options.length > limit) return null;
    result = result.flatMap((combination) => options.map((option) => [...combination, option]));
  }
  return result;
}
