/**
 * The agent runtime's gate before a skill runs: everything the hub vouches for, checked
 * offline from what the runtime downloaded and what it remembered from last time. The
 * certificate (signature, skill, bundle, expiry), its entry in the transparency log under a
 * signed checkpoint, that checkpoint against the last one seen (no rewritten history), and
 * a fresh signed revocation list. Fail-closed: every throw inside becomes a refusal, so the
 * only way to `ok: true` is the end of the happy path.
 */
import { DomainError } from '@skillhub/errors';
import { verifyBundleCertificate, type BundleCertificateCheck } from './bundle-certificate';
import { canonicalJson } from './canonical-json';
import type { CertificateStatement } from './certificate-statement';
import { verifyCheckpoint, type Checkpoint } from './checkpoint';
import { digestsEqual, SHA256_HEX_PATTERN } from './digest';
import type { TrustedKey } from './dsse';
import { isCanonicalIsoTime } from './iso-time';
import { leafHash, verifyConsistency, verifyInclusion } from './merkle';
import { revocationOf, verifyRevocationList } from './revocation-list';
import {
  BUNDLE_MISMATCH,
  BundleMismatchError,
  CERTIFICATE_EXPIRED,
  NOT_YET_VALID,
  assertIssued,
  KEY_NOT_VALID_AT_TIME,
  UNKNOWN_KEY,
} from './signing.errors';

/**
 * Why an installation was refused. `unsigned` and `unknown-key` are about the signer of the
 * certificate or of the revocation list (the message says which); `stale-revocations` covers
 * every other way the revocation list is unusable (expired, older than the last one seen,
 * unreadable, a failed signature), because the cure is the same: fetch a current one.
 */
export type InstallRefusal =
  | 'tampered'
  | 'unsigned'
  | 'unknown-key'
  | 'revoked'
  | 'expired'
  | 'not-yet-valid'
  | 'not-in-log'
  | 'log-forked'
  | 'stale-revocations'
  | 'wrong-skill';

/** The fields of the hub's certificate response (GET …/versions/{v}/certificate) this check reads. */
export interface ServedCertificate {
  envelope: unknown;
  log_index: number;
  checkpoint: { origin: string; tree_size: number; root_hash: string; note: string };
  /** Hex hashes, RFC 9162 order. */
  inclusion_proof: readonly string[];
}

/** A verified checkpoint as the runtime keeps it between runs; the root in hex, as the hub serves it. */
export interface StoredCheckpoint {
  treeSize: number;
  rootHash: string;
}

export interface InstallVerificationInput {
  /** `author/name`, as the runtime asked for it. */
  skillRef: string;
  version: string;
  bundle: Buffer;
  files?: BundleCertificateCheck['files'];
  certificate: ServedCertificate;
  /** The `leaf_data` of log entry `log_index` (GET /api/v1/log/entries/{i}). */
  leafData: string;
  /** Pinned in config or trusted on first use; they sign certificates, checkpoints and revocation lists. */
  trustedKeys: readonly TrustedKey[];
  /** The log's pinned origin: the only name a checkpoint is accepted under. */
  logOrigin: string;
  /** What the last successful verification returned; null on first use. */
  lastCheckpoint: StoredCheckpoint | null;
  /** Hex hashes from `lastCheckpoint.treeSize` to the served tree size; needed when the log grew. */
  consistencyProof: readonly string[] | null;
  revocations: { envelope: unknown; lastSeenIssuedAt: string | null };
  now: Date;
}

export type InstallVerdict =
  | {
      ok: true;
      statement: CertificateStatement;
      /** To store and pass as `lastCheckpoint` next time. */
      checkpoint: StoredCheckpoint;
      /** To store and pass as `revocations.lastSeenIssuedAt` next time. */
      revocationsIssuedAt: string;
    }
  | { ok: false; reason: InstallRefusal; message: string };

export function verifyInstallation(input: InstallVerificationInput): InstallVerdict {
  try {
    const statement = step('certificate', 'unsigned', CERTIFICATE_FAILURES, () => checkCertificate(input));
    const checkpoint = step('log', 'not-in-log', {}, () => checkLogEntry(input, statement));
    step('log history', 'log-forked', {}, () => checkHistory(input, checkpoint));
    const revocationsIssuedAt = step('revocation list', 'stale-revocations', SIGNER_FAILURES, () =>
      checkRevocations(input, statement),
    );
    return {
      ok: true,
      statement,
      checkpoint: { treeSize: checkpoint.treeSize, rootHash: checkpoint.rootHash.toString('hex') },
      revocationsIssuedAt,
    };
  } catch (error) {
    // Every check runs in a step, so this is a refusal; the fallback only keeps the type honest.
    const { reason, message } = asRefusal(error, 'unsigned', {});
    return { ok: false, reason, message };
  }
}

/** A verdict on its way out of the nested checks; never leaves this module. */
class Refusal extends Error {
  constructor(
    readonly reason: InstallRefusal,
    message: string,
  ) {
    super(message);
  }
}

type FailureCodes = Readonly<Record<string, InstallRefusal>>;

// A genuine signature by a key not trusted at that time is as untrusted as an unknown key.
const SIGNER_FAILURES: FailureCodes = { [UNKNOWN_KEY]: 'unknown-key', [KEY_NOT_VALID_AT_TIME]: 'unknown-key' };
// Everything else a certificate can fail on (bad signature, malformed envelope or statement,
// another payload type) falls to 'unsigned'.
const CERTIFICATE_FAILURES: FailureCodes = {
  ...SIGNER_FAILURES,
  [CERTIFICATE_EXPIRED]: 'expired',
  [NOT_YET_VALID]: 'not-yet-valid',
  [BUNDLE_MISMATCH]: 'tampered',
};

/**
 * Runs one check and names it in any refusal. The lib's own errors are refused by their code
 * where `codes` says more; anything else, expected or not, as `fallback`.
 */
function step<T>(what: string, fallback: InstallRefusal, codes: FailureCodes, run: () => T): T {
  try {
    return run();
  } catch (error) {
    const { reason, message } = asRefusal(error, fallback, codes);
    throw new Refusal(reason, `${what}: ${message}`);
  }
}

function asRefusal(error: unknown, fallback: InstallRefusal, codes: FailureCodes): Refusal {
  const reason =
    error instanceof Refusal ? error.reason : (error instanceof DomainError && codes[error.code]) || fallback;
  return new Refusal(reason, describe(error));
}

/** One line, and for a changed file the first one, so the message names what failed. */
function describe(error: unknown): string {
  const first = error instanceof BundleMismatchError ? error.problems[0] : undefined;
  const text = error instanceof Error ? error.message : String(error);
  return (first ? `${text} (${first.path}: ${first.message})` : text).replace(/\s+/g, ' ');
}

function checkCertificate(input: InstallVerificationInput): CertificateStatement {
  // An invalid Date compares false with everything, which would pass every expiry check.
  if (Number.isNaN(input.now.getTime())) throw new Refusal('expired', 'now is not a valid time');
  const statement = verifyBundleCertificate({
    envelope: input.certificate.envelope,
    keys: input.trustedKeys,
    bundle: input.bundle,
    files: input.files,
    now: input.now,
  });
  // After the signature: only a genuine certificate for another skill is reported as one.
  if (statement.skill !== input.skillRef || statement.version !== input.version) {
    throw new Refusal(
      'wrong-skill',
      `issued for ${statement.skill}@${statement.version}, not ${input.skillRef}@${input.version}`,
    );
  }
  return statement;
}

/** The certificate is the leaf at its own log index in the tree of a checkpoint the log signed. */
function checkLogEntry(input: InstallVerificationInput, statement: CertificateStatement): Checkpoint {
  const served = input.certificate;
  // Verified under the pinned origin: the served `origin` field is not trusted for anything.
  const checkpoint = verifyCheckpoint(
    served.checkpoint.note,
    input.logOrigin,
    input.trustedKeys.map((key) => key.publicKey),
  );
  if (
    checkpoint.treeSize !== served.checkpoint.tree_size ||
    !digestsEqual(checkpoint.rootHash, hexHash(served.checkpoint.root_hash, 'the served root hash'))
  ) {
    throw new Refusal(
      'not-in-log',
      `the signed checkpoint is ${checkpoint.treeSize}/${checkpoint.rootHash.toString('hex')}, ` +
        `the response says ${served.checkpoint.tree_size}/${served.checkpoint.root_hash}`,
    );
  }
  // The statement's index is signed; the served one only says where the proof was computed.
  if (served.log_index !== statement.logIndex) {
    throw new Refusal(
      'not-in-log',
      `served for entry ${served.log_index}, the certificate states ${statement.logIndex}`,
    );
  }
  // Compared canonically: the hub keeps the envelope as JSONB, which does not keep key order,
  // while the leaf is the exact text hashed at append time.
  if (canonicalJson(JSON.parse(input.leafData)) !== canonicalJson(served.envelope)) {
    throw new Refusal('not-in-log', `entry ${statement.logIndex} holds another envelope than the certificate`);
  }
  const included = verifyInclusion(
    leafHash(Buffer.from(input.leafData, 'utf8')),
    statement.logIndex,
    checkpoint.treeSize,
    served.inclusion_proof.map((hash) => hexHash(hash, 'an inclusion proof hash')),
    checkpoint.rootHash,
  );
  if (!included) {
    throw new Refusal('not-in-log', `entry ${statement.logIndex} is not in the tree of ${checkpoint.treeSize} entries`);
  }
  return checkpoint;
}

/** The log only grows: the tree seen now extends the one seen last time (RFC 9162 §2.1.4). */
function checkHistory(input: InstallVerificationInput, checkpoint: Checkpoint): void {
  const last = input.lastCheckpoint;
  if (last === null) return; // first use: this checkpoint becomes the one to compare with
  const [oldSize, newSize] = [last.treeSize, checkpoint.treeSize];
  const oldRoot = hexHash(last.rootHash, 'the stored root hash');
  if (oldSize > newSize) throw new Refusal('log-forked', `the log shrank from ${oldSize} to ${newSize} entries`);
  if (oldSize === newSize) {
    if (!digestsEqual(oldRoot, checkpoint.rootHash)) {
      throw new Refusal('log-forked', `two different roots for the tree of ${newSize} entries`);
    }
    return;
  }
  if (input.consistencyProof === null) {
    throw new Refusal('log-forked', `no consistency proof from ${oldSize} to ${newSize} entries`);
  }
  if (
    !verifyConsistency(
      oldSize,
      newSize,
      oldRoot,
      checkpoint.rootHash,
      input.consistencyProof.map((hash) => hexHash(hash, 'a consistency proof hash')),
    )
  ) {
    throw new Refusal('log-forked', `the tree of ${newSize} entries does not extend the one of ${oldSize} seen before`);
  }
}

/** Returns the list's issue time once it is genuine, current, not older than the last seen, and silent on this skill. */
function checkRevocations(input: InstallVerificationInput, statement: CertificateStatement): string {
  const list = verifyRevocationList(input.revocations.envelope, input.trustedKeys);
  if (Date.parse(list.expiresAt) <= input.now.getTime()) {
    throw new Refusal('stale-revocations', `expired at ${list.expiresAt}`);
  }
  assertIssued('revocation list', list.issuedAt, input.now);
  const lastSeen = input.revocations.lastSeenIssuedAt;
  // An unreadable stored time is refused rather than skipped: NaN would compare as "not older".
  if (lastSeen !== null && !(isCanonicalIsoTime(lastSeen) && Date.parse(list.issuedAt) >= Date.parse(lastSeen))) {
    throw new Refusal('stale-revocations', `issued ${list.issuedAt}, older than the one seen before (${lastSeen})`);
  }
  const entry = revocationOf(list, statement);
  if (entry !== undefined) {
    throw new Refusal('revoked', `${entry.skill}@${entry.version} was revoked at ${entry.revokedAt}: ${entry.reason}`);
  }
  return list.issuedAt;
}

/** Hashes arrive as hex text; Node's hex decoder stops at the first bad character instead of failing. */
function hexHash(text: unknown, what: string): Buffer {
  if (typeof text !== 'string' || !SHA256_HEX_PATTERN.test(text)) throw new Error(`${what} is not a hex SHA-256`);
  return Buffer.from(text, 'hex');
}
