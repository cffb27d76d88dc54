/**
 * The hub's signed revocation list (a DSSE envelope over canonical JSON), read in full or refused:
 * an unreadable entry might be the one that revokes the skill. Installation checks it inside
 * `verifyInstallation`; `skillhub verify` checks an installed skill against it, online or from the
 * list seen last.
 */
import { canonicalJson } from './canonical-json';
import { verifyEnvelope, type DsseEnvelope, type TrustedKey } from './dsse';
import type { CertificateStatement } from './certificate-statement';
import { isCanonicalIsoTime } from './iso-time';
import { isRecord } from './is-record';
import { MalformedEnvelopeError, UnexpectedPayloadTypeError } from './signing.errors';

export const REVOCATIONS_PAYLOAD_TYPE = 'application/vnd.skillhub.revocations+json';

export interface RevokedVersion {
  skill: string;
  version: string;
  bundleSha256: string;
  reason: string;
  revokedAt: string;
}

export interface RevocationList {
  issuedAt: string;
  expiresAt: string;
  revoked: RevokedVersion[];
}

const REVOKED_TEXT_FIELDS = ['skill', 'version', 'bundleSha256', 'reason', 'revokedAt'] as const;

/** Verifies the list's signature and reads it whole; throws otherwise. */
export function verifyRevocationList(envelope: unknown, keys: readonly TrustedKey[]): RevocationList {
  const { payload, payloadType } = (isRecord(envelope) ? envelope : {}) as Partial<DsseEnvelope>;
  if (typeof payload !== 'string') throw new MalformedEnvelopeError('the envelope has no payload');
  // The same keys sign certificates; one of those must never pass for a list.
  if (payloadType !== REVOCATIONS_PAYLOAD_TYPE) {
    throw new UnexpectedPayloadTypeError(REVOCATIONS_PAYLOAD_TYPE, String(payloadType));
  }
  // Verified at its own issue time, as certificates are: a list signed just before a key
  // rotation stays good until it expires. The claimed time is read only to pick that instant.
  const claimed = readRevocationList(Buffer.from(payload, 'base64'));
  return readRevocationList(verifyEnvelope(envelope, keys, new Date(claimed.issuedAt)));
}

/** Refuses anything it cannot read in full: an unreadable entry might be the one revoking this skill. */
function readRevocationList(bytes: Buffer): RevocationList {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  const value: unknown = JSON.parse(text);
  // The hub signs canonical JSON; anything else could hold duplicate keys that parsers read differently.
  if (canonicalJson(value) !== text) throw new Error('the list is not canonical JSON');
  if (!isRecord(value) || !Array.isArray(value.revoked)) throw new Error('the list has no "revoked" array');
  const { issuedAt, expiresAt, revoked } = value;
  if (typeof issuedAt !== 'string' || !isCanonicalIsoTime(issuedAt)) throw new Error('issuedAt is not an ISO time');
  if (typeof expiresAt !== 'string' || !isCanonicalIsoTime(expiresAt)) throw new Error('expiresAt is not an ISO time');
  const unreadable = revoked.findIndex(
    (entry: unknown) => !isRecord(entry) || REVOKED_TEXT_FIELDS.some((field) => typeof entry[field] !== 'string'),
  );
  if (unreadable !== -1) throw new Error(`revoked[${unreadable}] lacks one of ${REVOKED_TEXT_FIELDS.join(', ')}`);
  return { issuedAt, expiresAt, revoked: revoked as RevokedVersion[] };
}

/** The list's entry for this certificate: by name and version, or by bundle digest, so the same bytes revoked under one name never pass under another. */
export function revocationOf(list: RevocationList, statement: CertificateStatement): RevokedVersion | undefined {
  return list.revoked.find(
    (r) =>
      (r.skill === statement.skill && r.version === statement.version) || r.bundleSha256 === statement.bundleSha256,
  );
}
