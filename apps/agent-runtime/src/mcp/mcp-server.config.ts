/** An MCP server the runtime connects to, in Kazma's configuration shape. */
import { z } from 'zod';

const NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;

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
  })
  .superRefine((s, ctx) => {
    if (s.transport === 'stdio' && !s.command)
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'stdio needs command' });
    if (s.transport !== 'stdio' && !s.url)
      ctx.addIssue({ code: 'custom', path: ['url'], message: `${s.transport} needs url` });
  });

export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>;
