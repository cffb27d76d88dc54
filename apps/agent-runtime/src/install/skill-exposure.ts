/**
 * What one installed skill contributes to the gateway, decided in this one place:
 *   - nothing at all while its SwarmKit `iam.required_scopes` are not all granted (`grants.<skill>.scopes`);
 *   - the MCP servers its verified certificate lets run (never the manifest's declarations: a
 *     server the certificate does not list is not started), each with what its sandbox is granted;
 *   - a Kazma skill offers every tool of its servers (`mcp__<server>__<tool>`); a SwarmKit
 *     `mcp_tool` skill exactly the one tool it names (`mcp__<skill>__<tool>`, skill-tools.ts);
 *   - prompts: an Agent Skill's SKILL.md body, a SwarmKit `llm_prompt`, and a `composed` skill's
 *     parts, resolved once every skill is installed (skill-prompts.ts).
 * The operator's tier for the skill (`grants.<skill>.permission`) gates every tool it offers.
 * Kazma code skills are installed for a Kazma host to load; this runtime never runs their Python.
 */
import { posix } from 'node:path';
import { canonicalJson, missingScopes, serverNameProblem, type TierSetting } from '@skillhub/gate';
import { type ServerNetwork, serverNetwork } from '../config/network-setting';
import type { SkillGrant } from '../config/runtime-config';
import type { SecretValue } from '../config/runtime-secrets';
import { fillPlaceholders } from '../mcp/server-environment';
import type { ServerCertification } from '../mcp/upstream-server';
import { type CertifiedLaunch, certifiedLaunch, isInsideFolder } from './certified-launch';
import { type ComposedParts, composedParts, type SkillPrompt, skillPrompts } from './skill-prompts';
import { type SkillToolSpec, skillTools } from './skill-tools';
import type { VerifiedSkill } from './verified-skill';
import { record } from './manifest-record';

/** A server of a skill, as its certificate lets it start. */
export interface SkillServer {
  /** The name the skill gives it: the gateway's name for it, unless another server holds that name. */
  name: string;
  /** Servers of several skills with the same name and key are one process. */
  key: string;
  launch: CertifiedLaunch;
  /** The certified env, each `${NAME}` filled from a granted secret. */
  env: Record<string, string>;
  /** The secret values in `env`, masked wherever a reason is reported. */
  secrets: string[];
  /** Its working folder, relative to the skill's folder (`.`: the folder itself); null: the sandbox's default. */
  cwd: string | null;
  /** Egress through the proxy (declared `network_outbound`, or granted); null: none. */
  network: ServerNetwork | null;
  /** The skill's folder, when the server uses it (it runs a file of it, or works in it); else null. */
  skillDir: string | null;
  /** The skill's certified files (path → sha256): checked on disk before every start. */
  certifiedFiles: Readonly<Record<string, string>>;
  certification: ServerCertification;
}

export interface SkillExposure {
  /** `author/name@version`. */
  certifiedAs: string;
  /** `author/name`. */
  ref: string;
  /** The skill's name (a composed skill's parts are named by it). */
  name: string;
  description: string;
  servers: SkillServer[];
  /** Every tool of `servers` is offered (Kazma); else only `tools` (SwarmKit). */
  offersServers: boolean;
  tools: SkillToolSpec[];
  prompts: SkillPrompt[];
  /** A composed skill's parts, to resolve once every skill is installed; else null. */
  composes: ComposedParts | null;
  /** The operator's tier for everything the skill offers; null: none set. */
  operatorTier: TierSetting | null;
  /** Servers of the skill that will not start, with why. */
  refused: Array<{ server: string; reason: string }>;
  /** Tools of the skill that are not offered, with why. */
  refusedTools: Array<{ tool: string; reason: string }>;
  /** Why the skill offers nothing at all; null when it offers what the rest says. */
  withheld: string | null;
}

export interface ExposureContext {
  /** `grants:` of the runtime config. */
  grants: Readonly<Record<string, SkillGrant>>;
  /** Every secret the config defines, read (see readSecrets). */
  secrets: ReadonlyMap<string, SecretValue>;
  /** The runtime's call timeout, for skills whose constraints set none. */
  callTimeoutMs: number;
}

const NO_GRANT: SkillGrant = { network: false, secrets: [], scopes: [] };

/** SwarmKit implementation types this runtime installs but does not serve, and why, said at start. */
const NOT_SERVED: Readonly<Record<string, string>> = {
  command:
    'a SwarmKit command skill runs a command of its workspace command pack; this runtime does not run command packs yet, so it offers nothing',
  agent:
    'a SwarmKit agent skill hands its work to another agent (a topology, or an A2A agent card); this runtime serves no agents, so it offers nothing',
};

export function skillExposure(skill: VerifiedSkill, context: ExposureContext): SkillExposure {
  const grant = context.grants[skill.ref] ?? NO_GRANT;
  const operatorTier: TierSetting | null = grant.permission
    ? { tier: grant.permission, setBy: 'operator', where: `the runtime config's grants for ${skill.ref}` }
    : null;
  const exposure: SkillExposure = {
    certifiedAs: `${skill.ref}@${skill.version}`,
    ref: skill.ref,
    name: skill.skill.name,
    description: skill.skill.description,
    servers: [],
    offersServers: skill.skill.format !== 'swarmkit',
    tools: [],
    prompts: [],
    composes: null,
    operatorTier,
    refused: [],
    refusedTools: [],
    withheld: null,
  };
  const notServed = NOT_SERVED[String(record(skill.skill.manifest.implementation).type)];
  if (skill.skill.format === 'swarmkit' && notServed) {
    exposure.withheld = notServed;
    return exposure;
  }
  const missing = missingScopes(skill.skill.scopes, grant.scopes);
  if (missing.length > 0) {
    const list = missing.join(', ');
    exposure.withheld = `its iam.required_scopes ${list} ${missing.length === 1 ? 'is' : 'are'} not granted, so it offers nothing: grant ${missing.length === 1 ? 'it' : 'them'} in the runtime config (grants: { "${skill.ref}": { scopes: [${list}] } })`;
    return exposure;
  }
  const { servers, refused } = skillServers(skill, context);
  const { tools, refused: refusedTools } = skillTools(skill, {
    operatorTier,
    callTimeoutMs: context.callTimeoutMs,
    startingServers: new Set(servers.map((server) => server.name)),
  });
  return {
    ...exposure,
    servers,
    tools,
    prompts: skillPrompts(skill),
    composes: composedParts(skill),
    refused,
    refusedTools,
  };
}

/** Pure: the certificate's servers, granted and filled, or refused with why. */
export function skillServers(
  skill: VerifiedSkill,
  context: Pick<ExposureContext, 'grants' | 'secrets'>,
): Pick<SkillExposure, 'servers' | 'refused'> {
  const { statement } = skill;
  const certifiedAs = `${skill.ref}@${skill.version}`;
  const grant = context.grants[skill.ref] ?? NO_GRANT;
  const declaresNetwork =
    statement.permissions.includes('network_outbound') ||
    statement.codeCapabilities.some((capability) => capability === 'network' || capability === 'network_outbound');
  const refused: SkillExposure['refused'] = skill.skill.mcpServers
    .filter((declared) => !statement.servers.some((certified) => certified.name === declared.name))
    .map((declared) => ({
      server: declared.name,
      reason: `not in the certificate of ${certifiedAs} (its launch could not be verified and pinned at certification), so it is never started from the skill; if it is a program you provide, define it under mcp_servers in the runtime config`,
    }));
  const servers: SkillServer[] = [];
  for (const certified of statement.servers) {
    const refuse = (reason: string): void => void refused.push({ server: certified.name, reason });
    const nameProblem = serverNameProblem(certified.name);
    if (nameProblem) {
      refuse(`its name cannot be used in mcp__<server>__<tool>: ${nameProblem}`);
      continue;
    }
    const reading = certifiedLaunch(certified);
    if (!reading.ok) {
      refuse(reading.reason);
      continue;
    }
    const cwd = certified.cwd === null ? null : posix.normalize(certified.cwd.replace(/\/+$/, '') || '.');
    if (cwd !== null && cwd !== '.' && !isInsideFolder(cwd)) {
      refuse(`its working folder ${JSON.stringify(certified.cwd)} is not inside the skill's folder`);
      continue;
    }
    const filled = fillPlaceholders(certified.env, (name) => {
      const value = grant.secrets.includes(name) ? context.secrets.get(name) : undefined;
      return value?.ok ? value.value : undefined;
    });
    if (!filled.ok) {
      refuse(filled.missing.map((name) => missingSecret(name, skill.ref, grant, context.secrets)).join('; '));
      continue;
    }
    const usesFolder = reading.launch.kind === 'bundle-file' || cwd !== null;
    const network = serverNetwork(declaresNetwork, grant.network);
    servers.push({
      name: certified.name,
      key: canonicalJson({
        launch: reading.launch,
        env: filled.env,
        cwd,
        network,
        // A server that uses its skill's folder is that skill's alone.
        skill: usesFolder ? certifiedAs : null,
      }),
      launch: reading.launch,
      env: filled.env,
      secrets: filled.secrets,
      cwd,
      network,
      skillDir: usesFolder ? skill.path : null,
      certifiedFiles: statement.files,
      certification: { certifiedAs, tools: certified.tools },
    });
  }
  return { servers, refused };
}

/** What to add to the runtime config so that `${name}` can be filled. */
function missingSecret(
  name: string,
  skill: string,
  grant: SkillGrant,
  secrets: ReadonlyMap<string, SecretValue>,
): string {
  const value = secrets.get(name);
  const grantIt = `grants: { "${skill}": { secrets: [${name}] } }`;
  if (value === undefined) {
    return `it needs the secret ${name}: define it (secrets: { ${name}: { env: <VARIABLE> } }, or { file: <path> }) and grant it (${grantIt}) in the runtime config`;
  }
  if (!grant.secrets.includes(name) || value.ok) {
    return `it needs the secret ${name}: grant it in the runtime config (${grantIt})`;
  }
  return `it needs the secret ${name}, which cannot be read: ${value.problem}`;
}
