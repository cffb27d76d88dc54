/** An MCP server the operator configures, in Kazma's configuration shape (plus an opt-in sandbox). */
import { isAbsolute, posix } from 'node:path';
import { z } from 'zod';
import { networkSettingSchema } from '../config/network-setting';

const NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;

const hostPath = z
  .string()
  .refine((path) => isAbsolute(path) && posix.normalize(path) === path && path !== '/', 'an absolute, normalized path');

/**
 * A stdio server run in the sandbox skill servers get: no network unless `network` (through the egress
 * proxy, like a skill's), the system read-only, and of the host only the `read_only` paths (mounted
 * where they are) and the program.
 */
const sandboxSchema = z.strictObject({
  network: networkSettingSchema.default(false),
  read_only: z.array(hostPath).max(50).default([]),
});

export const mcpServerConfigSchema = z
  .object({
    name: z.string().regex(NAME, 'letters, digits and single hyphens (it becomes part of mcp__<server>__<tool>)'),
    transport: z
      .enum(['stdio', 'sse', 'streamable-http', 'streamable_http', 'http'])
      .transform((t) => (t === 'streamable_http' || t === 'http' ? 'streamable-http' : t)),
    command: z.array(z.string().min(1)).min(1).max(64).optional(),
    url: z.url().optional(),
    auth: z
      .discriminatedUnion('type', [
        z.object({ type: z.literal('bearer'), token: z.string().min(1) }),
        z.object({
          type: z.literal('header'),
          name: z.string().regex(/^[A-Za-z0-9-]{1,64}$/),
          value: z.string().min(1),
        }),
      ])
      .optional(),
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).default({}),
    trust: z.enum(['approval_required', 'trusted']).default('approval_required'),
    /** `true`, or `{network, read_only}`: run this stdio server in the sandbox. */
    sandbox: z
      .union([z.boolean(), sandboxSchema])
      .default(false)
      .transform((s) => (s === false ? null : s === true ? { network: false, read_only: [] } : s)),
  })
  .superRefine((s, ctx) => {
    if (s.transport === 'stdio' && !s.command)
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'stdio needs command' });
    if (s.transport !== 'stdio' && !s.url)
      ctx.addIssue({ code: 'custom', path: ['url'], message: `${s.transport} needs url` });
    if (s.transport !== 'stdio' && s.sandbox)
      ctx.addIssue({ code: 'custom', path: ['sandbox'], message: 'only a stdio server runs in a sandbox' });
  });

export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>;
