/**
 * `mcp__<server>__<tool>`: the name a model sees for a tool of an MCP server (docs/kazma.md).
 *
 * The split rule, which both directions honour: the server is everything between the
 * `mcp__` prefix and the FIRST `__` after it; the tool is everything after that `__`.
 * For that to give back exactly what `namespacedToolName` joined, a server name must
 * contain no `__` and must neither start nor end with `_` (`svc_` + `__` + `x` would read
 * back as server `svc`, tool `_x`). Single underscores inside a server name are fine
 * (`get_status_svc`). The tool part may contain anything the MCP spec allows, `__`
 * included, because nothing is split after the first separator.
 */
import { InvalidToolNameError } from './gate.errors';

export const NAMESPACE_PREFIX = 'mcp__';
export const NAMESPACE_SEPARATOR = '__';
export const MAX_SERVER_NAME_LENGTH = 64;
/** The MCP spec's limit for a tool name. */
export const MAX_TOOL_NAME_LENGTH = 128;
export const MAX_NAMESPACED_TOOL_NAME_LENGTH =
  NAMESPACE_PREFIX.length + MAX_SERVER_NAME_LENGTH + NAMESPACE_SEPARATOR.length + MAX_TOOL_NAME_LENGTH;

export interface NamespacedToolName {
  server: string;
  tool: string;
}

// Server names become part of identifiers a model API accepts (`^[a-zA-Z0-9_-]+$`), so no dots.
const SERVER_NAME_CHARS = /^[A-Za-z0-9_-]+$/;
// The MCP spec's tool-name alphabet.
const TOOL_NAME_CHARS = /^[A-Za-z0-9_.-]+$/;

/** Why `name` cannot be a server name, or null when it can. */
export function serverNameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || name.length === 0) return 'a server name must be a non-empty string';
  // Length first: no regex ever runs on an unbounded string.
  if (name.length > MAX_SERVER_NAME_LENGTH) return `a server name is at most ${MAX_SERVER_NAME_LENGTH} characters`;
  if (!SERVER_NAME_CHARS.test(name)) return 'a server name uses only letters, digits, "_" and "-"';
  if (name.includes(NAMESPACE_SEPARATOR))
    return 'a server name must not contain "__" (it would make the split ambiguous)';
  if (name.startsWith('_') || name.endsWith('_')) {
    return 'a server name must not start or end with "_" (it would merge with the "__" separator)';
  }
  return null;
}

/** Why `name` cannot be a (raw) tool name, or null when it can. */
export function toolNameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || name.length === 0) return 'a tool name must be a non-empty string';
  if (name.length > MAX_TOOL_NAME_LENGTH) return `a tool name is at most ${MAX_TOOL_NAME_LENGTH} characters`;
  if (!TOOL_NAME_CHARS.test(name)) return 'a tool name uses only letters, digits, "_", "-" and "."';
  return null;
}

export const isValidServerName = (name: unknown): name is string => serverNameProblem(name) === null;
export const isValidToolName = (name: unknown): name is string => toolNameProblem(name) === null;

/** `mcp__<server>__<tool>`; throws `InvalidToolNameError` for a name the split could not give back. */
export function namespacedToolName(server: string, tool: string): string {
  const serverProblem = serverNameProblem(server);
  if (serverProblem) throw new InvalidToolNameError(`invalid server name: ${serverProblem}`, 'server');
  const toolProblem = toolNameProblem(tool);
  if (toolProblem) throw new InvalidToolNameError(`invalid tool name: ${toolProblem}`, 'tool');
  return `${NAMESPACE_PREFIX}${server}${NAMESPACE_SEPARATOR}${tool}`;
}

/**
 * The inverse of `namespacedToolName`, and just as strict: the prefix is matched
 * case-sensitively and both parts must be valid, otherwise null. (Classification uses
 * its own, lenient stripping so that a malformed or oddly-cased prefix cannot make a
 * tool look safe; routing wants the exact name it handed out.)
 */
export function parseNamespacedToolName(name: unknown): NamespacedToolName | null {
  if (typeof name !== 'string' || name.length > MAX_NAMESPACED_TOOL_NAME_LENGTH) return null;
  if (!name.startsWith(NAMESPACE_PREFIX)) return null;
  const rest = name.slice(NAMESPACE_PREFIX.length);
  const at = rest.indexOf(NAMESPACE_SEPARATOR);
  if (at < 0) return null;
  const server = rest.slice(0, at);
  const tool = rest.slice(at + NAMESPACE_SEPARATOR.length);
  if (!isValidServerName(server) || !isValidToolName(tool)) return null;
  return { server, tool };
}
