/**
 * Pre-approval from configuration: tools an operator lets run without asking, named
 * explicitly. A pattern is either an exact namespaced name (`mcp__fs__delete_file`) or a
 * whole server (`mcp__fs__*`). Nothing else: no regexes from config (docs/security.md), no
 * partial wildcards, because a pattern someone has to reason about is a pattern someone
 * gets wrong. Matching is case-sensitive, like MCP tool names.
 *
 * Validate once at start-up with `createPreApprovalPolicy` (it throws, listing every bad
 * pattern). `matchesPreApproval` never throws and skips a pattern that is not valid, so a
 * policy object that skipped validation can only match less, never more.
 */
import { InvalidPreApprovalPolicyError } from './gate.errors';
import { NAMESPACE_PREFIX, NAMESPACE_SEPARATOR, parseNamespacedToolName, serverNameProblem } from './tool-name';

export interface PreApprovalPolicy {
  readonly allow: readonly string[];
}

const SERVER_WILDCARD_SUFFIX = `${NAMESPACE_SEPARATOR}*`;
/** Guards start-up against a runaway config; real lists are a handful of entries. */
export const MAX_PRE_APPROVAL_PATTERNS = 1000;

/** The policy that pre-approves nothing. */
export const EMPTY_PRE_APPROVAL_POLICY: PreApprovalPolicy = Object.freeze({ allow: Object.freeze([]) });

/** Why `pattern` is not a valid pre-approval pattern, or null when it is. */
export function preApprovalPatternProblem(pattern: unknown): string | null {
  if (typeof pattern !== 'string') return 'a pattern must be a string';
  const server = serverOfWildcard(pattern);
  if (server !== null) {
    const problem = serverNameProblem(server);
    return problem ? `"${NAMESPACE_PREFIX}<server>__*" needs a valid server name: ${problem}` : null;
  }
  if (pattern.includes('*')) return 'the only wildcard is a whole server: "mcp__<server>__*"';
  return parseNamespacedToolName(pattern) === null
    ? 'a pattern is an exact "mcp__<server>__<tool>" name or "mcp__<server>__*"'
    : null;
}

/** A validated, frozen, de-duplicated policy; throws InvalidPreApprovalPolicyError listing every bad pattern. */
export function createPreApprovalPolicy(config: { allow?: readonly unknown[] | null }): PreApprovalPolicy {
  const allow: unknown = config?.allow ?? [];
  if (!Array.isArray(allow)) {
    throw new InvalidPreApprovalPolicyError([{ index: 0, pattern: String(allow), message: '"allow" must be a list' }]);
  }
  if (allow.length > MAX_PRE_APPROVAL_PATTERNS) {
    throw new InvalidPreApprovalPolicyError([
      { index: MAX_PRE_APPROVAL_PATTERNS, pattern: '', message: `at most ${MAX_PRE_APPROVAL_PATTERNS} patterns` },
    ]);
  }
  const bad: { index: number; pattern: string; message: string }[] = [];
  allow.forEach((pattern: unknown, index: number) => {
    const problem = preApprovalPatternProblem(pattern);
    if (problem) bad.push({ index, pattern: String(pattern), message: problem });
  });
  if (bad.length > 0) throw new InvalidPreApprovalPolicyError(bad);
  return Object.freeze({ allow: Object.freeze([...new Set(allow as string[])]) });
}

/** The first pattern of `policy` that pre-approves `namespacedName`, or null. Never throws. */
export function findPreApproval(policy: PreApprovalPolicy | null | undefined, namespacedName: string): string | null {
  try {
    const parsed = parseNamespacedToolName(namespacedName);
    const allow: unknown = policy?.allow;
    if (parsed === null || !Array.isArray(allow)) return null;
    for (const pattern of allow as unknown[]) {
      if (typeof pattern !== 'string' || preApprovalPatternProblem(pattern) !== null) continue;
      const server = serverOfWildcard(pattern);
      if (server !== null ? server === parsed.server : pattern === namespacedName) return pattern;
    }
    return null;
  } catch {
    // A hostile policy object (throwing getter, Proxy) approves nothing.
    return null;
  }
}

/** `namespacedName` is pre-approved by `policy`. */
export function matchesPreApproval(policy: PreApprovalPolicy | null | undefined, namespacedName: string): boolean {
  return findPreApproval(policy, namespacedName) !== null;
}

/** The server of a `mcp__<server>__*` pattern (not yet validated), or null for any other shape. */
function serverOfWildcard(pattern: string): string | null {
  if (!pattern.startsWith(NAMESPACE_PREFIX) || !pattern.endsWith(SERVER_WILDCARD_SUFFIX)) return null;
  if (pattern.length < NAMESPACE_PREFIX.length + SERVER_WILDCARD_SUFFIX.length) return null;
  return pattern.slice(NAMESPACE_PREFIX.length, -SERVER_WILDCARD_SUFFIX.length);
}
