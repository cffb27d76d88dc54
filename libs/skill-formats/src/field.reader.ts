/**
 * Typed access to a parsed manifest's fields, shared by every format's parser: each read checks
 * presence, type, length (before any pattern) and pattern, and records a Problem instead of
 * stopping, so a manifest's problems are all reported at once.
 */
import type { Problem } from '@skillhub/errors';
import { formatFieldPath, problemPath, type FieldPath, type ManifestSource } from './manifest-source';
import { scanText } from './text-hygiene';

export interface StringRule {
  /** Length cap, checked before the pattern so no regex runs on an oversized value. */
  max: number;
  /** Minimum length after trimming; 1 unless said otherwise (an empty string is as good as missing). */
  min?: number;
  pattern?: RegExp;
  /** Says what the pattern wants, for the message: "kebab-case (a-z, 0-9, -)". */
  patternHint?: string;
}

interface Presence {
  required?: boolean;
}

type ValueKind = 'string' | 'number' | 'true/false' | 'list' | 'map' | 'null';

/** Caps on echoed values, so a message never carries a huge or multi-line manifest value. */
const ECHO_MAX = 60;
const URL_MAX = 2048;

export class FieldReader {
  constructor(
    private readonly source: ManifestSource,
    private readonly problems: Problem[],
  ) {}

  /** Path of the manifest file inside the bundle. */
  get file(): string {
    return this.source.file;
  }

  /** The raw value at `path`; own properties only, so `constructor` or `__proto__` never leak in. */
  value(path: FieldPath): unknown {
    let current: unknown = this.source.root;
    for (const step of path) {
      if (typeof step === 'number') {
        if (!Array.isArray(current) || step >= current.length) return undefined;
        current = current[step];
      } else {
        if (kindOf(current) !== 'map' || !Object.hasOwn(current as object, step)) return undefined;
        current = (current as Record<string, unknown>)[step];
      }
    }
    return current;
  }

  has(path: FieldPath): boolean {
    return !isAbsent(this.value(path));
  }

  error(path: FieldPath, message: string): void {
    this.report(path, message, 'error');
  }

  warning(path: FieldPath, message: string): void {
    this.report(path, message, 'warning');
  }

  string(path: FieldPath, rule: StringRule & Presence): string | null {
    const value = this.typed(path, 'string', rule.required);
    if (typeof value !== 'string') return null;
    const min = rule.min ?? 1;
    if (value.length > rule.max) {
      this.error(path, `${label(path)} is ${value.length} characters long; at most ${rule.max} are allowed`);
      return null;
    }
    if (value.trim().length < min) {
      this.error(
        path,
        min === 1 ? `${label(path)} must not be empty` : `${label(path)} must be at least ${min} characters long`,
      );
      return null;
    }
    if (rule.pattern && !rule.pattern.test(value)) {
      this.error(
        path,
        `${label(path)} must be ${rule.patternHint ?? `like ${rule.pattern.source}`}, got ${echo(value)}`,
      );
      return null;
    }
    return value;
  }

  /** An absolute http(s) URL: anything else (`javascript:`, `file:`) is refused, links get rendered. */
  httpUrl(path: FieldPath, presence: Presence = {}): string | null {
    const url = this.string(path, { ...presence, max: URL_MAX });
    if (url === null || isHttpUrl(url)) return url;
    this.error(path, `${label(path)} must be an http:// or https:// URL, got ${echo(url)}`);
    return null;
  }

  /** A string that must be one of `allowed` (an enum). */
  oneOf<T extends string>(path: FieldPath, allowed: readonly T[], presence: Presence = {}): T | null {
    const value = this.typed(path, 'string', presence.required);
    if (typeof value !== 'string') return null;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.error(path, `${label(path)} must be one of ${allowed.join(', ')}; got ${echo(value)}`);
    return null;
  }

  map(path: FieldPath, presence: Presence = {}): Record<string, unknown> | null {
    const value = this.typed(path, 'map', presence.required);
    return kindOf(value) === 'map' ? (value as Record<string, unknown>) : null;
  }

  list(path: FieldPath, presence: Presence & { nonEmpty?: boolean } = {}): unknown[] | null {
    const value = this.typed(path, 'list', presence.required);
    if (!Array.isArray(value)) return null;
    if (presence.nonEmpty && value.length === 0) {
      this.error(path, `${label(path)} must list at least one entry`);
      return null;
    }
    return value;
  }

  /** A list of strings, each checked with `rule`; bad entries are reported and left out. */
  stringList(path: FieldPath, rule: StringRule & Presence): string[] {
    const items = this.list(path, rule);
    if (!items) return [];
    return items.flatMap((_, index) => this.string([...path, index], { ...rule, required: true }) ?? []);
  }

  boolean(path: FieldPath, presence: Presence = {}): boolean | null {
    const value = this.typed(path, 'true/false', presence.required);
    return typeof value === 'boolean' ? value : null;
  }

  /**
   * A map of names to strings (environment variables, Agent Skills metadata). Entries whose name
   * or value breaks its rule are reported and left out; `nonString` says how a value of another
   * type is reported. Built with `Object.fromEntries`, so a `__proto__` key stays a plain entry.
   */
  stringMap(
    path: FieldPath,
    rules: { key?: StringRule; value: StringRule; nonString?: Problem['severity'] },
  ): Record<string, string> {
    const map = this.map(path);
    if (!map) return {};
    const entries = Object.keys(map).flatMap((key): [string, string][] => {
      const at = [...path, key];
      if (rules.key && !this.matches(at, key, rules.key)) return [];
      if (rules.nonString === 'warning' && typeof map[key] !== 'string') {
        this.warning(at, `${label(at)} should be a string, got ${article(kindOf(map[key]))}; it is ignored`);
        return [];
      }
      const value = this.string(at, { ...rules.value, required: true });
      return value === null ? [] : [[key, value]];
    });
    return Object.fromEntries(entries);
  }

  integer(path: FieldPath, bounds: { min: number } & Presence): number | null {
    const value = this.typed(path, 'number', bounds.required);
    if (typeof value !== 'number') return null;
    if (!Number.isSafeInteger(value) || value < bounds.min) {
      this.error(path, `${label(path)} must be a whole number of at least ${bounds.min}, got ${echo(value)}`);
      return null;
    }
    return value;
  }

  /** A value that may take one of several shapes (e.g. a command as a string or a list). */
  either(path: FieldPath, kinds: readonly ValueKind[], presence: Presence = {}): unknown {
    const value = this.value(path);
    if (isAbsent(value)) {
      if (presence.required) this.error(path, `${label(path)} is required`);
      return undefined;
    }
    if (kinds.includes(kindOf(value))) return value;
    this.error(path, `${label(path)} must be ${kinds.map(article).join(' or ')}, got ${article(kindOf(value))}`);
    return undefined;
  }

  /** Reports every key of the map at `path` that is not in `allowed`. */
  onlyKeys(path: FieldPath, allowed: readonly string[], severity: Problem['severity'] = 'error'): void {
    const map = this.value(path);
    if (kindOf(map) !== 'map') return;
    for (const key of Object.keys(map as object)) {
      if (allowed.includes(key)) continue;
      const where = path.length === 0 ? 'at the top level' : `in ${formatFieldPath(path)}`;
      const outcome = severity === 'error' ? 'is not allowed' : 'is not known and is ignored';
      this.report([...path, key], `Field ${echo(key)} ${outcome} ${where}`, severity);
    }
  }

  /** Hidden characters and prompt-injection markers in free text (security check C12, first pass). */
  checkText(path: FieldPath, text: string): void {
    for (const finding of scanText(text)) {
      this.report(path, `${label(path)} ${finding.message}`, finding.severity);
    }
  }

  /** A map key checked like a string value: length first, then the pattern. */
  private matches(path: FieldPath, key: string, rule: StringRule): boolean {
    if (key.length > rule.max) {
      this.error(path, `The name ${echo(key)} is ${key.length} characters long; at most ${rule.max} are allowed`);
      return false;
    }
    if (rule.pattern && !rule.pattern.test(key)) {
      this.error(path, `The name ${echo(key)} must be ${rule.patternHint ?? `like ${rule.pattern.source}`}`);
      return false;
    }
    return true;
  }

  private typed(path: FieldPath, kind: ValueKind, required = false): unknown {
    const value = this.value(path);
    // A required field left empty (`tools: {x: }`) falls through to "must be a map, got nothing".
    if (value === undefined || (value === null && !required)) {
      if (required) this.error(path, `${label(path)} is required`);
      return undefined;
    }
    if (kindOf(value) !== kind) {
      this.error(path, `${label(path)} must be ${article(kind)}, got ${article(kindOf(value))}${echoScalar(value)}`);
      return undefined;
    }
    return value;
  }

  private report(path: FieldPath, message: string, severity: Problem['severity']): void {
    const line = this.source.lineOf(path);
    this.problems.push({
      path: problemPath(this.source.file, path),
      message: line === undefined ? message : `${message} (line ${line})`,
      severity,
    });
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** An empty YAML value (`homepage:`) counts as an absent field. */
function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

export function kindOf(value: unknown): ValueKind {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'true/false';
    default:
      return 'map';
  }
}

/** A value quoted for a message, cut short and with control characters escaped. */
export function echo(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > ECHO_MAX ? `${text.slice(0, ECHO_MAX)}…` : text;
}

function echoScalar(value: unknown): string {
  return typeof value === 'number' || typeof value === 'boolean' ? ` (${echo(value)})` : '';
}

function label(path: FieldPath): string {
  return path.length === 0 ? 'The manifest' : formatFieldPath(path);
}

function article(kind: ValueKind): string {
  if (kind === 'null') return 'nothing';
  if (kind === 'true/false') return 'true or false';
  return kind === 'list' ? 'a list' : `a ${kind}`;
}
