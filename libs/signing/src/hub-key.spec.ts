import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { generateHubKey, keyId, loadPrivateKey, publicKeyFromPem, signEd25519, verifyEd25519 } from './hub-key';
import { INVALID_KEY } from './signing.errors';
import { ed25519FromSeed, RFC8032_TEST1 } from './testing/ed25519-keys';

const invalidKey = expect.objectContaining({ code: INVALID_KEY });

describe('hub keys', () => {
  it('generates an Ed25519 pair as PKCS#8 and SPKI PEM that load back', () => {
    const { privateKeyPem, publicKeyPem } = generateHubKey();
    expect(privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    const privateKey = loadPrivateKey(privateKeyPem);
    const publicKey = publicKeyFromPem(publicKeyPem);
    const message = Buffer.from('hello');
    expect(verifyEd25519(message, signEd25519(message, privateKey), publicKey)).toBe(true);
  });

  it('names a key by the lowercase hex SHA-256 of its SPKI DER, the same from either half', () => {
    const { privateKeyPem, publicKeyPem } = generateHubKey();
    const publicKey = publicKeyFromPem(publicKeyPem);
    const der = publicKey.export({ type: 'spki', format: 'der' });
    const expected = createHash('sha256').update(der).digest('hex');
    expect(keyId(publicKey)).toBe(expected);
    expect(keyId(loadPrivateKey(privateKeyPem))).toBe(expected);
    expect(keyId(publicKey)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives the RFC 8032 key its SPKI key id: the 12-byte SPKI header, then the raw key', () => {
    const { publicKey } = ed25519FromSeed(RFC8032_TEST1.seed);
    const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), RFC8032_TEST1.publicKey]);
    expect(keyId(publicKey)).toBe(createHash('sha256').update(spki).digest('hex'));
  });

  it('signs plain Ed25519, reproducing RFC 8032 §7.1 test 1', () => {
    const { privateKey, publicKey } = ed25519FromSeed(RFC8032_TEST1.seed);
    const signature = signEd25519(Buffer.alloc(0), privateKey);
    expect(signature.toString('hex')).toBe(RFC8032_TEST1.signature.toString('hex'));
    expect(verifyEd25519(Buffer.alloc(0), signature, publicKey)).toBe(true);
  });

  it('verifies to false, never throws, for a bad signature or a key of another type', () => {
    const { privateKey, publicKey } = ed25519FromSeed(RFC8032_TEST1.seed);
    const message = Buffer.from('m');
    const signature = signEd25519(message, privateKey);
    expect(verifyEd25519(Buffer.from('n'), signature, publicKey)).toBe(false);
    expect(verifyEd25519(message, signature.subarray(1), publicKey)).toBe(false);
    expect(verifyEd25519(message, Buffer.alloc(0), publicKey)).toBe(false);
    const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    expect(verifyEd25519(message, signature, ecKey)).toBe(false);
  });

  it('refuses to sign with a key of another type', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() => signEd25519(Buffer.from('m'), privateKey)).toThrow(invalidKey);
  });

  describe('PEM loading', () => {
    const ecPair = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });

    it('refuses garbage and non-Ed25519 keys with SIGNING.INVALID_KEY', () => {
      expect(() => loadPrivateKey('not a pem')).toThrow(invalidKey);
      expect(() => loadPrivateKey(ecPair.privateKey)).toThrow(invalidKey);
      expect(() => publicKeyFromPem('not a pem')).toThrow(invalidKey);
      expect(() => publicKeyFromPem(ecPair.publicKey)).toThrow(invalidKey);
    });

    it('refuses a private key where a public one belongs, rather than deriving it', () => {
      const { privateKeyPem } = generateHubKey();
      expect(createPublicKey(privateKeyPem).type).toBe('public'); // what Node alone would do
      expect(() => publicKeyFromPem(privateKeyPem)).toThrow(invalidKey);
    });

    it('refuses a public key where the private one belongs', () => {
      expect(() => loadPrivateKey(generateHubKey().publicKeyPem)).toThrow(invalidKey);
    });

    it('never quotes the PEM in its message', () => {
      const pem = '-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END PRIVATE KEY-----\n';
      expect(() => loadPrivateKey(pem)).toThrow(
        expect.not.objectContaining({ message: expect.stringContaining('c2Vj') }),
      );
    });
  });
});
