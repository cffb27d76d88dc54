/**
 * Which servers the runtime runs, and under which gateway names everything is offered. Operator
 * servers keep the names the operator gave them. A server several skills name with the same
 * certified launch (package, version, integrity, arguments, env, working folder, network) is one
 * process, vouched for by each of their certificates. A SwarmKit skill's tool is offered under
 * the skill's own name (`mcp__<skill>__<tool>`), on its certified server or, when its bundle
 * defines none, on the operator's server of the name it gives. Server and skill names share one
 * namespace: a name already held is served as `<name>-2` (`-3`, …), and the plan says so. Skills
 * are added one by one, as they are installed, so their servers can start while the next skill
 * installs; names follow config order. Pure.
 */
import { MAX_SERVER_NAME_LENGTH } from '@skillhub/gate';
import type { SkillExposure, SkillServer } from '../install/skill-exposure';
import type { SkillToolSpec } from '../install/skill-tools';
import type { McpServerConfig } from './mcp-server.config';
import type { ServerCertification, ServerGovernance } from './upstream-server';

export interface PlannedSkillServer {
  /** The gateway's name for it (`mcp__<name>__<tool>`). */
  name: string;
  /** How it starts: the first skill's (every skill sharing it has the same launch). */
  server: SkillServer;
  /** The certificates that vouch for its tools: one per skill that names it. */
  certifications: ServerCertification[];
  /** Whether and how its own tools are offered; its upstream reads this at every list and call. */
  governance: ServerGovernance;
}

/** A skill's tool, placed. */
export interface PlannedSkillTool extends SkillToolSpec {
  /** The `<namespace>` of `mcp__<namespace>__<tool>`. */
  namespace: string;
  /** The gateway's name of the server it runs on. */
  upstream: string;
}

/** What adding one skill changed. */
export interface PlannedAddition {
  /** Every server the skill runs on, new or shared. */
  servers: PlannedSkillServer[];
  /** Servers no skill before it named: to start now. */
  added: PlannedSkillServer[];
  tools: PlannedSkillTool[];
  /** Tools that have no server to run on, with why. */
  refusedTools: Array<{ tool: string; reason: string }>;
  /** What an operator should know: servers shared, names taken, and why. */
  notes: string[];
}

export class ServerPlanner {
  private readonly holders: Map<string, string>;
  private readonly operatorServers: ReadonlySet<string>;
  private readonly planned: PlannedSkillServer[] = [];

  /** Operator servers keep their names: skill servers and skills never take them. */
  constructor(operator: readonly McpServerConfig[]) {
    this.holders = new Map(operator.map((server) => [server.name, `the operator's server ${server.name}`]));
    this.operatorServers = new Set(operator.map((server) => server.name));
  }

  add(exposure: SkillExposure): PlannedAddition {
    const addition: PlannedAddition = { servers: [], added: [], tools: [], refusedTools: [], notes: [] };
    const placed = new Map<string, string>();
    for (const server of exposure.servers) {
      const planned = this.place(exposure, server, addition);
      addition.servers.push(planned);
      placed.set(server.name, planned.name);
      if (exposure.offersServers) {
        planned.governance.offered = true;
        if (exposure.operatorTier) planned.governance.tiers.push(exposure.operatorTier);
      }
    }
    if (exposure.tools.length === 0) return addition;
    const namespace = this.allot(exposure.name, `the skill ${exposure.certifiedAs}`);
    if (namespace !== exposure.name) {
      addition.notes.push(
        `the tools of ${exposure.certifiedAs} are offered as mcp__${namespace}__<tool>: ${this.holders.get(exposure.name)} holds the name ${exposure.name}`,
      );
    }
    for (const tool of exposure.tools) {
      const upstream =
        placed.get(tool.server) ?? (!tool.ownServer && this.operatorServers.has(tool.server) ? tool.server : null);
      if (upstream === null) {
        addition.refusedTools.push({
          tool: tool.tool,
          reason: `its server ${tool.server} is neither defined in its bundle nor run by the runtime config (mcp_servers)`,
        });
        continue;
      }
      addition.tools.push({ ...tool, namespace, upstream });
    }
    return addition;
  }

  /** The server as planned: the one already running this launch, or a new one under a free name. */
  private place(exposure: SkillExposure, server: SkillServer, addition: PlannedAddition): PlannedSkillServer {
    const same = this.planned.find((p) => p.server.name === server.name && p.server.key === server.key);
    if (same) {
      // The upstream reads this list at every check, so a certificate added later vouches at once.
      same.certifications.push(server.certification);
      addition.notes.push(
        `${exposure.certifiedAs} names the server ${server.name} with the same certified launch as ${same.certifications[0]!.certifiedAs}: it is started once, as ${same.name}`,
      );
      return same;
    }
    const name = this.allot(server.name, `${exposure.certifiedAs}'s server ${server.name}`);
    if (name !== server.name) {
      addition.notes.push(
        `the server ${server.name} of ${exposure.certifiedAs} is served as ${name}: ${this.holders.get(server.name)} holds that name`,
      );
    }
    const planned: PlannedSkillServer = {
      name,
      server,
      certifications: [server.certification],
      governance: { offered: false, tiers: [] },
    };
    this.planned.push(planned);
    addition.added.push(planned);
    return planned;
  }

  /** `wish`, or `<wish>-2`, `-3`, … when it is held, recorded as held by `holder`. */
  private allot(wish: string, holder: string): string {
    let name = wish;
    for (let n = 2; this.holders.has(name); n++) {
      const suffix = `-${n}`;
      name = `${wish.slice(0, MAX_SERVER_NAME_LENGTH - suffix.length)}${suffix}`;
    }
    this.holders.set(name, holder);
    return name;
  }
}
