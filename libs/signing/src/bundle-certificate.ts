/**
 * Offline verification of a certificate against the bundle it was issued for: the
 * signature by a hub key that was valid when the certificate was issued (so a key
 * rotated out since still verifies what it signed), the expiry, the bundle's SHA-256
 * and, when the files are given, each file's digest.
 */
import { decodeStatement, verifyCertificate, type CertificateStatement } from './certificate-statement';
import { sha256Hex } from '@skillhub/bundle';
import type { DsseEnvelope, TrustedKey } from './dsse';
import { assertIssued, BundleMismatchError, CertificateExpiredError, MalformedEnvelopeError } from './signing.errors';

export interface BundleCertificateCheck {
  envelope: unknown;
  keys: readonly TrustedKey[];
  /** The exact gzipped bytes downloaded. */
  bundle: Buffer;
  /** The bundle's files (path relative to the skill folder), to compare one by one. */
  files?: ReadonlyArray<{ path: string; content: Buffer }>;
  now?: Date;
}

export function verifyBundleCertificate(check: BundleCertificateCheck): CertificateStatement {
  const claimed = claimedStatement(check.envelope);
  // Verified at its own issue time: key validity windows are about when a key signed.
  const statement = verifyCertificate(check.envelope, check.keys, new Date(claimed.issuedAt));
  const now = check.now ?? new Date();
  if (Date.parse(statement.expiresAt) <= now.getTime()) throw new CertificateExpiredError(statement.expiresAt);
  assertIssued('certificate', statement.issuedAt, now);
  const actual = sha256Hex(check.bundle);
  if (actual !== statement.bundleSha256) {
    throw new BundleMismatchError(
      `bundle SHA-256 is ${actual}, the certificate was issued for ${statement.bundleSha256}`,
    );
  }
  if (check.files) {
    const seen = new Map(check.files.map((f) => [f.path, sha256Hex(f.content)]));
    const paths = new Set([...seen.keys(), ...Object.keys(statement.files)]);
    const problems = [...paths]
      .filter((path) => seen.get(path) !== statement.files[path])
      .map((path) => ({
        path,
        message: !seen.has(path) ? 'missing' : !(path in statement.files) ? 'not in the certificate' : 'digest differs',
        severity: 'error' as const,
      }));
    if (problems.length)
      throw new BundleMismatchError(`${problems.length} file(s) differ from the certificate`, problems);
  }
  return statement;
}

/** The statement as the envelope claims it, before verification (only to learn its issue time). */
function claimedStatement(envelope: unknown): CertificateStatement {
  const payload = (envelope as Partial<DsseEnvelope> | null)?.payload;
  if (typeof payload !== 'string') throw new MalformedEnvelopeError('the envelope has no payload');
  return decodeStatement(Buffer.from(payload, 'base64'));
}
