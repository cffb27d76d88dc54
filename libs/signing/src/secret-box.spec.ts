import { randomBytes } from 'node:crypto';
import { openSecret, parseSecretKey, sealSecret } from './secret-box';
import { INVALID_SECRET_KEY, SECRET_UNREADABLE, SecretUnreadableError } from './signing.errors';

const unreadable = expect.objectContaining({ code: SECRET_UNREADABLE });
const invalidKey = expect.objectContaining({ code: INVALID_SECRET_KEY });

describe('sealSecret / openSecret', () => {
  const key = randomBytes(32);

  it.each(['kazma-secret', '', 'sécret 🔑 ключ', 'x'.repeat(10_000)])('round-trips %#', (plaintext) => {
    expect(openSecret(sealSecret(plaintext, key), key)).toBe(plaintext);
  });

  it('writes v1.<iv>.<tag>.<ciphertext> in base64url, with a 12-byte IV and a 16-byte tag', () => {
    const [version, iv, tag, ciphertext] = sealSecret('secret', key).split('.');
    expect(version).toBe('v1');
    expect(Buffer.from(iv, 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag, 'base64url')).toHaveLength(16);
    expect(Buffer.from(ciphertext, 'base64url')).toHaveLength('secret'.length);
    expect(sealSecret('secret', key)).toMatch(/^v1(\.[A-Za-z0-9_-]*){3}$/);
  });

  it('uses a fresh IV each time, so equal secrets do not look equal at rest', () => {
    expect(sealSecret('same', key)).not.toBe(sealSecret('same', key));
  });

  it('refuses the wrong key with SIGNING.SECRET_UNREADABLE', () => {
    const sealed = sealSecret('secret', key);
    expect(() => openSecret(sealed, randomBytes(32))).toThrow(SecretUnreadableError);
    expect(() => openSecret(sealed, randomBytes(32))).toThrow(unreadable);
  });

  it.each([0, 1, 2, 3])('refuses a sealed secret with part %i altered', (part) => {
    const parts = sealSecret('a secret worth stealing', key).split('.');
    const bytes = Buffer.from(parts[part], part === 0 ? 'utf8' : 'base64url');
    bytes[0] ^= 0x01;
    parts[part] = part === 0 ? bytes.toString('utf8') : bytes.toString('base64url');
    expect(() => openSecret(parts.join('.'), key)).toThrow(unreadable);
  });

  it('refuses a truncated tag instead of checking fewer bytes of it', () => {
    const [version, iv, tag, ciphertext] = sealSecret('secret', key).split('.');
    const shortTag = Buffer.from(tag, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => openSecret([version, iv, shortTag, ciphertext].join('.'), key)).toThrow(unreadable);
  });

  it.each([
    ['empty', ''],
    ['plain text', 'kazma-secret'],
    ['too few parts', 'v1.AAAA.BBBB'],
    ['too many parts', `${sealSecret('x', randomBytes(32))}.AA`],
    ['another version', sealSecret('x', randomBytes(32)).replace(/^v1/, 'v2')],
    ['characters outside base64url', sealSecret('x', randomBytes(32)).replace(/\.([A-Za-z0-9_-])/, '.+$1')],
  ])('refuses %s', (_label, sealed) => {
    expect(() => openSecret(sealed, key)).toThrow(unreadable);
  });

  it('refuses a key that is not 32 bytes, when sealing and when opening', () => {
    expect(() => sealSecret('x', randomBytes(16))).toThrow(invalidKey);
    expect(() => openSecret(sealSecret('x', key), randomBytes(31))).toThrow(invalidKey);
  });
});

describe('parseSecretKey', () => {
  const key = randomBytes(32);

  it.each([
    ['lowercase hex', key.toString('hex')],
    ['uppercase hex', key.toString('hex').toUpperCase()],
    ['base64', key.toString('base64')],
    ['base64url', key.toString('base64url')],
  ])('reads %s', (_label, text) => {
    expect(parseSecretKey(text).equals(key)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['16 bytes of hex', randomBytes(16).toString('hex')],
    ['33 bytes of base64', randomBytes(33).toString('base64')],
    ['hex with a stray character', `${key.toString('hex').slice(0, 63)}z`],
    ['base64 with a space', ` ${key.toString('base64')}`],
    ['an overlong string', 'A'.repeat(10_000)],
  ])('refuses %s with SIGNING.INVALID_SECRET_KEY', (_label, text) => {
    expect(() => parseSecretKey(text)).toThrow(invalidKey);
  });

  it('never echoes the key text in its message', () => {
    const text = randomBytes(20).toString('hex');
    expect(() => parseSecretKey(text)).toThrow(expect.not.objectContaining({ message: expect.stringContaining(text) }));
  });
});
