/**
 * The publisher's Ed25519 key files: `<name>.key` (PKCS#8 PEM, mode 0600) and `<name>.pub`
 * (SPKI PEM), by default in `~/.config/skillhub/keys`. A private key others can read is refused,
 * as ssh does.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { DomainError } from '@skillhub/errors';
import { generateHubKey, keyId, loadPrivateKey, publicKeyFromPem, type TrustedKey } from '@skillhub/signing';
import { configDir } from './config';
import { CliError, EXIT } from './exit-codes';

export const keysDir = (env: NodeJS.ProcessEnv): string => join(configDir(env), 'keys');

const KEY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface GeneratedKey {
  keyId: string;
  privateKey: string;
  publicKey: string;
}

/** Writes a new key pair; never overwrites one (a lost private key is re-generated under another name). */
export function generateKeyFiles(dir: string, name: string): GeneratedKey {
  if (!KEY_NAME.test(name)) {
    throw new CliError(`"${name}" is not a key name`, EXIT.usage, 'Use letters, digits, . _ and - (at most 64).');
  }
  const privateKey = resolve(dir, `${name}.key`);
  const publicKey = resolve(dir, `${name}.pub`);
  const existing = [privateKey, publicKey].find((path) => existsSync(path));
  if (existing) {
    throw new CliError(`${existing} already exists`, EXIT.usage, 'Pick another --name; keys are never overwritten.');
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const pair = generateHubKey();
  // `wx`: fail rather than follow a file or link created in between. The public half first, so a
  // failure never leaves a private key without it.
  writeFileSync(publicKey, pair.publicKeyPem, { mode: 0o644, flag: 'wx' });
  writeFileSync(privateKey, pair.privateKeyPem, { mode: 0o600, flag: 'wx' });
  chmodSync(privateKey, 0o600);
  return { keyId: keyId(publicKeyFromPem(pair.publicKeyPem)), privateKey, publicKey };
}

export function readPrivateKey(path: string): KeyObject {
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    throw new CliError(`${path}: no such key file`, EXIT.usage, 'Create one with: skillhub keys generate');
  }
  if ((mode & 0o077) !== 0) {
    throw new CliError(
      `${path} is readable by others (mode ${mode.toString(8).padStart(4, '0')}); refusing to sign with it`,
      EXIT.usage,
      `Run: chmod 600 ${path}`,
    );
  }
  return asCliError(() => loadPrivateKey(readFileSync(path, 'utf8'), path));
}

/** A `.pub` file's text and key id, checked to be an Ed25519 public key. */
export function readPublicKey(path: string): { pem: string; keyId: string; publicKey: KeyObject } {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch {
    throw new CliError(`${path}: no such key file`, EXIT.usage, 'Pass the .pub file `skillhub keys generate` wrote.');
  }
  const publicKey = asCliError(() => publicKeyFromPem(pem));
  return { pem, keyId: keyId(publicKey), publicKey };
}

/** A `.pub` file as a key to verify with. */
export function trustedKeyFile(path: string): TrustedKey {
  const { keyId: keyid, publicKey } = readPublicKey(path);
  return { keyid, publicKey };
}

/** Every `.pub` in the folder (none when the folder does not exist). */
export function localPublicKeys(dir: string): TrustedKey[] {
  const names = existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.pub')) : [];
  return names.sort().map((n) => trustedKeyFile(join(dir, n)));
}

function asCliError<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof DomainError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
}
