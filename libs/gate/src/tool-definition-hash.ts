/**
 * The tool-definition hash pinned in a certificate (docs/security.md, C13) and re-computed at
 * runtime: lowercase hex SHA-256 of the canonical JSON of the tool's name, description, input
 * schema and annotations. The certifier and the runtime must both use this module, or a byte of
 * difference in spelling would block every certified tool.
 *
 * The canonical JSON is `@skillhub/signing`'s, the one certificates are signed over (RFC 8785's
 * spelling, strict): a definition holding anything JSON cannot carry exactly (undefined, NaN, a
 * function, a Date, a cycle, nesting past its depth cap) throws NotCanonicalJsonError rather than
 * being hashed over a lossy rendering, which would pin something other than what the server
 * declared. A field that is absent and one that is `undefined` are the same here: only the four
 * hashed fields are picked, and only when present.
 *
 * Name, description, inputSchema and annotations are hashed (C13): what a model reads and
 * what a client may decide on. A server can still change a tool's `title` or `outputSchema`
 * without tripping the pin.
 */
import { sha256Hex } from '@skillhub/bundle';
import { canonicalJson, NotCanonicalJsonError } from '@skillhub/signing';

export interface ToolDefinition {
  /** The raw tool name as the server declares it (not the `mcp__` namespaced one). */
  name: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: unknown;
}

/** How a pinned hash is spelled: 64 lowercase hex characters. */
export const TOOL_DEFINITION_HASH_PATTERN = /^[0-9a-f]{64}$/;

export const isToolDefinitionHash = (value: unknown): value is string =>
  typeof value === 'string' && value.length === 64 && TOOL_DEFINITION_HASH_PATTERN.test(value);

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
  return sha256Hex(canonicalToolJson(def));
}
