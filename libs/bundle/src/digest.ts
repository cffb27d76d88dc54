/**
 * The one SHA-256 helper of the tree: bundles, file records, certificates, signatures, the log
 * and tool pins all digest with it. It lives here, the lowest lib that digests, so that every
 * other one (signing, gate, certification) can import it without a cycle.
 */
import { createHash } from 'node:crypto';

/** SHA-256 over the concatenation of `parts` (strings as UTF-8), so prefixed hashes need no intermediate buffer. */
export function sha256(...parts: ReadonlyArray<Buffer | string>): Buffer {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** Lowercase hex SHA-256, the one digest spelling used in reports, certificates and manifests. */
export const sha256Hex = (...parts: ReadonlyArray<Buffer | string>): string => sha256(...parts).toString('hex');
