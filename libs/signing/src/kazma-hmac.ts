/**
 * Kazma's v1 skill signing (`kazma hub sign`), byte-compatible in both directions: `checksum`
 * is the hex SHA-256 of the entry-point file and `signature` the hex HMAC-SHA256 of that hex
 * STRING, keyed by the UTF-8 bytes of the secret (docs/kazma.md).
 */
import { createHmac } from 'node:crypto';
import { sha256, sha256Hex } from '@skillhub/bundle';
import { digestsEqual, SHA256_HEX_PATTERN } from './digest';

/** The manifest fields `hub sign` writes back; they are left out wherever the manifest itself is digested. */
export const KAZMA_SIGNATURE_FIELDS = ['checksum', 'signature'] as const;

/**
 * Outcome of checks C3 (checksum) and C4 (HMAC). A skill may load with `verified`, or with
 * `checksum-only` / `unsigned` reported as an "unsigned" finding; every other status refuses it.
 */
export type KazmaVerification =
  | { status: 'unsigned' }
  | { status: 'tampered'; reason: 'malformed-checksum' | 'checksum-mismatch' }
  | { status: 'checksum-only' }
  | { status: 'no-secret' }
  | { status: 'bad-signature'; reason: 'missing-checksum' | 'malformed-signature' | 'no-matching-secret' | 'error' }
  /** `secretIndex` points into the `secrets` given, so the caller can say whose secret matched. */
  | { status: 'verified'; secretIndex: number };

export interface KazmaVerificationInput {
  entryPointBytes: Buffer;
  /** The manifest's `checksum`, undefined when the field is absent. */
  checksum?: string;
  /** The manifest's `signature`, undefined when the field is absent. */
  signature?: string;
  /** Candidate secrets: the namespace's registered ones and the hub's own. Empty strings are ignored. */
  secrets: readonly string[];
}

export function kazmaChecksum(entryPointBytes: Buffer): string {
  return sha256Hex(entryPointBytes);
}

export function kazmaSignature(checksumHex: string, secret: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(checksumHex, 'utf8')).digest('hex');
}

/**
 * Fail-closed verification in Kazma's order: a checksum must be well-formed and match before a
 * signature is even looked at, and a signature needs a secret. Digests are compared as decoded
 * bytes in constant time. Stricter than Kazma only where that refuses more: hex must be
 * lowercase, a signature without checksum fails, and an empty secret (anyone could forge with
 * it) never counts as available.
 */
export function verifyKazmaSignature(input: KazmaVerificationInput): KazmaVerification {
  try {
    const { entryPointBytes, checksum, signature, secrets } = input;
    if (checksum === undefined) {
      // A signature over no checksum is present but unverifiable, which C4 fails; `hub sign` always writes both.
      return signature === undefined ? { status: 'unsigned' } : { status: 'bad-signature', reason: 'missing-checksum' };
    }
    if (!isHexDigest(checksum)) return { status: 'tampered', reason: 'malformed-checksum' };
    if (!digestsEqual(Buffer.from(checksum, 'hex'), sha256(entryPointBytes))) {
      return { status: 'tampered', reason: 'checksum-mismatch' };
    }
    if (signature === undefined) return { status: 'checksum-only' };
    if (!isHexDigest(signature)) return { status: 'bad-signature', reason: 'malformed-signature' };
    if (!secrets.some((secret) => secret !== '')) return { status: 'no-secret' };
    const claimed = Buffer.from(signature, 'hex');
    const secretIndex = secrets.findIndex(
      (secret) => secret !== '' && digestsEqual(Buffer.from(kazmaSignature(checksum, secret), 'hex'), claimed),
    );
    return secretIndex === -1
      ? { status: 'bad-signature', reason: 'no-matching-secret' }
      : { status: 'verified', secretIndex };
  } catch {
    // Contract: an error while verifying refuses the skill; it is never swallowed into a pass.
    return { status: 'bad-signature', reason: 'error' };
  }
}

// `typeof` too: the values come from parsed YAML, where `checksum: 123` is a number at run time.
const isHexDigest = (value: unknown): value is string => typeof value === 'string' && SHA256_HEX_PATTERN.test(value);
