/** Publisher token secrets: 256 random bits, a recognisable prefix, stored only as SHA-256. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_PREFIX = 'shp_';

export const generateTokenSecret = (): string => TOKEN_PREFIX + randomBytes(32).toString('base64url');

export const hashToken = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** The part shown in listings, so a user can tell tokens apart without the secret. */
export const displayPrefix = (secret: string): string => secret.slice(0, TOKEN_PREFIX.length + 8);

/** Compares two secrets in constant time (over their digests, so lengths may differ). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
