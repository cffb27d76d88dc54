/**
 * Which servers the runtime runs, under which gateway names. Operator servers keep the names the
 * operator gave them. A server several skills name with the same certified launch (package,
 * version, integrity, arguments, env, working folder, network) is one process, vouched for by
 * each of their certificates; a skill server whose name is already held by a different server is
 * served as `<name>-2` (`-3`, …), and the plan says so. Skills are added one by one, as they
 * are installed, so their servers can start while the next skill installs; names follow config
 * order. Pure.
 */
import { MAX_SERVER_NAME_LENGTH } from '@skillhub/gate';
import type { SkillExposure, SkillServer } from '../install/skill-exposure';
import type { McpServerConfig } from './mcp-server.config';
import type { ServerCertification } from './upstream-server';

export interface PlannedSkillServer {
  /** The gateway's name for it (`mcp__<name>__<tool>`). */
  name: string;
  /** How it starts: the first skill's (every skill sharing it has the same launch). */
  server: SkillServer;
  /** The certificates that vouch for its tools: one per skill that names it. */
  certifications: ServerCertification[];
}

/** What adding one skill changed. */
export interface PlannedAddition {
  /** Servers no skill before it named: to start now. */
  added: PlannedSkillServer[];
  /** What an operator should know: servers shared or renamed, and why. */
  notes: string[];
}

export class ServerPlanner {
  private readonly holders: Map<string, string>;
  private readonly planned: PlannedSkillServer[] = [];

  /** Operator servers keep their names: skill servers never take them. */
  constructor(operator: readonly McpServerConfig[]) {
    this.holders = new Map(operator.map((server) => [server.name, `the operator's server ${server.name}`]));
  }

  add(exposure: SkillExposure): PlannedAddition {
    const added: PlannedSkillServer[] = [];
    const notes: string[] = [];
    for (const server of exposure.servers) {
      const same = this.planned.find((p) => p.server.name === server.name && p.server.key === server.key);
      if (same) {
        // The upstream reads this list at every check, so a certificate added later vouches at once.
        same.certifications.push(server.certification);
        notes.push(
          `${exposure.certifiedAs} names the server ${server.name} with the same certified launch as ${same.certifications[0]!.certifiedAs}: it is started once, as ${same.name}`,
        );
        continue;
      }
      let name = server.name;
      for (let n = 2; this.holders.has(name); n++) {
        const suffix = `-${n}`;
        name = `${server.name.slice(0, MAX_SERVER_NAME_LENGTH - suffix.length)}${suffix}`;
      }
      if (name !== server.name) {
        notes.push(
          `the server ${server.name} of ${exposure.certifiedAs} is served as ${name}: ${this.holders.get(server.name)} holds that name with another launch`,
        );
      }
      this.holders.set(name, `${exposure.certifiedAs}'s server ${server.name}`);
      const planned = { name, server, certifications: [server.certification] };
      this.planned.push(planned);
      added.push(planned);
    }
    return { added, notes };
  }
}
