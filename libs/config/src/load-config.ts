import { envSchema, type HubConfig } from './env.schema';

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
