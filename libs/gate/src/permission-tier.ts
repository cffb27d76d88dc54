/**
 * SwarmKit's permission tiers and tool effects, as the gate applies them to a skill's tools.
 *
 * Tiers (SwarmKit's four; a workspace server declares one as `permission`, a tool of it as
 * `permission_overrides.<tool>`, and the runtime config may set one per skill):
 *   - `cautious` (SwarmKit's default): the gate as it is: a read tool runs, anything else needs approval.
 *   - `strict`: every call needs its own approval (an answer for this call): no pre-approval
 *     pattern, trust or flag stands in for it, read tools included.
 *   - `readonly`: only read tools ever run; a write or unknown tool is refused every call,
 *     approval or not.
 *   - `open`: write tools run without approval, as on a `trusted` server, and like `trusted`
 *     only outside production unless KAZMA_MCP_TRUSTED_IN_PROD=1. Only the operator can open a
 *     skill: an author's `open` waives nothing and reads as `cautious`.
 * Several settings combine by each one's own restriction (readonly from one, strict from
 * another: reads need approval, writes never run).
 *
 * Effects: a tool's effect comes from its name (docs/kazma.md: safe → read, danger → write,
 * unknown → unknown). A declared effect (SwarmKit `effects.<tool>`) may make it stricter, never
 * looser: a skill cannot declare `write_file` a read. `unknown` counts as a write.
 */
import { escaped, quote } from './quoted';
import { type GateEnvironment, resolveEffectiveTrust, TRUSTED_IN_PROD_ENV } from './server-trust';
import type { ToolClass } from './tool-classifier';

export const PERMISSION_TIERS = Object.freeze(['open', 'cautious', 'strict', 'readonly'] as const);
export type PermissionTier = (typeof PERMISSION_TIERS)[number];

export const TOOL_EFFECTS = Object.freeze(['read', 'write', 'unknown'] as const);
export type ToolEffect = (typeof TOOL_EFFECTS)[number];

/** One tier setting and who made it. */
export interface TierSetting {
  tier: PermissionTier;
  /** The operator (the runtime config) may open a skill; a skill's own declaration may only tighten. */
  setBy: 'operator' | 'skill';
  /** Where it is set, for the reasons: `the runtime config's grants for acme/x`. */
  where: string;
}

/** The tiers that apply to one call, each the first setting that asks for it. */
export interface ResolvedTiers {
  readonly: TierSetting | null;
  strict: TierSetting | null;
  /** An operator's `open` that holds in this environment. */
  open: TierSetting | null;
  reasons: string[];
}

const BASE_EFFECT: Readonly<Record<ToolClass, ToolEffect>> = { safe: 'read', danger: 'write', unknown: 'unknown' };
const STRICTNESS: Readonly<Record<ToolEffect, number>> = { read: 0, unknown: 1, write: 2 };

/** The tool's effect: its class's, made stricter (never looser) by what the skill declares. */
export function resolveToolEffect(
  tool: string,
  toolClass: ToolClass,
  declared: unknown,
  reasons: string[],
): ToolEffect {
  const base = BASE_EFFECT[toolClass];
  if (declared === undefined || declared === null) return base;
  if (!(TOOL_EFFECTS as readonly unknown[]).includes(declared)) {
    reasons.push(`effects: the declared effect of ${quote(tool)} is not one of read, write, unknown; treated as write`);
    return 'write';
  }
  const effect = declared as ToolEffect;
  if (STRICTNESS[effect] > STRICTNESS[base]) {
    reasons.push(`effects: ${quote(tool)} is declared ${effect}, so it is treated as ${effect}`);
    return effect;
  }
  if (STRICTNESS[effect] < STRICTNESS[base]) {
    reasons.push(
      `effects: ${quote(tool)} is declared ${effect}, which never relaxes what its name says (${base}); treated as ${base}`,
    );
  }
  return base;
}

/** Reads the settings (anything malformed reads as readonly: fail closed) and the environment's say on `open`. */
export function resolveTiers(settings: unknown, environment: GateEnvironment): ResolvedTiers {
  const resolved: ResolvedTiers = { readonly: null, strict: null, open: null, reasons: [] };
  if (settings === undefined || settings === null) return resolved;
  const list: unknown[] = Array.isArray(settings) ? settings : [settings];
  for (const raw of list) {
    const setting = readSetting(raw);
    if (setting === null) {
      resolved.readonly ??= { tier: 'readonly', setBy: 'operator', where: 'a malformed tier setting' };
      resolved.reasons.push('tier: a tier setting is malformed, so the tool is treated as readonly (fail closed)');
      continue;
    }
    const where = escaped(setting.where);
    if (setting.tier === 'readonly' || setting.tier === 'strict') {
      resolved[setting.tier] ??= setting;
    } else if (setting.tier === 'open') {
      if (setting.setBy !== 'operator') {
        resolved.reasons.push(`tier: open, set by ${where}, waives nothing: only the runtime config can open a skill`);
      } else if (resolveEffectiveTrust('trusted', environment).trust !== 'trusted') {
        resolved.reasons.push(
          `tier: open, set by ${where}, is ignored in production unless ${TRUSTED_IN_PROD_ENV}=1; treated as cautious`,
        );
      } else {
        resolved.open ??= setting;
      }
    }
  }
  return resolved;
}

function readSetting(raw: unknown): TierSetting | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { tier, setBy, where } = raw as Partial<TierSetting>;
  if (!(PERMISSION_TIERS as readonly unknown[]).includes(tier)) return null;
  if (setBy !== 'operator' && setBy !== 'skill') return null;
  if (typeof where !== 'string') return null;
  return { tier: tier as PermissionTier, setBy, where };
}

/** The tiers that apply, and who set each, for one line of a log. */
export const describeTiers = (settings: readonly TierSetting[]): string =>
  settings.length === 0
    ? 'cautious (the default)'
    : settings.map((setting) => `${setting.tier} (set by ${escaped(setting.where)})`).join(', ');
