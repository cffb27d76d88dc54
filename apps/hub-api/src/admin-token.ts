/**
 * The embedded default needs an operator token to create the first publisher token.
 * When HUB_ADMIN_TOKEN is unset, one is generated once into the data folder (0600)
 * and its path, never its value, is printed.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function ensureDevAdminToken(dataDir: string): { token: string; path: string } {
  const dir = resolve(dataDir);
  const path = join(dir, 'admin-token');
  if (existsSync(path)) return { token: readFileSync(path, 'utf8').trim(), path };
  mkdirSync(dir, { recursive: true });
  const token = `sha_${randomBytes(32).toString('base64url')}`;
  writeFileSync(path, `${token}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return { token, path };
}
