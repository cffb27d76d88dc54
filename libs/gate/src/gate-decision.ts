/**
 * The decision for one MCP tool call: allow, ask a human, or refuse. Pure: the agent
 * runtime passes everything in (server config, environment, the live tool definition,
 * the pin it must match, any approval it holds) and acts on the verdict.
 *
 * Rules, in the order they apply:
 *   1. Anything that throws while evaluating (a hostile arguments object, a bad input)
 *      → deny, "policy evaluation failed: …". The gate fails closed; it never throws.
 *   2. A tool name namespaced for another server than the one the call goes to, or one
 *      that starts with `mcp__` (any case) but does not parse strictly → deny.
 *   3. Integrity (tool-integrity.ts): with a pin given, the live definition must be the one
 *      pinned: by every certificate of a skill that names the server (a tool a certificate does
 *      not pin is blocked too), or, for an operator's server, the one pinned on first use.
 *      Otherwise classification is forced to `unknown` and the call denied, with a reason that
 *      says which pin it failed. No approval, trust or pre-approval overrides this. A live
 *      definition that names another tool is refused too.
 *   4. Preset arguments (preset-arguments.ts): a call that gives an argument the skill
 *      presets another value → deny, naming it. The presets are merged into `args`.
 *   5. Classification by name (tool-classifier.ts). Server annotations never relax it:
 *      `readOnlyHint` is ignored (and the reason says so); `destructiveHint: true` may
 *      only tighten `safe` to `danger`, since a server gains nothing by lying in that
 *      direction. The class gives the effect (safe → read, danger → write, unknown →
 *      unknown), which a skill's declared effect may only tighten (permission-tier.ts).
 *   6. Tiers (permission-tier.ts): `readonly` → deny anything but a read, whatever approval
 *      is given; `strict` → allow only with the approval granted for this call, else
 *      needs_approval (pre-approvals, trust and the flag do not count).
 *   7. Trust: `trusted` counts only outside production or with KAZMA_MCP_TRUSTED_IN_PROD=1
 *      (server-trust.ts); otherwise it is treated as `approval_required`, with a reason.
 *      An operator's `open` tier counts as trust, under the same condition.
 *   8. read → allow. write / unknown → allow if the server's trust (or an `open` tier) is
 *      effective, or the caller passes `approval: { granted: true }` (an elicitation
 *      answer), or a pre-approval pattern matches, or the caller honours the one-shot flag
 *      and it is set; otherwise needs_approval.
 * The one-shot approval flag (tool-arguments.ts) is always removed from `args`.
 */
import { type TierSetting, type ToolEffect, resolveTiers, resolveToolEffect } from './permission-tier';
import { type PreApprovalPolicy, findPreApproval } from './pre-approval.policy';
import { applyPresets } from './preset-arguments';
import { type GateEnvironment, type ServerTrust, resolveEffectiveTrust } from './server-trust';
import { APPROVAL_FLAG_KEY, type ToolArguments, takeApprovalFlag } from './tool-arguments';
import { type ToolClass, type ToolClassification, explainToolClass } from './tool-classifier';
import type { ToolDefinition } from './tool-definition-hash';
import { type ToolPin, checkToolIntegrity } from './tool-integrity';
import { escaped, quote, UNPRINTABLE } from './quoted';
import {
  NAMESPACE_PREFIX,
  isValidToolName,
  namespacedToolName,
  parseNamespacedToolName,
  serverNameProblem,
} from './tool-name';

export type GateVerdict = 'allow' | 'needs_approval' | 'deny';

/** MCP tool annotations as a server sends them: hints, never trusted to relax anything. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [hint: string]: unknown;
}

export interface GateServer {
  /** The server's name in the runtime's config (the `<server>` of `mcp__<server>__<tool>`). */
  name: string;
  /** Defaults to `approval_required`. */
  trust?: ServerTrust;
}

export interface GateInput {
  /** `mcp__<server>__<tool>` as the model called it, or the raw tool name. */
  toolName: string;
  /** The call's arguments; undefined or null means none. */
  args?: ToolArguments | null;
  server: GateServer;
  environment: GateEnvironment;
  /** The definition the server declares now (from `tools/list`). */
  liveDefinition?: ToolDefinition;
  /** What the live definition must match (tool-integrity.ts); absent = nothing is checked. */
  pin?: ToolPin;
  /** From the server: informational, may tighten, never relax. */
  annotations?: ToolAnnotations;
  /** An approval the caller obtained for THIS call (an elicitation answer, a pre-approval it evaluated). */
  approval?: { granted: boolean };
  /** Operator pre-approvals from config (pre-approval.policy.ts). */
  preApproval?: PreApprovalPolicy;
  /** Let `__approve: true` in the arguments count as approval. Default false: models write arguments. */
  honourApprovalFlag?: boolean;
  /** What governs the tool as part of a skill; absent: nothing but the rules above. */
  governance?: ToolGovernance;
}

/** A skill's say over one of its tools (SwarmKit: permission tiers, effects, `implementation.arguments`). */
export interface ToolGovernance {
  tiers?: readonly TierSetting[];
  /** The tool's effect as the skill declares it; it may only tighten the one its name gives. */
  effect?: ToolEffect | null;
  /** Arguments the skill fixes: merged into every call, never the caller's to change. */
  presets?: Readonly<Record<string, unknown>> | null;
  /**
   * Why a human must approve this call before it runs, whatever trust and pre-approvals say: a
   * skill a swarm authored that no human has reviewed yet (SwarmKit locks it until then). Null: none.
   */
  review?: string | null;
}

export interface GateDecision {
  verdict: GateVerdict;
  classification: ToolClass;
  /** What the call may do, as the gate judged it (unknown until classification ran). */
  effect: ToolEffect;
  /** Human-readable, each naming the rule that produced it; safe to log (names are quoted and escaped). */
  reasons: string[];
  /** The arguments for the tool: a fresh copy without the approval flag. Empty on a failed evaluation. */
  args: ToolArguments;
  /** The arguments carried the approval flag (it has been removed either way). */
  approvalFlagPresent: boolean;
}

export const POLICY_EVALUATION_FAILED = 'policy evaluation failed';

const MAX_ERROR_TEXT_LENGTH = 200;

/** Decides one tool call. Never throws: any failure is a deny. */
export function decideToolCall(input: GateInput): GateDecision {
  try {
    return evaluate(input);
  } catch (error) {
    return {
      verdict: 'deny',
      classification: 'unknown',
      effect: 'unknown',
      reasons: [`${POLICY_EVALUATION_FAILED}: ${errorText(error)}; the call is blocked (fail closed)`],
      args: {},
      approvalFlagPresent: false,
    };
  }
}

function evaluate(input: GateInput): GateDecision {
  const toolName: unknown = input.toolName;
  const server: unknown = input.server;
  if (typeof toolName !== 'string' || toolName.length === 0)
    throw new Error('the tool name must be a non-empty string');
  if (typeof server !== 'object' || server === null) throw new Error('the server must be given');
  const serverName: unknown = (server as GateServer).name;
  const declaredTrust: unknown = (server as GateServer).trust;
  const serverProblem = serverNameProblem(serverName);
  if (serverProblem) throw new Error(`invalid server name in the runtime config: ${serverProblem}`);

  // The copy made here is what the tool will receive; the flag is gone from it whatever happens next.
  const taken = takeApprovalFlag(input.args);
  const governance: ToolGovernance = input.governance ?? {};
  const preset = applyPresets(taken.args, governance.presets);
  const reasons: string[] = [];
  let effect: ToolEffect = 'unknown';
  const decide = (verdict: GateVerdict, classification: ToolClass, reason: string): GateDecision => ({
    verdict,
    classification,
    effect,
    reasons: [...reasons, reason],
    args: preset.args,
    approvalFlagPresent: taken.flagPresent,
  });

  const namespaced = parseNamespacedToolName(toolName);
  if (namespaced !== null && namespaced.server !== serverName) {
    return decide(
      'deny',
      'unknown',
      `routing: ${quote(toolName)} is namespaced for server ${quote(namespaced.server)} but the call goes to ${quote(serverName as string)}`,
    );
  }
  if (namespaced === null && toolName.toLowerCase().startsWith(NAMESPACE_PREFIX)) {
    // Looks namespaced but does not parse (odd case, no server or tool part, invalid characters):
    // which server it names is ambiguous, so it is not routed anywhere.
    return decide(
      'deny',
      'unknown',
      `routing: ${quote(toolName)} starts like "mcp__<server>__<tool>" but is not a valid namespaced name`,
    );
  }
  const rawTool = namespaced !== null ? namespaced.tool : toolName;

  // Integrity first: a changed definition is blocked whatever approvals or trust say.
  const liveDefinition: unknown = input.liveDefinition;
  const pin: unknown = input.pin;
  if (liveDefinition !== undefined && liveDefinition !== null) {
    const liveName: unknown = (liveDefinition as ToolDefinition).name;
    if (liveName !== rawTool) {
      return decide(
        'deny',
        'unknown',
        `integrity: the live definition describes ${typeof liveName === 'string' ? quote(liveName) : 'no named tool'}, not ${quote(rawTool)}`,
      );
    }
  }
  if (pin !== undefined && pin !== null) {
    const integrity = checkToolIntegrity(rawTool, liveDefinition as ToolDefinition | null | undefined, pin as ToolPin);
    if (!integrity.ok) return decide('deny', 'unknown', integrity.reason);
    reasons.push(integrity.reason);
  }

  if (preset.changed.length > 0) {
    return decide(
      'deny',
      'unknown',
      `arguments: ${preset.changed.map(quote).join(', ')}: preset by the skill, so a call cannot give another value (leave it out)`,
    );
  }

  const explained = explainToolClass(toolName);
  reasons.push(`classification: ${describeClassification(explained)}`);
  const classification = applyAnnotations(explained.toolClass, input.annotations, reasons);
  effect = resolveToolEffect(rawTool, classification, governance.effect, reasons);

  const tiers = resolveTiers(governance.tiers, input.environment);
  reasons.push(...tiers.reasons);
  if (tiers.readonly && effect !== 'read') {
    const what = effect === 'write' ? 'may write' : 'is not provably read-only';
    return decide(
      'deny',
      classification,
      `tier: readonly (set by ${escaped(tiers.readonly.where)}): ${quote(rawTool)} ${what}, so it is refused whatever approval is given`,
    );
  }

  if (governance.review) {
    const review = `review: ${escaped(governance.review)}`;
    if (isGranted(input.approval)) {
      return decide('allow', classification, `verdict: allowed by the approval granted for this call (${review})`);
    }
    return decide(
      'needs_approval',
      classification,
      `verdict: ${review}: a human approves it before it runs; pre-approvals and trust do not count`,
    );
  }

  const trust = resolveEffectiveTrust(declaredTrust, input.environment);
  reasons.push(...trust.reasons);

  if (taken.flagPresent && input.honourApprovalFlag !== true) {
    reasons.push(
      `approval flag: "${APPROVAL_FLAG_KEY}" was removed from the arguments and grants nothing (the caller's policy does not honour it)`,
    );
  }

  if (tiers.strict) {
    const strict = `tier: strict (set by ${escaped(tiers.strict.where)})`;
    if (isGranted(input.approval)) {
      return decide('allow', classification, `verdict: allowed by the approval granted for this call (${strict})`);
    }
    return decide(
      'needs_approval',
      classification,
      `verdict: ${strict}: every call needs its own approval; pre-approvals and trust do not count`,
    );
  }

  if (effect === 'read') return decide('allow', classification, 'verdict: safe tool, allowed without approval');

  const what =
    classification === 'safe'
      ? `tool declared ${effect}`
      : classification === 'unknown'
        ? 'unknown tool (treated as danger)'
        : 'danger tool';
  if (trust.trust === 'trusted') {
    return decide(
      'allow',
      classification,
      `verdict: ${what} allowed because server ${quote(serverName as string)} is trusted`,
    );
  }
  if (tiers.open) {
    return decide(
      'allow',
      classification,
      `verdict: ${what} allowed without approval: the tier is open (set by ${escaped(tiers.open.where)})`,
    );
  }
  if (isGranted(input.approval)) {
    return decide('allow', classification, `verdict: ${what} allowed by the approval granted for this call`);
  }
  const pattern = isValidToolName(rawTool)
    ? findPreApproval(input.preApproval, namespacedToolName(serverName as string, rawTool))
    : null;
  if (pattern !== null) {
    return decide('allow', classification, `verdict: ${what} allowed by pre-approval pattern ${quote(pattern)}`);
  }
  if (taken.flagSet && input.honourApprovalFlag === true) {
    return decide(
      'allow',
      classification,
      `verdict: ${what} allowed by the one-shot "${APPROVAL_FLAG_KEY}" flag, which the caller's policy honours`,
    );
  }
  return decide('needs_approval', classification, `verdict: ${what} needs approval`);
}

/** Annotations may tighten `safe` to `danger`; they never relax anything. */
function applyAnnotations(toolClass: ToolClass, annotations: unknown, reasons: string[]): ToolClass {
  if (typeof annotations !== 'object' || annotations === null) return toolClass;
  const hints = annotations as ToolAnnotations;
  const destructive = hints.destructiveHint === true;
  const readOnly = hints.readOnlyHint === true;
  if (destructive && toolClass === 'safe') {
    reasons.push('annotations: the server declares destructiveHint=true, so the safe name is treated as danger');
    return 'danger';
  }
  if (readOnly && toolClass !== 'safe') {
    reasons.push(
      `annotations: readOnlyHint=true is ignored; server annotations never relax a ${toolClass} classification`,
    );
  }
  return toolClass;
}

const isGranted = (approval: unknown): boolean =>
  typeof approval === 'object' && approval !== null && (approval as { granted?: unknown }).granted === true;

function describeClassification(c: ToolClassification): string {
  const name = quote(c.rawName);
  switch (c.rule) {
    case 'danger-keyword':
      return `${name} is danger (contains the danger keyword ${quote(c.matched ?? '')})`;
    case 'sensitive-word':
      return `${name} is danger (contains the sensitive word ${quote(c.matched ?? '')})`;
    case 'safe-token':
      return `${name} is safe (whole token ${quote(c.matched ?? '')})`;
    case 'malformed-namespace':
      return `${name} is unknown (starts with "mcp__" but has no server and tool part)`;
    case 'non-ascii':
      return `${name} is unknown (non-ASCII characters: never safe by name)`;
    case 'too-long':
      return `${name} is unknown (too long to classify by tokens)`;
    case 'not-a-string':
      return 'the name is unknown (not a string)';
    case 'no-keyword':
      return `${name} is unknown (no danger keyword, no safe token)`;
  }
}

/** The message of whatever was thrown, without letting a hostile error object throw again. */
function errorText(error: unknown): string {
  let text: string;
  try {
    text =
      error instanceof Error
        ? String(error.message)
        : typeof error === 'string'
          ? error
          : 'a non-error value was thrown';
  } catch {
    text = 'an unprintable error was thrown';
  }
  if (text.length > MAX_ERROR_TEXT_LENGTH) text = `${text.slice(0, MAX_ERROR_TEXT_LENGTH)}…`;
  return text.replace(UNPRINTABLE, ' ');
}
