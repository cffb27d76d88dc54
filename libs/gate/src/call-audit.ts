/**
 * What the runtime's audit trail records of one tool call, from SwarmKit's `audit` block and
 * `constraints.max_latency_ms`:
 *   - `audit.log_inputs` / `audit.log_outputs`: `full` records the value, `summary` only its shape
 *     (argument names and sizes, result parts and sizes), `none` nothing. Unset, SwarmKit's default
 *     for the skill's category: a summary, but a decision's outputs in full (its verdict and
 *     reasoning are what an audit is for) and none of a persistence skill's (the write is the
 *     event); a summary for servers no skill governs;
 *   - `audit.redact`: paths such as `$.password`, `$.user.token` or `$.items[*].secret` whose
 *     values a full record replaces with "[redacted]". Whatever the skill says, values under keys
 *     that name a secret (password, token, api_key, authorization…) are redacted too, and a path
 *     the runtime cannot read makes that side a summary: an audit trail must not leak what the
 *     skill asked to hide because its path was misspelt;
 *   - `constraints.max_latency_ms`: a latency budget, not a timeout (that is `timeout_seconds`):
 *     a call that takes longer still answers, and its record says it went over.
 * Full values are cut to MAX_AUDIT_VALUE_BYTES of JSON, so one call cannot fill the trail.
 * Pure: the gateway measures the call and writes the record.
 */
export const AUDIT_LEVELS = Object.freeze(['full', 'summary', 'none'] as const);
export type AuditLevel = (typeof AUDIT_LEVELS)[number];

/** The most JSON one recorded value may take; a longer one is cut and says so. */
export const MAX_AUDIT_VALUE_BYTES = 4_096;
/** Keys whose values a full record never shows. */
const SECRET_KEY = /pass(word|phrase)?|secret|token|api[-_]?key|auth(orization)?|credential|private[-_]?key|cookie/i;
const REDACTED = '[redacted]';

/** One step of a redact path: a key, or every element/key (`[*]`, `.*`). */
type Step = { key: string } | { every: true };

export interface AuditPolicy {
  inputs: AuditLevel;
  outputs: AuditLevel;
  redact: Step[][];
  /** `constraints.max_latency_ms`; null: no budget. */
  maxLatencyMs: number | null;
  /** What of the skill's `audit` could not be read, and what the runtime does instead. */
  problems: string[];
}

/** For servers no skill governs: shapes only, no budget. */
export const DEFAULT_AUDIT_POLICY: AuditPolicy = Object.freeze({
  inputs: 'summary',
  outputs: 'summary',
  redact: [],
  maxLatencyMs: null,
  problems: [],
}) as AuditPolicy;

/** SwarmKit's defaults by skill category (its human-interaction model); a summary otherwise. */
const CATEGORY_DEFAULTS: Readonly<Record<string, { inputs: AuditLevel; outputs: AuditLevel }>> = {
  decision: { inputs: 'summary', outputs: 'full' },
  persistence: { inputs: 'summary', outputs: 'none' },
};

/** A skill's `audit` and `constraints` as its manifest gives them (read defensively), and its category. */
export function readAuditPolicy(audit: unknown, constraints: unknown, category: string | null = null): AuditPolicy {
  const given = record(audit);
  const problems: string[] = [];
  const defaults = (category !== null && CATEGORY_DEFAULTS[category]) || DEFAULT_AUDIT_POLICY;
  let inputs = level(given.log_inputs, defaults.inputs);
  let outputs = level(given.log_outputs, defaults.outputs);
  const redact: Step[][] = [];
  for (const path of Array.isArray(given.redact) ? given.redact : []) {
    const steps = typeof path === 'string' ? parseRedactPath(path) : null;
    if (steps) {
      redact.push(steps);
      continue;
    }
    problems.push(`audit.redact ${JSON.stringify(path)} is not a path like $.field or $.list[*].field`);
    if (inputs === 'full') inputs = 'summary';
    if (outputs === 'full') outputs = 'summary';
  }
  if (problems.length > 0) problems.push('so inputs and outputs are recorded as summaries only');
  const budget = record(constraints).max_latency_ms;
  const maxLatencyMs = Number.isInteger(budget) && (budget as number) >= 1 ? (budget as number) : null;
  return { inputs, outputs, redact, maxLatencyMs, problems };
}

/** `$`, then `.key`, `['key']`, `["key"]`, `[*]` or `.*` steps. */
export function parseRedactPath(path: string): Step[] | null {
  if (path.length > 256 || !path.startsWith('$')) return null;
  const steps: Step[] = [];
  const step = /\.([A-Za-z_$][\w$-]*)|\.\*|\[\*\]|\['([^'\\]*)'\]|\["([^"\\]*)"\]/y;
  step.lastIndex = 1;
  while (step.lastIndex < path.length) {
    const start = step.lastIndex;
    const match = step.exec(path);
    if (!match || match.index !== start) return null;
    const key = match[1] ?? match[2] ?? match[3];
    steps.push(key === undefined ? { every: true } : { key });
  }
  return steps.length > 0 ? steps : null;
}

/** What the record shows of a call's arguments or result at `level`; undefined: nothing. */
export function auditView(value: unknown, level: AuditLevel, redact: readonly Step[][]): unknown {
  if (level === 'none') return undefined;
  if (level === 'summary') return summary(value);
  const shown = redactSecrets(value);
  for (const path of redact) redactPath(shown, path);
  const json = JSON.stringify(shown) ?? 'null';
  if (Buffer.byteLength(json) <= MAX_AUDIT_VALUE_BYTES) return shown;
  return { truncated: true, bytes: Buffer.byteLength(json), start: json.slice(0, MAX_AUDIT_VALUE_BYTES / 2) };
}

/** Names and sizes, never values: arguments' keys, a result's parts. */
function summary(value: unknown): unknown {
  if (Array.isArray(value)) return { items: value.length, bytes: jsonBytes(value) };
  if (typeof value !== 'object' || value === null) return { bytes: jsonBytes(value) };
  const object = value as Record<string, unknown>;
  if (Array.isArray(object.content)) {
    return {
      isError: object.isError === true,
      content: (object.content as unknown[]).map((part) => ({
        type: record(part).type ?? null,
        bytes: jsonBytes(part),
      })),
    };
  }
  return { keys: Object.keys(object).sort(), bytes: jsonBytes(value) };
}

/** A copy with every value under a secret-naming key replaced. */
function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 64) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = SECRET_KEY.test(key) ? REDACTED : redactSecrets(item, depth + 1);
  }
  return copy;
}

/** Replaces, in place, what `path` reaches in `value` (a fresh copy). */
function redactPath(value: unknown, path: readonly Step[]): void {
  const [step, ...rest] = path;
  if (!step || typeof value !== 'object' || value === null) return;
  const container = value as Record<string, unknown>;
  const keys = 'every' in step ? Object.keys(container) : Object.hasOwn(container, step.key) ? [step.key] : [];
  for (const key of keys) {
    if (rest.length === 0) container[key] = REDACTED;
    else redactPath(container[key], rest);
  }
}

function jsonBytes(value: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? '');
  } catch {
    return 0;
  }
}

const level = (value: unknown, otherwise: AuditLevel): AuditLevel =>
  (AUDIT_LEVELS as readonly unknown[]).includes(value) ? (value as AuditLevel) : otherwise;

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
