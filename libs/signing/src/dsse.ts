/**
 * DSSE envelopes (github.com/secure-systems-lab/dsse, protocol v1): the signature covers the
 * pre-authentication encoding of the exact payload bytes, so nothing is re-canonicalized to verify.
 */
import type { KeyObject } from 'node:crypto';
import { decodeBase64 } from './base64';
import { signEd25519, verifyEd25519 } from './hub-key';
import { isRecord } from './is-record';
import { BadSignatureError, KeyNotValidAtTimeError, MalformedEnvelopeError, UnknownKeyError } from './signing.errors';

export interface DsseSignature {
  keyid: string;
  /** Base64 of the raw Ed25519 signature over `pae(payloadType, payload)`. */
  sig: string;
}

export interface DsseEnvelope {
  payloadType: string;
  /** Base64 of the payload bytes. */
  payload: string;
  signatures: DsseSignature[];
}

/** A key the verifier trusts, with the window in which it may sign (for rotation). */
export interface TrustedKey {
  keyid: string;
  publicKey: KeyObject;
  /** Inclusive. */
  notBefore?: Date;
  /** Exclusive: a key retired at T signs nothing at T or later. */
  notAfter?: Date;
}

/** `"DSSEv1" SP LEN(type) SP type SP LEN(body) SP body`, lengths as ASCII decimal byte counts. */
export function pae(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `, 'utf8'),
    type,
    Buffer.from(` ${payload.length} `, 'utf8'),
    payload,
  ]);
}

export function signEnvelope(payloadType: string, payload: Buffer, privateKey: KeyObject, keyid: string): DsseEnvelope {
  const sig = signEd25519(pae(payloadType, payload), privateKey);
  return {
    payloadType,
    payload: payload.toString('base64'),
    signatures: [{ keyid, sig: sig.toString('base64') }],
  };
}

/**
 * Returns the payload bytes once one signature verifies under a trusted key that was valid at
 * `at`. Signatures by unknown keys are skipped (an envelope may carry others' signatures). When
 * none is accepted, the most telling reason is thrown: a genuine signature outside its key's
 * window, then a failed signature by a trusted key, then no trusted key at all. The window is
 * checked only after the signature, so a forgery is never reported as an expired key.
 */
export function verifyEnvelope(envelope: unknown, keys: readonly TrustedKey[], at: Date = new Date()): Buffer {
  return verifyEnvelopeSigner(envelope, keys, at).payload;
}

/** As `verifyEnvelope`, also naming the trusted key whose signature was accepted. */
export function verifyEnvelopeSigner(
  envelope: unknown,
  keys: readonly TrustedKey[],
  at: Date = new Date(),
): { payload: Buffer; keyid: string } {
  const { payloadType, payload, signatures } = readEnvelope(envelope);
  const message = pae(payloadType, payload);
  let outsideWindow: TrustedKey | undefined;
  let failedTrustedSignature = false;
  for (const signature of signatures) {
    for (const key of keys.filter((candidate) => candidate.keyid === signature.keyid)) {
      if (!verifyEd25519(message, signature.sig, key.publicKey)) {
        failedTrustedSignature = true;
      } else if (isValidAt(key, at)) {
        return { payload, keyid: key.keyid };
      } else {
        outsideWindow = key;
      }
    }
  }
  if (outsideWindow !== undefined) throw new KeyNotValidAtTimeError(outsideWindow.keyid, at);
  if (failedTrustedSignature) throw new BadSignatureError('The envelope signature does not verify');
  throw new UnknownKeyError(
    'The envelope is not signed by a trusted key',
    signatures.map((signature) => signature.keyid),
  );
}

const isValidAt = (key: TrustedKey, at: Date): boolean =>
  (key.notBefore === undefined || at.getTime() >= key.notBefore.getTime()) &&
  (key.notAfter === undefined || at.getTime() < key.notAfter.getTime());

interface DecodedEnvelope {
  payloadType: string;
  payload: Buffer;
  signatures: Array<{ keyid: string; sig: Buffer }>;
}

/** Envelopes arrive as parsed JSON from outside, so their shape is checked field by field. */
function readEnvelope(envelope: unknown): DecodedEnvelope {
  if (!isRecord(envelope)) throw new MalformedEnvelopeError('not an object');
  const { payloadType, payload, signatures } = envelope;
  if (typeof payloadType !== 'string') throw new MalformedEnvelopeError('payloadType must be a string');
  const payloadBytes = typeof payload === 'string' ? decodeEither(payload) : undefined;
  if (payloadBytes === undefined) throw new MalformedEnvelopeError('payload must be base64');
  if (!Array.isArray(signatures) || signatures.length === 0) {
    throw new MalformedEnvelopeError('signatures must be a non-empty array');
  }
  return {
    payloadType,
    payload: payloadBytes,
    signatures: signatures.map((signature: unknown, index) => {
      const keyid = isRecord(signature) ? signature.keyid : undefined;
      const sig = isRecord(signature) && typeof signature.sig === 'string' ? decodeEither(signature.sig) : undefined;
      if (typeof keyid !== 'string' || sig === undefined) {
        throw new MalformedEnvelopeError(`signatures[${index}] needs a string keyid and a base64 sig`);
      }
      return { keyid, sig };
    }),
  };
}

// DSSE lets producers pick standard or URL-safe base64; this hub writes standard.
const decodeEither = (text: string): Buffer | undefined =>
  decodeBase64(text, 'base64') ?? decodeBase64(text, 'base64url');
