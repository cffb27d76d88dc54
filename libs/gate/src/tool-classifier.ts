/**
 * Classifies an MCP tool by its name, exactly as docs/kazma.md gives it from Kazma's current
 * `classify_mcp_tool` (the stricter of its two rule sets):
 *
 *   1. classify the raw tool name only: strip an `mcp__<server>__` prefix first, then lower-case;
 *   2. danger when the name contains, as a substring, any danger keyword or sensitive word;
 *   3. else safe when a whole token (split on anything not [a-z0-9]) is a safe token;
 *   4. else unknown, which callers treat as danger.
 *
 * Prefix stripping: the `mcp__` prefix is recognised case-insensitively here (otherwise
 * `MCP__get_status_svc__frobnicate` would lower-case into tokens `get`, `status` and read
 * as safe), and the split is at the first `__` after it — the same rule `tool-name.ts`
 * documents. The server part never counts, in either direction: the contract classifies
 * the raw tool name only. A name that starts with `mcp__` but has no non-empty server
 * and tool parts cannot be split, so it is never safe: danger if a keyword occurs
 * anywhere in it, otherwise unknown.
 *
 * Two additions, both only ever tighten and neither changes any ASCII name's result
 * (the contract's examples and the keyword tables hold unchanged):
 *   - the danger check also runs on a folded spelling (NFKD, combining marks and
 *     invisible format characters removed), so `ｄｅｌｅｔｅ` or `de\u200Blete` is danger;
 *   - a raw name with any non-ASCII character is never safe (it cannot earn `safe`
 *     through a look-alike or an invisible separator), so it is unknown unless danger.
 * Names over MAX_CLASSIFIED_NAME_LENGTH are only substring-checked, never tokenised:
 * no regex runs on an unbounded string.
 */
import { NAMESPACE_PREFIX, NAMESPACE_SEPARATOR } from './tool-name';

export type ToolClass = 'safe' | 'danger' | 'unknown';

/** docs/kazma.md, classification rule 2, in the contract's order. Substrings: `get_runner` contains `run`. */
export const DANGER_KEYWORDS = Object.freeze([
  'write',
  'delete',
  'remove',
  'exec',
  'run',
  'shell',
  'bash',
  'command',
  'kill',
  'terminate',
  'install',
  'deploy',
  'upload',
  'download',
  'fetch',
  'request',
  'post',
  'put',
  'patch',
  'replace',
  'rename',
  'create',
  'update',
  'modify',
  'alter',
  'truncate',
  'drop',
  'grant',
  'revoke',
  'clear',
  'purge',
  'wipe',
  'overwrite',
  'reset',
] as const);

/** docs/kazma.md, classification rule 2, the sensitive words: they make a name danger too (`get_secret`). */
export const SENSITIVE_WORDS = Object.freeze([
  'secret',
  'password',
  'passwd',
  'credential',
  'token',
  'apikey',
  'api_key',
  'private',
  'private_key',
  'vault',
  'auth',
  'cookie',
  'session_key',
] as const);

/** docs/kazma.md, classification rule 3. Whole tokens only: `frobnicate` contains `cat` and is not safe. */
export const SAFE_TOKENS = Object.freeze([
  'read',
  'list',
  'search',
  'get',
  'info',
  'status',
  'check',
  'describe',
  'query',
  'count',
  'exists',
  'help',
  'tree',
  'find',
  'show',
  'cat',
  'view',
] as const);

export type DangerKeyword = (typeof DANGER_KEYWORDS)[number];
export type SensitiveWord = (typeof SENSITIVE_WORDS)[number];
export type SafeToken = (typeof SAFE_TOKENS)[number];

/** Longer names are substring-checked for danger only (never safe). MCP caps tool names at 128. */
export const MAX_CLASSIFIED_NAME_LENGTH = 1024;

export type ClassificationRule =
  | 'danger-keyword'
  | 'sensitive-word'
  | 'safe-token'
  | 'no-keyword'
  | 'malformed-namespace'
  | 'non-ascii'
  | 'too-long'
  | 'not-a-string';

export interface ToolClassification {
  toolClass: ToolClass;
  /** The part that was classified: the name with its `mcp__<server>__` prefix removed, original case. */
  rawName: string;
  rule: ClassificationRule;
  /** The keyword, sensitive word or safe token that decided, when one did. */
  matched?: string;
}

const SAFE_TOKEN_SET: ReadonlySet<string> = new Set(SAFE_TOKENS);
const NON_ASCII = /[\u0080-\u{10FFFF}]/u;
const TOKEN_SEPARATOR = /[^a-z0-9]+/;
const MARKS_AND_FORMAT_CHARS = /[\p{M}\p{Cf}]/gu;

/** `classifyTool` with the rule that decided and the word that triggered it (for audit reasons). */
export function explainToolClass(name: string): ToolClassification {
  if (typeof name !== 'string') return { toolClass: 'unknown', rawName: '', rule: 'not-a-string' };

  const stripped = stripNamespace(name);
  const raw = stripped.raw;
  const lowered = raw.toLowerCase();
  const tooLong = raw.length > MAX_CLASSIFIED_NAME_LENGTH;
  const folded = tooLong ? lowered : fold(raw);

  for (const keyword of DANGER_KEYWORDS) {
    if (lowered.includes(keyword) || folded.includes(keyword)) {
      return { toolClass: 'danger', rawName: raw, rule: 'danger-keyword', matched: keyword };
    }
  }
  for (const word of SENSITIVE_WORDS) {
    if (lowered.includes(word) || folded.includes(word)) {
      return { toolClass: 'danger', rawName: raw, rule: 'sensitive-word', matched: word };
    }
  }

  if (stripped.malformed) return { toolClass: 'unknown', rawName: raw, rule: 'malformed-namespace' };
  if (tooLong) return { toolClass: 'unknown', rawName: raw, rule: 'too-long' };
  if (NON_ASCII.test(raw)) return { toolClass: 'unknown', rawName: raw, rule: 'non-ascii' };

  const safe = lowered.split(TOKEN_SEPARATOR).find((token) => SAFE_TOKEN_SET.has(token));
  if (safe !== undefined) return { toolClass: 'safe', rawName: raw, rule: 'safe-token', matched: safe };
  return { toolClass: 'unknown', rawName: raw, rule: 'no-keyword' };
}

/** 'safe' | 'danger' | 'unknown' per docs/kazma.md; `unknown` must be gated like `danger`. */
export function classifyTool(name: string): ToolClass {
  return explainToolClass(name).toolClass;
}

/** Needs approval unless trusted or approved: everything that is not provably safe by name. */
export const needsApprovalByClass = (toolClass: ToolClass): boolean => toolClass !== 'safe';

function stripNamespace(name: string): { raw: string; malformed: boolean } {
  if (!name.toLowerCase().startsWith(NAMESPACE_PREFIX)) return { raw: name, malformed: false };
  const rest = name.slice(NAMESPACE_PREFIX.length);
  const at = rest.indexOf(NAMESPACE_SEPARATOR);
  const tool = at > 0 ? rest.slice(at + NAMESPACE_SEPARATOR.length) : '';
  // No server, or no tool: there is no raw tool name to classify, so the whole name is kept.
  if (tool.length === 0) return { raw: name, malformed: true };
  return { raw: tool, malformed: false };
}

/** Compatibility-decomposed, marks and invisible format characters removed, lower-cased. */
function fold(raw: string): string {
  return raw.normalize('NFKD').replace(MARKS_AND_FORMAT_CHARS, '').toLowerCase();
}
