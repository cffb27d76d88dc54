/** How this lib spells and compares digests; the digest itself is `@skillhub/bundle`'s one SHA-256. */
import { timingSafeEqual } from 'node:crypto';

/** A SHA-256 digest spelled the only way this lib accepts: 64 lowercase hex characters. */
export const SHA256_HEX_PATTERN = /^[0-9a-f]{64}$/;

/**
 * Constant-time equality of two digests. `timingSafeEqual` throws on unequal lengths, and the
 * lengths of digests are public, so they are checked first.
 */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
