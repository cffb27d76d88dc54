/** The errors the signing lib throws, each of a kind (the HTTP layer's status). Messages never carry key material. */
import { DomainError, type Problem } from '@skillhub/errors';

export const SECRET_UNREADABLE = 'SIGNING.SECRET_UNREADABLE';
export const INVALID_SECRET_KEY = 'SIGNING.INVALID_SECRET_KEY';
export const INVALID_KEY = 'SIGNING.INVALID_KEY';
export const UNKNOWN_KEY = 'SIGNING.UNKNOWN_KEY';
export const BAD_SIGNATURE = 'SIGNING.BAD_SIGNATURE';
export const KEY_NOT_VALID_AT_TIME = 'SIGNING.KEY_NOT_VALID_AT_TIME';
export const MALFORMED_ENVELOPE = 'SIGNING.MALFORMED_ENVELOPE';
export const UNEXPECTED_PAYLOAD_TYPE = 'SIGNING.UNEXPECTED_PAYLOAD_TYPE';
export const MALFORMED_STATEMENT = 'SIGNING.MALFORMED_STATEMENT';
export const MALFORMED_NOTE = 'SIGNING.MALFORMED_NOTE';
export const PROOF_OUT_OF_RANGE = 'SIGNING.PROOF_OUT_OF_RANGE';
export const NOT_CANONICAL_JSON = 'SIGNING.NOT_CANONICAL_JSON';

/** A sealed secret that does not open: wrong key, altered bytes, or not a sealed secret at all (deliberately not told apart). */
export class SecretUnreadableError extends DomainError {
  constructor() {
    super('internal', SECRET_UNREADABLE, 'The stored secret cannot be decrypted (wrong key or altered data)');
  }
}

/** The secret-encryption key is not 32 bytes of hex or base64. */
export class InvalidSecretKeyError extends DomainError {
  constructor(message: string) {
    super('internal', INVALID_SECRET_KEY, message);
  }
}

/** A PEM that is not an Ed25519 key of the expected kind (public or private). */
export class InvalidKeyError extends DomainError {
  constructor(message: string) {
    super('invalid', INVALID_KEY, message);
  }
}

/** No signature was made by a key the verifier trusts. */
export class UnknownKeyError extends DomainError {
  constructor(message: string, keyIds: readonly string[] = []) {
    super('invalid', UNKNOWN_KEY, message, [], { keyIds });
  }
}

/** A signature by a trusted key that does not verify: the signed bytes were altered or forged. */
export class BadSignatureError extends DomainError {
  constructor(message: string) {
    super('invalid', BAD_SIGNATURE, message);
  }
}

/** The signature verifies, but the key was outside its validity window at the time asked about. */
export class KeyNotValidAtTimeError extends DomainError {
  constructor(keyid: string, at: Date) {
    super('invalid', KEY_NOT_VALID_AT_TIME, `Key ${keyid} was not valid at ${at.toISOString()}`, [], {
      keyid,
      at: at.toISOString(),
    });
  }
}

export class MalformedEnvelopeError extends DomainError {
  constructor(message: string) {
    super('invalid', MALFORMED_ENVELOPE, `Malformed DSSE envelope: ${message}`);
  }
}

/** A genuine envelope that carries some other kind of payload than the one asked for. */
export class UnexpectedPayloadTypeError extends DomainError {
  constructor(expected: string, actual: string) {
    super('invalid', UNEXPECTED_PAYLOAD_TYPE, `Expected payload type ${expected}, got ${actual}`, [], {
      expected,
      actual,
    });
  }
}

/** Carries every problem found in the statement, not just the first. */
export class MalformedStatementError extends DomainError {
  constructor(problems: readonly Problem[]) {
    super('invalid', MALFORMED_STATEMENT, summarize('Malformed certificate statement', problems), problems);
  }
}

const describe = (problem: Problem): string =>
  problem.path === '' ? problem.message : `${problem.path}: ${problem.message}`;

const summarize = (title: string, problems: readonly Problem[]): string => {
  if (problems.length === 0) return title;
  if (problems.length === 1) return `${title}: ${describe(problems[0])}`;
  return `${title}: ${problems.length} problems, the first: ${describe(problems[0])}`;
};

/** A signed note or checkpoint whose text does not follow the C2SP format. */
export class MalformedNoteError extends DomainError {
  constructor(message: string) {
    super('invalid', MALFORMED_NOTE, `Malformed signed note: ${message}`);
  }
}

/** A proof asked for a leaf or tree size the log does not have. */
export class ProofOutOfRangeError extends DomainError {
  constructor(message: string) {
    super('invalid', PROOF_OUT_OF_RANGE, message);
  }
}

/** A value with no exact JSON spelling (undefined, a function, NaN, a cycle, …): hashing it would pin something arbitrary. */
export class NotCanonicalJsonError extends DomainError {
  constructor(
    message: string,
    readonly at: string,
  ) {
    super('invalid', NOT_CANONICAL_JSON, `${at}: ${message}`, [{ path: at, message, severity: 'error' }]);
  }
}

export const CERTIFICATE_EXPIRED = 'SIGNING.CERTIFICATE_EXPIRED';
export const NOT_YET_VALID = 'SIGNING.NOT_YET_VALID';

/**
 * How far a signed document's issue time may run ahead of the verifier's clock: clocks drift, and
 * a document dated later than that was not issued yet (or its signer's clock is wrong).
 */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** A certificate or revocation list dated in the future, beyond the clock-skew allowance. */
export class NotYetValidError extends DomainError {
  constructor(what: string, issuedAt: string) {
    super(
      'invalid',
      NOT_YET_VALID,
      `The ${what} is issued at ${issuedAt}, more than ${CLOCK_SKEW_MS / 60_000} minutes after this clock's time: not valid yet`,
    );
  }
}

/** Refuses a document whose `issuedAt` is later than `now` plus the clock-skew allowance. */
export function assertIssued(what: string, issuedAt: string, now: Date): void {
  if (Date.parse(issuedAt) > now.getTime() + CLOCK_SKEW_MS) throw new NotYetValidError(what, issuedAt);
}
export const BUNDLE_MISMATCH = 'SIGNING.BUNDLE_MISMATCH';

/** A certificate past its `expiresAt`. */
export class CertificateExpiredError extends DomainError {
  constructor(expiresAt: string) {
    super('invalid', CERTIFICATE_EXPIRED, `The certificate expired at ${expiresAt}`);
  }
}

/** The bytes in hand are not the ones the certificate was issued for (tampered or swapped). */
export class BundleMismatchError extends DomainError {
  constructor(message: string, problems: readonly Problem[] = []) {
    super('invalid', BUNDLE_MISMATCH, message, problems);
  }
}
