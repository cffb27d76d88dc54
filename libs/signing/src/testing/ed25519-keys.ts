/** Fixed Ed25519 keys for known-answer tests (RFC 8032 §7.1 and Go's sumdb/note example). */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

// PKCS#8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410): the DER header, then the seed.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function ed25519FromSeed(seed: Buffer): { privateKey: KeyObject; publicKey: KeyObject } {
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

/** RFC 8032 §7.1, TEST 1: signs the empty message. */
export const RFC8032_TEST1 = {
  seed: Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex'),
  publicKey: Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex'),
  signature: Buffer.from(
    'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    'hex',
  ),
};
