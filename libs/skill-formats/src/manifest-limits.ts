/**
 * What a manifest may cost, checked before the work it would cost: nodes and nesting are counted
 * on YAML's syntax tree before it is composed (composing recurses once per level, and the check
 * for duplicate keys is quadratic in a map's size), and again on the parsed value, which is all a
 * JSON manifest has. Every string, map keys included, must be text PostgreSQL can store.
 */
import type { Problem } from '@skillhub/errors';
import { type CST, Parser } from 'yaml';
import { formatFieldPath, problemPath, type FieldPath } from './manifest-source';

/** Scalars and collections in one manifest (aliases counted where they are used). */
export const MAX_MANIFEST_NODES = 5_000;
/** Collections nested inside each other: a JSON schema in a manifest needs about ten. */
export const MAX_MANIFEST_DEPTH = 32;
/** Entries of a Kazma `tools` map. */
export const MAX_DECLARED_TOOLS = 256;
/** Entries of a Kazma `mcp_servers` list. */
export const MAX_MCP_SERVERS = 32;

export interface ManifestShape {
  nodes: number;
  depth: number;
}

/** A NUL cannot go into a PostgreSQL text column; an unpaired surrogate is not Unicode (jsonb refuses it). */
const NUL = '\u0000';
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored as text, or null when it can. */
export function unstorableReason(text: string): string | null {
  if (text.includes(NUL)) return 'holds a NUL character (U+0000)';
  const surrogate = UNPAIRED_SURROGATE.exec(text);
  if (surrogate) {
    const code = surrogate[0].charCodeAt(0).toString(16).toUpperCase();
    return `holds an unpaired UTF-16 surrogate (U+${code}), which is not Unicode text`;
  }
  return null;
}

export interface UnstorableText {
  /** Where the string is; for a map key, the path of the entry it names. */
  path: FieldPath;
  /** Reads after the field's name, e.g. "holds a NUL character (U+0000)". */
  reason: string;
  key: boolean;
}

/**
 * Every string of a JSON-like value (keys included) that cannot be stored as text. Walked with an
 * explicit stack, so no nesting can overflow it, in time linear in its size; a value used twice
 * (a YAML alias) is walked at each use, so bound the value first (`measureValue`) when it may be a graph.
 */
export function findUnstorableText(value: unknown): UnstorableText[] {
  const found: UnstorableText[] = [];
  walk(value, (node, at, key) => {
    const reason = unstorableReason(key ?? (typeof node === 'string' ? node : ''));
    if (reason) found.push({ path: pathOf(at), reason, key: key !== undefined });
  });
  return found;
}

/** Nodes and depth of YAML text, read from its syntax tree only (nothing composed). */
export function measureYaml(text: string): ManifestShape {
  const shape: ManifestShape = { nodes: 0, depth: 0 };
  const stack: Array<{ token: CST.Token | null | undefined; depth: number }> = [];
  for (const token of new Parser().parse(text)) stack.push({ token, depth: 0 });
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { token, depth } = next;
    if (!token) continue;
    switch (token.type) {
      case 'document':
        stack.push({ token: token.value, depth });
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection':
        shape.nodes++;
        shape.depth = Math.max(shape.depth, depth + 1);
        for (const item of token.items) {
          if ('key' in item) stack.push({ token: item.key, depth: depth + 1 });
          stack.push({ token: item.value, depth: depth + 1 });
        }
        break;
      case 'alias':
      case 'scalar':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
      case 'block-scalar':
        shape.nodes++;
        break;
      default:
        break;
    }
    // Past either limit the answer is known: stop reading.
    if (shape.nodes > MAX_MANIFEST_NODES || shape.depth > MAX_MANIFEST_DEPTH) break;
  }
  return shape;
}

/** Nodes (keys included) and depth of a parsed value; a value used twice (a YAML alias) counts twice. */
export function measureValue(value: unknown): ManifestShape {
  const shape: ManifestShape = { nodes: 0, depth: 0 };
  walk(value, (node, at, key) => {
    shape.nodes++;
    if (key === undefined && isCollection(node)) shape.depth = Math.max(shape.depth, at.depth + 1);
    return shape.nodes <= MAX_MANIFEST_NODES && shape.depth <= MAX_MANIFEST_DEPTH;
  });
  return shape;
}

/** The problem of a manifest over a limit, or null. */
export function shapeProblem(shape: ManifestShape, file: string): Problem | null {
  if (shape.depth > MAX_MANIFEST_DEPTH) {
    return error(file, `The manifest nests lists and maps deeper than ${MAX_MANIFEST_DEPTH} levels`);
  }
  if (shape.nodes > MAX_MANIFEST_NODES) {
    return error(file, `The manifest has more than ${MAX_MANIFEST_NODES} values (keys, scalars, lists and maps)`);
  }
  return null;
}

/**
 * Checks a parsed manifest against every limit: its shape first (so nothing walks an oversized
 * tree twice), then its text. Returns false when it broke one; each problem names its field.
 */
export function checkManifestValue(
  root: unknown,
  file: string,
  problems: Problem[],
  lineOf: (path: FieldPath) => number | undefined = () => undefined,
): boolean {
  const shape = shapeProblem(measureValue(root), file);
  if (shape) {
    problems.push(shape);
    return false;
  }
  const unstorable = findUnstorableText(root);
  for (const { path, reason, key } of unstorable) {
    const what = key ? `The key of ${formatFieldPath(path)}` : formatFieldPath(path) || 'The manifest';
    const line = lineOf(path);
    problems.push(error(problemPath(file, path), `${what} ${reason}${line === undefined ? '' : ` (line ${line})`}`));
  }
  return unstorable.length === 0;
}

/** Where the walk is: a link to the parent, so a step costs nothing until a path is asked for. */
interface Position {
  parent: Position | null;
  step: string | number;
  depth: number;
}

const ROOT: Position = { parent: null, step: '', depth: 0 };

function pathOf(at: Position): FieldPath {
  const path: Array<string | number> = [];
  for (let p: Position | null = at; p && p !== ROOT; p = p.parent) path.push(p.step);
  return path.reverse();
}

/** Sees a value, or (with `key` set) the key naming the entry at `at`; returning false stops the walk. */
type Visit = (node: unknown, at: Position, key?: string) => boolean | void;

/** Depth-first, in document order (a key before its value), with an explicit stack. */
function walk(value: unknown, visit: Visit): void {
  const stack: Array<{ node: unknown; at: Position; key?: string }> = [{ node: value, at: ROOT }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { node, at, key } = next;
    if (visit(node, at, key) === false) return;
    if (key !== undefined) continue;
    const depth = at.depth + 1;
    if (Array.isArray(node)) {
      for (let index = node.length - 1; index >= 0; index--) {
        stack.push({ node: node[index], at: { parent: at, step: index, depth } });
      }
    } else if (isCollection(node)) {
      const entries = Object.entries(node);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [name, child] = entries[index]!;
        const entry = { parent: at, step: name, depth };
        stack.push({ node: child, at: entry }, { node: undefined, at: entry, key: name });
      }
    }
  }
}

const isCollection = (value: unknown): value is object => typeof value === 'object' && value !== null;

function error(path: string, message: string): Problem {
  return { path, message, severity: 'error' };
}
