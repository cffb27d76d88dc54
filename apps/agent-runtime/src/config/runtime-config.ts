/**
 * The runtime's YAML configuration: which skills to install, which MCP servers to run, the sandbox
 * skill servers run in and what each skill is granted beyond it (network, secrets), and the gate's
 * policy. `examples/runtime.yaml` shows every field.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, posix } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { ADDRESS_PORT } from '@skillhub/config/env';
import { PERMISSION_TIERS } from '@skillhub/gate';
import { mcpServerConfigSchema } from '../mcp/mcp-server.config';
import { networkSettingSchema } from './network-setting';

const SKILL_SPEC = /^([a-z0-9][a-z0-9-]{0,38})\/([a-z0-9][a-z0-9-]{0,63})@(.{1,64})$/;
const SKILL_REF = /^[a-z0-9][a-z0-9-]{0,38}\/[a-z0-9][a-z0-9-]{0,63}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** SwarmKit's scope pattern. */
const IAM_SCOPE = /^[a-z][a-z0-9_-]{0,63}:[a-z*][a-z0-9_*-]{0,63}$/;
/** How `${NAME}` placeholders in a server's env name a secret. */
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

const absolutePath = z
  .string()
  .refine((path) => isAbsolute(path) && posix.normalize(path) === path && path !== '/', 'an absolute, normalized path');

/** A secret's value comes from one named place, never from the runtime's environment as a whole. */
const secretSourceSchema = z.union([
  z.strictObject({ env: z.string().regex(ENV_NAME, 'an environment variable name') }),
  z.strictObject({ file: absolutePath }),
]);

/** What one skill gets beyond the sandbox's defaults, and how its tools are gated. */
const grantSchema = z.strictObject({
  /**
   * Network through the egress proxy, as if the skill declared `network_outbound` (`true`), or only to
   * these domains (`{domains}`, which also narrows a skill that declares network).
   */
  network: networkSettingSchema.default(false),
  /** Secrets (names under `secrets:`) its servers' `${NAME}` placeholders may be filled from. */
  secrets: z.array(z.string().regex(SECRET_NAME, 'a secret name')).max(100).default([]),
  /** SwarmKit `iam.required_scopes` the skill may hold: without all of them it offers nothing. */
  scopes: z.array(z.string().regex(IAM_SCOPE, 'namespace:action, e.g. repo:read or repo:*')).max(100).default([]),
  /** The skill's permission tier (libs/gate permission-tier.ts); combined with any the skill declares. */
  permission: z.enum(PERMISSION_TIERS).optional(),
});

export const runtimeConfigSchema = z
  .object({
    /** Defaults to KAZMA_HUB_URL. */
    hub: z.url().optional(),
    /** Hub public keys pinned by the operator; without them the first keys seen are pinned and stored. */
    keys: z
      .array(z.object({ keyid: z.string().regex(/^[0-9a-f]{64}$/), public_key_pem: z.string().min(1) }))
      .default([]),
    state_dir: z.string().min(1).default('.skillhub-runtime'),
    /** `author/name@<semver range>`. */
    skills: z.array(z.string().regex(SKILL_SPEC, 'author/name@<semver range>')).max(200).default([]),
    /**
     * A skill not installable at start (not published yet, no certified version in its range, the
     * hub down) is asked for again this often, and served as soon as it installs.
     */
    install_retry_seconds: z.number().int().min(1).max(86_400).default(60),
    /** The registry certified npm packages are fetched from (their integrity is checked whatever it is). */
    npm_registry: z.url().default('https://registry.npmjs.org'),
    /** The index PyPI servers' certified wheels are installed from (`<url>/simple/`), each by its hash. */
    pypi_registry: z.url().default('https://pypi.org'),
    /**
     * `on`: skill servers run only in the sandbox (bubblewrap); without it they do not start. `off`:
     * they run as plain processes, with a warning at every start.
     */
    sandbox: z.preprocess(
      (value) => (value === true ? 'on' : value === false ? 'off' : value),
      z.enum(['on', 'off']).default('on'),
    ),
    /**
     * Per skill server, for the server and all it spawns together (control groups where the kernel
     * allows, else per process). CPU time counts over the server's life: spent, it is killed and
     * started again.
     */
    sandbox_limits: z
      .strictObject({
        memory_mib: z.number().int().min(64).max(65_536).default(1024),
        cpu_seconds: z.number().int().min(1).max(10_000_000).default(3600),
        processes: z.number().int().min(8).max(65_536).default(256),
        cpu_cores: z.number().min(0.05).max(1024).default(1),
        tmpfs_mib: z.number().int().min(1).max(65_536).default(64),
      })
      .default({ memory_mib: 1024, cpu_seconds: 3600, processes: 256, cpu_cores: 1, tmpfs_mib: 64 }),
    /**
     * The egress proxy servers with network go through, and certified remote servers are reached
     * through. It reaches public addresses only; these exact `address:port` destinations (an internal
     * API, say) are let through as well. `ca_file`: a PEM file of CAs trusted for remote servers
     * besides the system's (and NODE_EXTRA_CA_CERTS).
     */
    sandbox_egress: z
      .strictObject({
        allow_addresses: z.array(z.string().regex(ADDRESS_PORT, 'address:port ([v6]:port)')).max(100).default([]),
        ca_file: z.string().min(1).nullable().default(null),
      })
      .default({ allow_addresses: [], ca_file: null }),
    /** Named secrets: where each value is read from. Only skills granted a secret get it. */
    secrets: z.record(z.string().regex(SECRET_NAME, 'a secret name'), secretSourceSchema).default({}),
    /** `author/name` → what that skill's servers are granted. */
    grants: z.record(z.string().regex(SKILL_REF, 'author/name'), grantSchema).default({}),
    mcp_servers: z.array(mcpServerConfigSchema).max(100).default([]),
    approvals: z.object({ allow: z.array(z.string()).max(1000).default([]) }).default({ allow: [] }),
    gateway: z
      .object({
        stdio: z.boolean().default(false),
        http: z
          .object({
            host: z.string().default('127.0.0.1'),
            port: z.number().int().min(0).max(65535),
            /** The environment variable holding a token clients must send as `Authorization: Bearer …`. */
            token_env: z
              .string()
              .regex(/^[A-Z_][A-Z0-9_]{0,63}$/, 'an environment variable name')
              .optional(),
            /** More `host:port` names clients reach the gateway by (sent as Host); others get 403. */
            allowed_hosts: z
              .array(z.string().regex(/^[A-Za-z0-9.\-[\]:]{1,255}:\d{1,5}$/, 'host:port'))
              .max(20)
              .default([]),
          })
          .optional(),
      })
      .default({ stdio: false }),
  })
  .superRefine((config, ctx) => {
    const names = new Set<string>();
    config.mcp_servers.forEach((server, index) => {
      if (names.has(server.name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['mcp_servers', index, 'name'],
          message: `${server.name} is listed twice`,
        });
      }
      names.add(server.name);
    });
    const skills = new Set(config.skills.map((spec) => spec.slice(0, spec.indexOf('@'))));
    for (const [skill, grant] of Object.entries(config.grants)) {
      if (!skills.has(skill)) {
        ctx.addIssue({ code: 'custom', path: ['grants', skill], message: `${skill} is not one of the skills` });
      }
      grant.secrets.forEach((secret, index) => {
        if (!Object.hasOwn(config.secrets, secret)) {
          ctx.addIssue({
            code: 'custom',
            path: ['grants', skill, 'secrets', index],
            message: `${secret} is not defined under secrets`,
          });
        }
      });
    }
  });

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
export type SecretSource = z.infer<typeof secretSourceSchema>;
export type SkillGrant = z.infer<typeof grantSchema>;

export const parseSkillSpec = (spec: string) => {
  const [, author, name, range] = SKILL_SPEC.exec(spec)!;
  return { author: author!, name: name!, range: range! };
};

export class RuntimeConfigError extends Error {}

export function loadRuntimeConfig(path: string): RuntimeConfig {
  let raw: unknown;
  try {
    raw = parse(readFileSync(path, 'utf8'), { maxAliasCount: 50 });
  } catch (err) {
    throw new RuntimeConfigError(`cannot read ${path}: ${(err as Error).message}`);
  }
  const result = runtimeConfigSchema.safeParse(raw ?? {});
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new RuntimeConfigError(`invalid runtime configuration ${path}:\n${lines.join('\n')}`);
  }
  return result.data;
}
