/** How much network a sandboxed server gets: always through the egress proxy, never the host's own. */
import { z } from 'zod';

/** A host name a server may reach through the egress proxy: `api.example.com`, or `*.example.com` for its subdomains. */
const domainPattern = z
  .string()
  .max(253)
  .regex(
    /^(\*\.)?[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)+$/,
    'a host name, or *.<domain>',
  );

/**
 * Network through the egress proxy: `true` (any public host), `false`, or `{domains: […]}` (only those
 * hosts). Never the host's own network.
 */
export const networkSettingSchema = z.union([
  z.boolean(),
  z.strictObject({ domains: z.array(domainPattern).min(1).max(100) }),
]);

export type NetworkSetting = z.infer<typeof networkSettingSchema>;

/** The egress a server gets: null, none; `domains` null, any public host; else only those hosts. */
export interface ServerNetwork {
  domains: readonly string[] | null;
}

/** A server's egress from what its skill declares and what the operator set: `{domains}` always narrows. */
export const serverNetwork = (declared: boolean, setting: NetworkSetting): ServerNetwork | null => {
  if (typeof setting === 'object') return { domains: setting.domains };
  return declared || setting ? { domains: null } : null;
};
