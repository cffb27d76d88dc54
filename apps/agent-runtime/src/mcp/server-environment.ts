/**
 * What a stdio MCP server is started with. An operator's server outside the sandbox: an
 * allowlist of the runtime's environment (what a program needs to run at all) plus its own
 * `env`, never the runtime's secrets (KAZMA_SECRET, tokens, keys) unless
 * KAZMA_MCP_INHERIT_ENV=1. A skill's server: its certified `env`, each `${NAME}` filled from
 * a secret the runtime config names and grants, never from the runtime's environment.
 */
const ALLOWED = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'TMPDIR',
  'TMP',
  'TEMP',
  'LANG',
  'LANGUAGE',
  'TZ',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'SYSTEMROOT',
]);

const isAllowed = (name: string): boolean => ALLOWED.has(name) || name.startsWith('LC_');

export function serverEnvironment(
  runtimeEnv: NodeJS.ProcessEnv,
  serverEnv: Readonly<Record<string, string>> = {},
  inheritAll = false,
): Record<string, string> {
  const base = Object.entries(runtimeEnv).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && (inheritAll || isAllowed(entry[0])),
  );
  return { ...Object.fromEntries(base), ...serverEnv };
}

/** For messages and logs: long secret-looking values and URL credentials replaced. */
export function maskSecrets(text: string, secrets: readonly string[] = []): string {
  let masked = text.replace(/(\/\/)[^/@\s:]+:[^/@\s]+@/g, '$1***:***@');
  for (const secret of secrets) if (secret.length >= 6) masked = masked.split(secret).join('***');
  return masked.replace(/\b(Bearer|token|key|secret|password)([=: ]+)\S{6,}/gi, '$1$2***');
}

/** A `${NAME}` placeholder in a declared value. */
const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export type FilledEnvironment =
  { ok: true; env: Record<string, string>; secrets: string[] } | { ok: false; missing: string[] };

/**
 * The env with every `${NAME}` replaced by `secret(NAME)`; `missing` lists, once each and in order,
 * the names `secret` has no value for. `secrets`: the values used, to mask in messages.
 */
export function fillPlaceholders(
  declared: Readonly<Record<string, string>>,
  secret: (name: string) => string | undefined,
): FilledEnvironment {
  const missing: string[] = [];
  const used = new Set<string>();
  const env = Object.fromEntries(
    Object.entries(declared).map(([name, value]) => [
      name,
      value.replace(PLACEHOLDER, (placeholder, wanted: string) => {
        const found = secret(wanted);
        if (found === undefined) {
          if (!missing.includes(wanted)) missing.push(wanted);
          return placeholder;
        }
        used.add(found);
        return found;
      }),
    ]),
  );
  return missing.length > 0 ? { ok: false, missing } : { ok: true, env, secrets: [...used] };
}
