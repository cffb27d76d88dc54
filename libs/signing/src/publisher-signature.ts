/**
 * The publisher signature: a DSSE envelope, written by `skillhub sign --key` into the skill folder
 * as `.skillhub-signature.json`, over the SHA-256 of every other file of the folder. The key is
 * the publisher's own Ed25519 key, registered with the namespace, so a bundle uploaded with a
 * stolen token but not signed with the publisher's key is told apart from the publisher's own.
 */
import type { KeyObject } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { SHA256_HEX_PATTERN } from './digest';
import { signEnvelope, verifyEnvelopeSigner, type TrustedKey } from './dsse';
import { isCanonicalIsoTime } from './iso-time';
import { isRecord } from './is-record';
import { keyId } from './hub-key';
import { BadSignatureError, KeyNotValidAtTimeError, UnknownKeyError } from './signing.errors';

export const PUBLISHER_SIGNATURE_FILE = '.skillhub-signature.json';
export const PUBLISHER_PAYLOAD_TYPE = 'application/vnd.skillhub.publisher-statement+json';
/** A signature file is a few hundred bytes per signed file; anything this big is not one. */
export const PUBLISHER_SIGNATURE_MAX_BYTES = 1024 * 1024;

/** At most this many signatures are read from one envelope. */
const MAX_SIGNATURES = 8;
const KEY_ID = /^[0-9a-f]{64}$/;

export interface PublisherStatement {
  /**
   * `namespace/name@version` the files are signed for: a signed release cannot be published
   * again under another version or namespace (formats without them take both from the publish).
   */
  skill: string;
  /** Every file of the skill but the signature file: path (relative, `/`) → lowercase hex SHA-256. */
  files: Record<string, string>;
  signedAt: string;
}

/** A file of the skill as signed and verified: its path and lowercase hex SHA-256 (a bundle file has both). */
export interface SignedFile {
  path: string;
  sha256: string;
}

/** The signature file's bytes (pretty JSON of the envelope) for these files of `skill` (`namespace/name@version`). */
export function signPublisherFiles(
  skill: string,
  files: readonly SignedFile[],
  privateKey: KeyObject,
  now = new Date(),
): Buffer {
  const statement: PublisherStatement = { skill, files: fileDigests(files), signedAt: now.toISOString() };
  const envelope = signEnvelope(
    PUBLISHER_PAYLOAD_TYPE,
    Buffer.from(canonicalJson(statement), 'utf8'),
    privateKey,
    keyId(privateKey),
  );
  return Buffer.from(`${JSON.stringify(envelope, null, 2)}\n`, 'utf8');
}

export type PublisherVerdict =
  | { ok: true; keyId: string; statement: PublisherStatement }
  | {
      ok: false;
      reason: 'malformed' | 'unknown-key' | 'bad-signature' | 'wrong-skill' | 'files-differ';
      message: string;
      /** The key ids the envelope names (for `unknown-key`: which key to register). */
      keyIds: string[];
    };

/**
 * Checks the signature file of `skill` (`namespace/name@version`, as published) against its
 * other files and the keys the namespace registered. Never throws: every failure is a verdict
 * naming its reason.
 */
export function verifyPublisherSignature(
  skill: string,
  signatureFile: Buffer,
  files: readonly SignedFile[],
  keys: readonly TrustedKey[],
  at = new Date(),
): PublisherVerdict {
  const failure = (reason: Exclude<PublisherVerdict, { ok: true }>['reason'], message: string, keyIds: string[] = []) =>
    ({ ok: false, reason, message, keyIds }) as const;
  if (signatureFile.length > PUBLISHER_SIGNATURE_MAX_BYTES) {
    return failure('malformed', `${PUBLISHER_SIGNATURE_FILE} is larger than ${PUBLISHER_SIGNATURE_MAX_BYTES} bytes`);
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(signatureFile.toString('utf8'));
  } catch {
    return failure('malformed', `${PUBLISHER_SIGNATURE_FILE} is not JSON`);
  }
  if (!isRecord(envelope) || envelope.payloadType !== PUBLISHER_PAYLOAD_TYPE) {
    return failure('malformed', `${PUBLISHER_SIGNATURE_FILE} is not a DSSE envelope of ${PUBLISHER_PAYLOAD_TYPE}`);
  }
  const named = namedKeyIds(envelope);
  if (named === null) {
    return failure('malformed', `at most ${MAX_SIGNATURES} signatures, each with a key id of 64 hex digits`);
  }
  let verified: { payload: Buffer; keyid: string };
  try {
    verified = verifyEnvelopeSigner(envelope, keys, at);
  } catch (error) {
    if (error instanceof UnknownKeyError) {
      return failure('unknown-key', `signed by ${named.join(', ')}, not a key registered for the namespace`, named);
    }
    if (error instanceof BadSignatureError || error instanceof KeyNotValidAtTimeError) {
      return failure('bad-signature', error.message, named);
    }
    return failure('malformed', error instanceof Error ? error.message : 'unreadable envelope', named);
  }
  const statement = readStatement(verified.payload);
  if (statement === null) return failure('malformed', 'the signed statement is not a publisher statement', named);
  if (statement.skill !== skill) {
    return failure('wrong-skill', `signed for ${statement.skill}, published as ${skill}`, named);
  }
  const mismatch = firstMismatch(statement.files, fileDigests(files));
  if (mismatch !== null) return failure('files-differ', mismatch, named);
  return { ok: true, keyId: verified.keyid, statement };
}

/** Path → hex SHA-256, the signature file itself left out (`fromEntries` keeps `__proto__` a plain key). */
function fileDigests(files: readonly SignedFile[]): Record<string, string> {
  return Object.fromEntries(files.filter((f) => f.path !== PUBLISHER_SIGNATURE_FILE).map((f) => [f.path, f.sha256]));
}

/** The first difference between what was signed and what is here, as a sentence. */
function firstMismatch(signed: Record<string, string>, actual: Record<string, string>): string | null {
  const here = new Map(Object.entries(actual));
  const was = new Map(Object.entries(signed));
  for (const [path, digest] of [...was].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!here.has(path)) return `${path} was signed but is missing`;
    if (here.get(path) !== digest) return `${path} changed after it was signed`;
  }
  const added = [...here.keys()].sort().find((path) => !was.has(path));
  return added === undefined ? null : `${added} was added after signing`;
}

function readStatement(payload: Buffer): PublisherStatement | null {
  let value: unknown;
  try {
    value = JSON.parse(payload.toString('utf8'));
  } catch {
    return null;
  }
  if (!isRecord(value) || !isRecord(value.files) || typeof value.signedAt !== 'string') return null;
  if (typeof value.skill !== 'string') return null;
  if (!isCanonicalIsoTime(value.signedAt)) return null;
  const entries = Object.entries(value.files);
  if (!entries.every(([, digest]) => typeof digest === 'string' && SHA256_HEX_PATTERN.test(digest))) return null;
  return {
    skill: value.skill,
    files: Object.fromEntries(entries) as Record<string, string>,
    signedAt: value.signedAt,
  };
}

/** The key ids the envelope's signatures name; null when there are too many or one is not a key id. */
function namedKeyIds(envelope: Record<string, unknown>): string[] | null {
  const { signatures } = envelope;
  if (!Array.isArray(signatures) || signatures.length > MAX_SIGNATURES) return null;
  const ids = signatures.map((s: unknown) => (isRecord(s) && typeof s.keyid === 'string' ? s.keyid : ''));
  return ids.every((id) => KEY_ID.test(id)) ? ids : null;
}
