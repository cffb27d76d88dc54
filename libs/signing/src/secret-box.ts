/**
 * Encryption at rest for the HMAC secrets publishers register (C4 keeps them "stored
 * encrypted"): AES-256-GCM, text form `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { decodeBase64 } from './base64';
import { InvalidSecretKeyError, SecretUnreadableError } from './signing.errors';

const VERSION = 'v1';
const KEY_BYTES = 32;
// 96-bit random IVs are GCM's recommended size; a key is good for far more seals than a hub makes.
const IV_BYTES = 12;
const TAG_BYTES = 16;
// The version is authenticated too, so a later format cannot be fed this one's ciphertext.
const AAD = Buffer.from(VERSION, 'utf8');
const MAX_KEY_TEXT = 128;

export function sealSecret(plaintext: string, key32: Buffer): string {
  assertKey(key32);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key32, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(AAD);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'))].join('.');
}

/** Throws SecretUnreadableError for a wrong key, any altered byte or a string that is not a sealed secret. */
export function openSecret(sealed: string, key32: Buffer): string {
  assertKey(key32);
  const [version, ...encoded] = sealed.split('.');
  const parts = encoded.map((part) => decodeBase64(part, 'base64url'));
  if (version !== VERSION || parts.length !== 3) throw new SecretUnreadableError();
  const [iv, tag, ciphertext] = parts;
  // The tag length is pinned here and in the decipher: Node would otherwise accept a truncated tag, which is easier to forge.
  if (iv?.length !== IV_BYTES || tag?.length !== TAG_BYTES || ciphertext === undefined) {
    throw new SecretUnreadableError();
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key32, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(AAD);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretUnreadableError();
  }
}

/** Reads the 32-byte encryption key from configuration: 64 hex characters, or base64 / base64url. */
export function parseSecretKey(hexOrBase64: string): Buffer {
  const key = decodeKeyText(hexOrBase64);
  if (key?.length !== KEY_BYTES) {
    throw new InvalidSecretKeyError(
      `The secret-encryption key must be ${KEY_BYTES} bytes, written as 64 hex characters or in base64`,
    );
  }
  return key;
}

function decodeKeyText(text: string): Buffer | undefined {
  if (text.length > MAX_KEY_TEXT) return undefined; // capped before any regex
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  return decodeBase64(text, 'base64') ?? decodeBase64(text, 'base64url');
}

function assertKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) {
    throw new InvalidSecretKeyError(`The secret-encryption key must be ${KEY_BYTES} bytes, got ${key.length}`);
  }
}
