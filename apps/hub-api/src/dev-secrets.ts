/**
 * The embedded default runs with nothing configured: the operator token and the
 * encryption key are generated once into the data folder (0600) when unset, and only
 * their paths are printed, never their values.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function ensureDevSecret(
  dataDir: string,
  fileName: string,
  generate: () => string,
): { value: string; path: string } {
  const dir = resolve(dataDir);
  const path = join(dir, fileName);
  if (existsSync(path)) return { value: readFileSync(path, 'utf8').trim(), path };
  mkdirSync(dir, { recursive: true });
  const value = generate();
  writeFileSync(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return { value, path };
}

export const newAdminToken = (): string => `sha_${randomBytes(32).toString('base64url')}`;
export const newEncryptionKey = (): string => randomBytes(32).toString('hex');
