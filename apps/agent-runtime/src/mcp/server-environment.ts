/**
 * What a stdio MCP server is started with: an allowlist of the runtime's environment
 * (what a program needs to run at all) plus the server's own `env` — never the
 * runtime's secrets (KAZMA_SECRET, tokens, keys) unless KAZMA_MCP_INHERIT_ENV=1.
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
