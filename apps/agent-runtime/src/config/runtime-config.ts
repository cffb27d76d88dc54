/** The runtime's YAML configuration: which skills to install, which MCP servers to run, and the gate's policy. */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { mcpServerConfigSchema } from '../mcp/mcp-server.config';

const SKILL_SPEC = /^([a-z0-9][a-z0-9-]{0,38})\/([a-z0-9][a-z0-9-]{0,63})@(.{1,64})$/;

export const runtimeConfigSchema = z.object({
  /** Defaults to KAZMA_HUB_URL. */
  hub: z.url().optional(),
  /** Hub public keys pinned by the operator; without them the first keys seen are pinned and stored. */
  keys: z.array(z.object({ keyid: z.string().regex(/^[0-9a-f]{64}$/), public_key_pem: z.string().min(1) })).default([]),
  state_dir: z.string().min(1).default('.skillhub-runtime'),
  /** `author/name@<semver range>`. */
  skills: z.array(z.string().regex(SKILL_SPEC, 'author/name@<semver range>')).max(200).default([]),
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
});

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

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
