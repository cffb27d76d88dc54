/** The lib's one digest helper and its one way to compare digests. */
import { createHash, timingSafeEqual } from 'node:crypto';

/** A SHA-256 digest spelled the only way this lib accepts: 64 lowercase hex characters. */
export const SHA256_HEX_PATTERN = /^[0-9a-f]{64}$/;

/** SHA-256 over the concatenation of `parts` (strings as UTF-8), so prefixed hashes need no intermediate buffer. */
export function sha256(...parts: ReadonlyArray<Buffer | string>): Buffer {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/**
 * Constant-time equality of two digests. `timingSafeEqual` throws on unequal lengths, and the
 * lengths of digests are public, so they are checked first.
 */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
