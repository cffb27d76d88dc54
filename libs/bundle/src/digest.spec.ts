import { sha256, sha256Hex } from './digest';

describe('sha256Hex', () => {
  it('gives the FIPS 180-2 digest of "abc" in lowercase hex', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes a string as its UTF-8 bytes', () => {
    expect(sha256Hex('é')).toBe(sha256Hex(Buffer.from([0xc3, 0xa9])));
  });

  it('hashes empty input', () => {
    expect(sha256Hex(Buffer.alloc(0))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('sha256', () => {
  it('hashes its parts as one message, in order', () => {
    expect(sha256('a', Buffer.from('b'), 'c').toString('hex')).toBe(sha256Hex('abc'));
    expect(sha256('b', 'a').equals(sha256('a', 'b'))).toBe(false);
  });

  it('returns the 32 raw bytes the hex spells', () => {
    const digest = sha256('abc');
    expect(digest).toHaveLength(32);
    expect(digest.toString('hex')).toBe(sha256Hex('abc'));
  });
});
