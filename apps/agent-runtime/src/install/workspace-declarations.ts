/**
 * What a SwarmKit workspace says about how a server's tools are gated: its `permission` tier,
 * `permission_overrides.<tool>`, and `effects.<tool>` (SwarmKit's own workspaces write these on
 * each `mcp_servers[]` entry; a skill's `implementation` has no such field). Read from the
 * installed workspace file the certificate's digests cover, which the parser found the server in.
 * The libs/skill-formats parser does not carry these fields, so they are read here; what is read
 * may only tighten the gate (libs/gate permission-tier.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PERMISSION_TIERS, type PermissionTier, TOOL_EFFECTS, type ToolEffect } from '@skillhub/gate';
import { parse } from 'yaml';
import { record } from './manifest-record';

export interface DeclaredToolGate {
  /** The tool's override, else the server's tier; null: none declared. */
  tier: PermissionTier | null;
  /** `effects.<tool>` (or `effects` for every tool); anything but read, write or unknown reads as write; null: none declared. */
  effect: ToolEffect | null;
}

export type DeclaredToolGateReading = { ok: true; gate: DeclaredToolGate } | { ok: false; reason: string };

/** `declaredIn` is the workspace file's path inside the skill's folder, `serverId` its `id`. */
export function declaredToolGate(
  skillDir: string,
  declaredIn: string,
  serverId: string,
  tool: string,
): DeclaredToolGateReading {
  let document: unknown;
  try {
    document = parse(readFileSync(join(skillDir, declaredIn), 'utf8'), { maxAliasCount: 50 });
  } catch (error) {
    return { ok: false, reason: `its workspace file ${declaredIn} cannot be read: ${(error as Error).message}` };
  }
  const servers = record(document).mcp_servers;
  const entry = Array.isArray(servers) ? servers.map(record).find((server) => server.id === serverId) : undefined;
  if (!entry) return { ok: false, reason: `its workspace file ${declaredIn} no longer defines the server ${serverId}` };
  const overrides = record(entry.permission_overrides);
  const tier = Object.hasOwn(overrides, tool) ? overrides[tool] : entry.permission;
  if (tier !== undefined && !(PERMISSION_TIERS as readonly unknown[]).includes(tier)) {
    return {
      ok: false,
      reason: `its workspace file ${declaredIn} gives the server ${serverId} the permission ${JSON.stringify(tier)}, which is not one of ${PERMISSION_TIERS.join(', ')}`,
    };
  }
  const effects = entry.effects;
  const effect = typeof effects === 'string' ? effects : record(effects)[tool];
  return {
    ok: true,
    gate: {
      tier: (tier as PermissionTier | undefined) ?? null,
      effect:
        effect === undefined || effect === null
          ? null
          : (TOOL_EFFECTS as readonly unknown[]).includes(effect)
            ? (effect as ToolEffect)
            : 'write',
    },
  };
}
