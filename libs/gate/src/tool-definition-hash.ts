/**
 * The tool-definition hash pinned in a certificate (security.md C13) and re-computed at
 * runtime: lowercase hex SHA-256 of the canonical JSON of the tool's name, description,
 * input schema and annotations. The certifier and the runtime must both use this module, or a
 * byte of difference in spelling would block every certified tool.
 *
 * Canonical JSON here: object keys sorted by UTF-16 code units, recursively; array order
 * kept; no whitespace; strings and numbers spelled as `JSON.stringify` spells them. For
 * the JSON values a server sends this is the RFC 8785 (JCS) spelling. Anything without a
 * JSON spelling (undefined inside an array, functions, symbols, bigints, NaN/Infinity,
 * Dates and other non-plain objects, cycles, nesting deeper than MAX_JSON_DEPTH) throws
 * rather than being silently dropped or coerced: a hash over a lossy rendering would pin
 * something other than what the server declared. An object property whose value is
 * `undefined` is treated as absent, as it is in JSON.
 *
 * Name, description, inputSchema and annotations are hashed (C13): what a model reads and
 * what a client may decide on. A server can still change a tool's `title` or `outputSchema`
 * without tripping the pin.
 */
import { createHash } from 'node:crypto';
import { NotCanonicalJsonError } from './gate.errors';

export interface ToolDefinition {
  /** The raw tool name as the server declares it (not the `mcp__` namespaced one). */
  name: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: unknown;
}

/** How a pinned hash is spelled: 64 lowercase hex characters. */
export const TOOL_DEFINITION_HASH_PATTERN = /^[0-9a-f]{64}$/;

/** Deeper than any real input schema; keeps recursion far from the stack limit. */
export const MAX_JSON_DEPTH = 100;

export const isToolDefinitionHash = (value: unknown): value is string =>
  typeof value === 'string' && value.length === 64 && TOOL_DEFINITION_HASH_PATTERN.test(value);

/** Deterministic JSON of any JSON value (see the file header for the exact rules). */
export function canonicalJson(value: unknown): string {
  return write(value, '$', 0, new Set());
}

/** The canonical JSON of the four hashed fields of a tool; other fields are ignored. */
export function canonicalToolJson(def: ToolDefinition): string {
  if (def === null || typeof def !== 'object')
    throw new NotCanonicalJsonError('a tool definition must be an object', '$');
  const name: unknown = def.name;
  const description: unknown = def.description;
  const inputSchema: unknown = def.inputSchema;
  const annotations: unknown = def.annotations;
  if (typeof name !== 'string') throw new NotCanonicalJsonError('a tool definition needs a string name', '$.name');
  if (description !== undefined && typeof description !== 'string') {
    throw new NotCanonicalJsonError('a tool description must be a string when present', '$.description');
  }
  const picked: Record<string, unknown> = { name };
  if (description !== undefined) picked.description = description;
  if (inputSchema !== undefined) picked.inputSchema = inputSchema;
  if (annotations !== undefined) picked.annotations = annotations;
  return canonicalJson(picked);
}

/** Lowercase hex SHA-256 of `canonicalToolJson(def)` in UTF-8. */
export function toolDefinitionHash(def: ToolDefinition): string {
  return createHash('sha256').update(canonicalToolJson(def), 'utf8').digest('hex');
}

function write(value: unknown, path: string, depth: number, ancestors: Set<object>): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new NotCanonicalJsonError(`${String(value)} has no JSON spelling`, path);
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new NotCanonicalJsonError(`a ${typeof value} has no JSON spelling`, path);
  }

  if (depth >= MAX_JSON_DEPTH) throw new NotCanonicalJsonError(`nested deeper than ${MAX_JSON_DEPTH} levels`, path);
  if (ancestors.has(value)) throw new NotCanonicalJsonError('a cycle has no JSON spelling', path);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const items: string[] = [];
      for (let i = 0; i < value.length; i += 1) {
        const item: unknown = value[i];
        if (item === undefined)
          throw new NotCanonicalJsonError('undefined has no JSON spelling in an array', `${path}[${i}]`);
        items.push(write(item, `${path}[${i}]`, depth + 1, ancestors));
      }
      return `[${items.join(',')}]`;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new NotCanonicalJsonError('only plain objects have a JSON spelling', path);
    }
    const record = value as Record<string, unknown>;
    const members: string[] = [];
    // Default sort compares UTF-16 code units, which is the order RFC 8785 prescribes.
    for (const key of Object.keys(record).sort()) {
      const member = record[key];
      if (member === undefined) continue;
      members.push(`${JSON.stringify(key)}:${write(member, `${path}.${key}`, depth + 1, ancestors)}`);
    }
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}
