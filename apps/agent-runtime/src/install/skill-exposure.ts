/**
 * What one installed skill contributes to the gateway, decided in this one place: the MCP servers
 * its verified certificate lets run (never the manifest's declarations: a server the certificate
 * does not list is not started), each with what its sandbox is granted, and, for an Agent Skill,
 * its SKILL.md body as a prompt (instructions, never code). Kazma code skills are installed for a
 * Kazma host to load; this runtime never runs their Python.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { canonicalJson, serverNameProblem } from '@skillhub/gate';
import type { CertificateStatement } from '@skillhub/signing';
import type { NormalizedSkill } from '@skillhub/skill-formats';
import type { SkillGrant } from '../config/runtime-config';
import type { SecretValue } from '../config/runtime-secrets';
import type { SkillPrompt } from '../gateway/gateway';
import { fillPlaceholders } from '../mcp/server-environment';
import type { ServerCertification } from '../mcp/upstream-server';
import { type CertifiedLaunch, certifiedLaunch, isInsideFolder } from './certified-launch';

/** An installed skill with the certificate the installer verified. */
export interface VerifiedSkill {
  /** `author/name`. */
  ref: string;
  version: string;
  /** The installed folder. */
  path: string;
  skill: NormalizedSkill;
  statement: CertificateStatement;
}

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
  network: boolean;
  /** The skill's folder, when the server uses it (it runs a file of it, or works in it); else null. */
  skillDir: string | null;
  certification: ServerCertification;
}

export interface SkillExposure {
  /** `author/name@version`. */
  certifiedAs: string;
  servers: SkillServer[];
  prompts: SkillPrompt[];
  /** Servers of the skill that will not start, with why. */
  refused: Array<{ server: string; reason: string }>;
}

export interface ExposureContext {
  /** `grants:` of the runtime config. */
  grants: Readonly<Record<string, SkillGrant>>;
  /** Every secret the config defines, read (see readSecrets). */
  secrets: ReadonlyMap<string, SecretValue>;
}

export function skillExposure(skill: VerifiedSkill, context: ExposureContext): SkillExposure {
  const { servers, refused } = skillServers(skill, context);
  return { certifiedAs: `${skill.ref}@${skill.version}`, servers, prompts: skillPrompts(skill), refused };
}

/** Pure: the certificate's servers, granted and filled, or refused with why. */
export function skillServers(
  skill: VerifiedSkill,
  context: ExposureContext,
): Pick<SkillExposure, 'servers' | 'refused'> {
  const { statement } = skill;
  const certifiedAs = `${skill.ref}@${skill.version}`;
  const grant = context.grants[skill.ref] ?? { network: false, secrets: [] };
  const declaresNetwork =
    statement.permissions.includes('network_outbound') ||
    statement.codeCapabilities.some((capability) => capability === 'network' || capability === 'network_outbound');
  const refused: SkillExposure['refused'] = skill.skill.mcpServers
    .filter((declared) => !statement.servers.some((certified) => certified.name === declared.name))
    .map((declared) => ({
      server: declared.name,
      reason: `not in the certificate of ${certifiedAs} (its launch could not be verified and pinned at certification), so it is never started`,
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
    const network = declaresNetwork || grant.network;
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

/** An Agent Skill is offered as an MCP prompt: its SKILL.md body. */
export function skillPrompts(skill: VerifiedSkill): SkillPrompt[] {
  if (skill.skill.format !== 'agent-skill') return [];
  const markdown = readFileSync(join(skill.path, skill.skill.manifestPath), 'utf8');
  const body = markdown.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n?/, '');
  return [{ name: skill.ref, description: skill.skill.description, text: body }];
}
