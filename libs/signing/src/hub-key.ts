/** The hub's Ed25519 signing keys: generation, PEM loading, key ids, and the sign/verify primitives. */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { sha256Hex } from '@skillhub/bundle';
import { InvalidKeyError } from './signing.errors';

export interface HubKeyPair {
  privateKeyPem: string;
  publicKeyPem: string;
}

export function generateHubKey(): HubKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519', {
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
}

/** Lowercase hex SHA-256 of the SPKI DER of the key (of its public half, when given a private key). */
export function keyId(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return sha256Hex(publicKey.export({ type: 'spki', format: 'der' }));
}

/** `what` names the key in errors (the hub's, or a publisher's key file). */
export function loadPrivateKey(pem: string, what = 'The hub signing key'): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    // The parser's message could quote the PEM; this one never does.
    throw new InvalidKeyError(`${what} is not a readable private key PEM`);
  }
  assertEd25519(key, what);
  return key;
}

export function publicKeyFromPem(pem: string): KeyObject {
  // createPublicKey would quietly derive a public key from a private PEM; refusing it keeps a
  // private key from being configured, stored or served where public keys belong.
  if (isPrivateKeyPem(pem)) throw new InvalidKeyError('A private key was given where a public key is expected');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new InvalidKeyError('The public key is not a readable public key PEM');
  }
  assertEd25519(key, 'The public key');
  return key;
}

/** Plain Ed25519 (RFC 8032, no pre-hash): `crypto.sign` takes no digest name for it. */
export function signEd25519(message: Buffer, privateKey: KeyObject): Buffer {
  assertEd25519(privateKey, 'The signing key');
  return sign(null, message, privateKey);
}

/** False for any failure, including a key of another type or a signature of the wrong length. */
export function verifyEd25519(message: Buffer, signature: Buffer, publicKey: KeyObject): boolean {
  if (publicKey.asymmetricKeyType !== 'ed25519') return false;
  try {
    return verify(null, message, publicKey, signature);
  } catch {
    return false;
  }
}

function isPrivateKeyPem(pem: string): boolean {
  try {
    createPrivateKey({ key: pem, format: 'pem' });
    return true;
  } catch {
    return false;
  }
}

function assertEd25519(key: KeyObject, what: string): void {
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new InvalidKeyError(`${what} must be an Ed25519 key, not ${key.asymmetricKeyType ?? key.type}`);
  }
}
