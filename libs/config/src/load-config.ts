import { envSchema, type HubConfig } from './env.schema';

export { ADDRESS_PORT } from './env.schema';

export class ConfigError extends Error {}

/**
 * Validates the environment once. Empty strings count as unset, so `FOO=` in a
 * compose file falls back to the default instead of failing a type rule.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): HubConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

export const isEmbedded = (config: Pick<HubConfig, 'DATABASE_URL'>): boolean => !config.DATABASE_URL;

/** For `main.ts`: the configuration, or the process stops with a message naming every bad variable. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): HubConfig {
  try {
    return loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}
