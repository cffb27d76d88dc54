/**
 * Where the CLI finds the hub and the token: flags, then the environment, then a 0600 config file,
 * where `skillhub login` keeps one token per hub URL (docs/cli.md).
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { JsonStateFile } from '@skillhub/installer';
import { CliError, EXIT } from './exit-codes';

export const DEFAULT_HUB_URL = 'http://127.0.0.1:3000';

/** `$XDG_CONFIG_HOME/skillhub`, else `~/.config/skillhub`: the config file and the publisher keys live here. */
export function configDir(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'skillhub');
}

export const configPath = (env: NodeJS.ProcessEnv): string => join(configDir(env), 'config.json');

export interface ConfigFile {
  /** A token for any hub: what a hand-written file holds; a login for the hub in use wins over it. */
  token?: string;
  hub_url?: string;
  /** `skillhub login`'s tokens, by normalised hub URL. */
  hubs?: Record<string, { token?: string }>;
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

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * SKILLHUB_TOKEN, else the token `login` stored for this hub, else the config file's own `token`;
 * the file is read only when the variable is unset.
 */
export function resolveToken(env: NodeJS.ProcessEnv, hubUrl?: string): string | undefined {
  if (env.SKILLHUB_TOKEN) return env.SKILLHUB_TOKEN;
  const file = readConfigFile(configPath(env));
  const stored = hubUrl === undefined ? undefined : file.hubs?.[normaliseHubUrl(hubUrl)]?.token;
  return text(stored) ?? text(file.token);
}

/**
 * The hub's root as people paste it: surrounding spaces, trailing slashes and an API suffix
 * (`…/api/v1`, copied from a route) removed, so requests never go to `/api/v1/api/v1/…`.
 */
export function normaliseHubUrl(url: string): string {
  return url
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/api(?:\/v1)?$/i, '')
    .replace(/\/+$/, '');
}

/** --hub-url, else KAZMA_HUB_URL, else the config file's hub_url, else the local default; normalised. */
export function resolveHubUrl(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const chosen = text(flag) ?? text(env.KAZMA_HUB_URL) ?? text(readConfigFile(configPath(env)).hub_url);
  return normaliseHubUrl(chosen ?? DEFAULT_HUB_URL);
}

/** Stores (or with `null` forgets) the token for a hub; the file stays mode 0600, its folder 0700. */
export function storeToken(env: NodeJS.ProcessEnv, hubUrl: string, token: string | null): ConfigFile {
  const path = configPath(env);
  const file = readConfigFile(path);
  const hubs = { ...file.hubs };
  const key = normaliseHubUrl(hubUrl);
  if (token === null) delete hubs[key];
  else hubs[key] = { ...hubs[key], token };
  const next: ConfigFile = { ...file, hubs };
  new JsonStateFile<ConfigFile>(path).write(next);
  return next;
}
