/**
 * The tool a SwarmKit `mcp_tool` skill offers: exactly the one tool it names (not the rest of its
 * server), with its `implementation.arguments` preset, its tier and effects, its `constraints`,
 * its `audit` and, for a decision skill, its `outputs` schema. The server is the one its certificate lets
 * start, or, when its bundle defines none, the operator's server of that name. Pure but for
 * reading the skill's installed workspace file.
 */
import {
  type AuditPolicy,
  type CallPolicy,
  compileOutputsSchema,
  type OutputsValidator,
  readAuditPolicy,
  readCallPolicy,
  type TierSetting,
  type ToolEffect,
  toolNameProblem,
  type ToolGovernance,
} from '@skillhub/gate';
import type { VerifiedSkill } from './verified-skill';
import { declaredToolGate } from './workspace-declarations';
import { record } from './manifest-record';

/** A skill's tool before the runtime places it (see ServerPlanner). */
export interface SkillToolSpec {
  /** `author/name@version`. */
  certifiedAs: string;
  /** The skill's name: its namespace in `mcp__<namespace>__<tool>`, unless another holds it. */
  name: string;
  /** SwarmKit `metadata.name`. */
  title: string;
  description: string;
  /** The server as the skill names it. */
  server: string;
  /** It is one of the skill's own (certified) servers; else the runtime config must run one of that name. */
  ownServer: boolean;
  /** The server's own name for the tool. */
  tool: string;
  /** Its tiers, effect and presets; `review` is the gateway's to set (it knows what was reviewed). */
  governance: Required<Omit<ToolGovernance, 'review'>>;
  /**
   * Why its calls wait for a human until one approves one (a skill a swarm authored: SwarmKit's
   * `provenance.authored_by: authored_by_swarm`, locked until its first human review); null: never.
   */
  review: string | null;
  call: CallPolicy;
  /** What the audit trail keeps of each call (`audit`, `constraints.max_latency_ms`). */
  audit: AuditPolicy;
  /** A decision skill's check of each result against its `outputs`; null for others. */
  outputs: OutputsValidator | null;
}

export interface SkillToolsContext {
  /** The operator's tier for the skill, when the runtime config sets one. */
  operatorTier: TierSetting | null;
  /** The runtime's own call timeout, for skills that set none. */
  callTimeoutMs: number;
  /** The skill's servers that will start (certified, granted and filled). */
  startingServers: ReadonlySet<string>;
}

export function skillTools(
  skill: VerifiedSkill,
  context: SkillToolsContext,
): { tools: SkillToolSpec[]; refused: Array<{ tool: string; reason: string }> } {
  const tools: SkillToolSpec[] = [];
  const refused: Array<{ tool: string; reason: string }> = [];
  const { manifest } = skill.skill;
  const certifiedAs = `${skill.ref}@${skill.version}`;
  const metadata = record(manifest.metadata);
  for (const use of skill.skill.serverUses) {
    const refuse = (reason: string): void => void refused.push({ tool: use.tool, reason });
    const nameProblem = toolNameProblem(use.tool);
    if (nameProblem) {
      refuse(`its tool cannot be named mcp__<skill>__<tool>: ${nameProblem}`);
      continue;
    }
    const ownServer = context.startingServers.has(use.server);
    if (use.defined && !ownServer) {
      refuse(`its server ${use.server} does not start (its reason is logged above)`);
      continue;
    }
    const tiers = context.operatorTier ? [context.operatorTier] : [];
    let effect: ToolEffect | null = null;
    const declaredIn = skill.skill.mcpServers.find((server) => server.name === use.server)?.declaredIn;
    if (ownServer && declaredIn !== undefined) {
      const declared = declaredToolGate(skill.path, declaredIn, use.server, use.tool);
      if (!declared.ok) {
        refuse(declared.reason);
        continue;
      }
      if (declared.gate.tier) {
        const where = `${declaredIn} of ${certifiedAs} (server ${use.server})`;
        tiers.push({ tier: declared.gate.tier, setBy: 'skill', where });
      }
      effect = declared.gate.effect;
    }
    let outputs: OutputsValidator | null = null;
    if (skill.skill.category === 'decision' && manifest.outputs !== undefined) {
      const compiled = compileOutputsSchema(manifest.outputs);
      if (!compiled.ok) {
        refuse(compiled.problem);
        continue;
      }
      outputs = compiled.validate;
    }
    tools.push({
      certifiedAs,
      name: skill.skill.name,
      title: typeof metadata.name === 'string' ? metadata.name : skill.skill.name,
      description: skill.skill.description,
      server: use.server,
      ownServer,
      tool: use.tool,
      governance: { tiers, effect, presets: use.arguments },
      review:
        record(manifest.provenance).authored_by === 'authored_by_swarm'
          ? `${certifiedAs} was authored by a swarm and no human has reviewed it yet`
          : null,
      call: readCallPolicy(manifest.constraints, context.callTimeoutMs),
      audit: readAuditPolicy(manifest.audit, manifest.constraints, skill.skill.category),
      outputs,
    });
  }
  return { tools, refused };
}
