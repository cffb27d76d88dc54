/** Where the CLI finds the hub and the token: flags, then the environment, then a 0600 config file. */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CliError, EXIT } from './exit-codes';

export const DEFAULT_HUB_URL = 'http://127.0.0.1:3000';

/** `$XDG_CONFIG_HOME/skillhub`, else `~/.config/skillhub`: the config file and the publisher keys live here. */
export function configDir(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'skillhub');
}

export const configPath = (env: NodeJS.ProcessEnv): string => join(configDir(env), 'config.json');

interface ConfigFile {
  token?: string;
  hub_url?: string;
}

/** The config file, or {} when there is none; refused when others may read it (mode looser than 0600). */
export function readConfigFile(path: string): ConfigFile {
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    return {};
  }
  if ((mode & 0o077) !== 0) {
    throw new CliError(
      `${path} is readable by others (mode ${mode.toString(8).padStart(4, '0')}); refusing to read a token from it`,
      EXIT.usage,
      `Run: chmod 600 ${path}`,
    );
  }
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return parsed !== null && typeof parsed === 'object' ? (parsed as ConfigFile) : {};
  } catch {
    throw new CliError(`${path} is not valid JSON`, EXIT.usage, 'Write it as {"token": "shp_…", "hub_url": "…"}.');
  }
}

/** SKILLHUB_TOKEN, else the config file's token; the file is read only when the variable is unset. */
export function resolveToken(env: NodeJS.ProcessEnv): string | undefined {
  if (env.SKILLHUB_TOKEN) return env.SKILLHUB_TOKEN;
  const token = readConfigFile(configPath(env)).token;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

/** --hub-url, else KAZMA_HUB_URL, else the config file's hub_url, else the local default. */
export function resolveHubUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flag) return flag;
  if (env.KAZMA_HUB_URL) return env.KAZMA_HUB_URL;
  const fromFile = readConfigFile(configPath(env)).hub_url;
  return typeof fromFile === 'string' && fromFile !== '' ? fromFile : DEFAULT_HUB_URL;
}
