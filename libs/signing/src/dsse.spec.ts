import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { pae, signEnvelope, verifyEnvelope, type DsseEnvelope, type TrustedKey } from './dsse';
import { keyId } from './hub-key';
import { BAD_SIGNATURE, KEY_NOT_VALID_AT_TIME, MALFORMED_ENVELOPE, UNKNOWN_KEY } from './signing.errors';
import { ed25519FromSeed, RFC8032_TEST1 } from './testing/ed25519-keys';

const failsWith = (code: string) => expect.objectContaining({ code });

const newKey = (): { privateKey: KeyObject; trusted: TrustedKey } => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, trusted: { keyid: keyId(publicKey), publicKey } };
};

describe('pae', () => {
  it('matches the example of the DSSE protocol', () => {
    expect(pae('http://example.com/HelloWorld', Buffer.from('hello world')).toString('latin1')).toBe(
      'DSSEv1 29 http://example.com/HelloWorld 11 hello world',
    );
  });

  it('counts bytes, not characters, and passes the body through untouched', () => {
    const body = Buffer.from([0x00, 0xff, 0x20, 0x0a]);
    const expected = Buffer.concat([Buffer.from('DSSEv1 6 t/\u00e9\u00e9 4 ', 'utf8'), body]);
    expect(pae('t/éé', body).equals(expected)).toBe(true);
    expect(pae('', Buffer.alloc(0)).toString('latin1')).toBe('DSSEv1 0  0 ');
  });
});

describe('signEnvelope / verifyEnvelope', () => {
  const payloadType = 'application/vnd.skillhub.certificate+json';
  const payload = Buffer.from('{"hello":"hub"}');

  it('reproduces a signature OpenSSL made over the same PAE with the RFC 8032 key', () => {
    // openssl pkeyutl -sign -rawin (OpenSSL 3.0) over the bytes
    // `DSSEv1 41 application/vnd.skillhub.certificate+json 15 {"hello":"hub"}`.
    const openssl = '+Jertw1jK86u/mMrH0JHgUfYK8o22H+olk6olUHcxSK7+gcJJj9BbJXAo+ldHmS0IfN+SJu1uDUSTJcuuCSKDg==';
    const { privateKey, publicKey } = ed25519FromSeed(RFC8032_TEST1.seed);
    const envelope = signEnvelope(payloadType, payload, privateKey, keyId(publicKey));
    expect(envelope).toEqual({
      payloadType,
      payload: payload.toString('base64'),
      signatures: [{ keyid: keyId(publicKey), sig: openssl }],
    });
    expect(verifyEnvelope(envelope, [{ keyid: keyId(publicKey), publicKey }]).equals(payload)).toBe(true);
  });

  it('round-trips through JSON, with arbitrary payload bytes', () => {
    const { privateKey, trusted } = newKey();
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const envelope: unknown = JSON.parse(JSON.stringify(signEnvelope('x', bytes, privateKey, trusted.keyid)));
    expect(verifyEnvelope(envelope, [trusted]).equals(bytes)).toBe(true);
  });

  it('accepts URL-safe base64, which DSSE allows producers to write', () => {
    const { privateKey, trusted } = newKey();
    const envelope = signEnvelope(payloadType, Buffer.from([0xfb, 0xff]), privateKey, trusted.keyid);
    const urlSafe = {
      ...envelope,
      payload: Buffer.from(envelope.payload, 'base64').toString('base64url'),
      signatures: [
        { ...envelope.signatures[0], sig: Buffer.from(envelope.signatures[0].sig, 'base64').toString('base64url') },
      ],
    };
    expect(verifyEnvelope(urlSafe, [trusted])).toEqual(Buffer.from([0xfb, 0xff]));
  });

  describe('refusals', () => {
    const { privateKey, trusted } = newKey();
    const envelope = signEnvelope(payloadType, payload, privateKey, trusted.keyid);
    const withSig = (sig: string): DsseEnvelope => ({ ...envelope, signatures: [{ ...envelope.signatures[0], sig }] });

    it('refuses an altered payload with SIGNING.BAD_SIGNATURE', () => {
      const altered = { ...envelope, payload: Buffer.from('{"hello":"hug"}').toString('base64') };
      expect(() => verifyEnvelope(altered, [trusted])).toThrow(failsWith(BAD_SIGNATURE));
    });

    it('refuses an altered payload type, which the signature covers too', () => {
      expect(() => verifyEnvelope({ ...envelope, payloadType: 'text/plain' }, [trusted])).toThrow(
        failsWith(BAD_SIGNATURE),
      );
    });

    it('refuses a signature by another key under the trusted key id', () => {
      const forged = signEnvelope(payloadType, payload, newKey().privateKey, trusted.keyid);
      expect(() => verifyEnvelope(forged, [trusted])).toThrow(failsWith(BAD_SIGNATURE));
    });

    it('refuses a signature of the wrong length', () => {
      const sig = Buffer.from(envelope.signatures[0].sig, 'base64').subarray(0, 63).toString('base64');
      expect(() => verifyEnvelope(withSig(sig), [trusted])).toThrow(failsWith(BAD_SIGNATURE));
    });

    it('refuses an envelope signed only by untrusted keys with SIGNING.UNKNOWN_KEY', () => {
      const stranger = newKey();
      const signed = signEnvelope(payloadType, payload, stranger.privateKey, stranger.trusted.keyid);
      expect(() => verifyEnvelope(signed, [trusted])).toThrow(failsWith(UNKNOWN_KEY));
      expect(() => verifyEnvelope(envelope, [])).toThrow(failsWith(UNKNOWN_KEY));
    });

    it('skips signatures by unknown keys when a trusted one verifies', () => {
      const cosigned = { ...envelope, signatures: [{ keyid: 'someone-else', sig: 'AAAA' }, ...envelope.signatures] };
      expect(verifyEnvelope(cosigned, [trusted]).equals(payload)).toBe(true);
    });

    it.each([
      ['null', null],
      ['an array', []],
      ['no payloadType', { payload: envelope.payload, signatures: envelope.signatures }],
      ['a payload that is not base64', { ...envelope, payload: 'not base64!' }],
      ['a payload that is not a string', { ...envelope, payload: 42 }],
      ['no signatures', { ...envelope, signatures: [] }],
      ['signatures that are not a list', { ...envelope, signatures: envelope.signatures[0] }],
      ['a signature without keyid', { ...envelope, signatures: [{ sig: envelope.signatures[0].sig }] }],
      ['a signature that is not base64', withSig('###')],
      ['base64 with stray bits', withSig(envelope.signatures[0].sig.replace(/.=$/, 'B='))],
    ])('refuses an envelope with %s as SIGNING.MALFORMED_ENVELOPE', (_label, malformed) => {
      expect(() => verifyEnvelope(malformed, [trusted])).toThrow(failsWith(MALFORMED_ENVELOPE));
    });
  });

  describe('key validity windows', () => {
    const { privateKey, trusted } = newKey();
    const envelope = signEnvelope(payloadType, payload, privateKey, trusted.keyid);
    const windowed: TrustedKey = {
      ...trusted,
      notBefore: new Date('2025-01-01T00:00:00.000Z'),
      notAfter: new Date('2026-01-01T00:00:00.000Z'),
    };

    it('accepts a key from notBefore (inclusive) up to notAfter (exclusive)', () => {
      expect(verifyEnvelope(envelope, [windowed], new Date('2025-01-01T00:00:00.000Z'))).toEqual(payload);
      expect(verifyEnvelope(envelope, [windowed], new Date('2025-12-31T23:59:59.999Z'))).toEqual(payload);
    });

    it.each(['2024-12-31T23:59:59.999Z', '2026-01-01T00:00:00.000Z'])(
      'refuses it at %s with SIGNING.KEY_NOT_VALID_AT_TIME',
      (at) => {
        expect(() => verifyEnvelope(envelope, [windowed], new Date(at))).toThrow(failsWith(KEY_NOT_VALID_AT_TIME));
      },
    );

    it('checks the window at the present time by default', () => {
      const retired: TrustedKey = { ...trusted, notAfter: new Date(Date.now() - 1000) };
      expect(() => verifyEnvelope(envelope, [retired])).toThrow(failsWith(KEY_NOT_VALID_AT_TIME));
    });

    it('reports a forgery as a bad signature even when the key is also out of its window', () => {
      const altered = { ...envelope, payload: Buffer.from('forged').toString('base64') };
      expect(() => verifyEnvelope(altered, [windowed], new Date('2030-01-01T00:00:00.000Z'))).toThrow(
        failsWith(BAD_SIGNATURE),
      );
    });

    it('accepts the signature of a rotated-in key while the old one is retired', () => {
      const next = newKey();
      const cosigned = {
        ...envelope,
        signatures: [
          ...envelope.signatures,
          ...signEnvelope(payloadType, payload, next.privateKey, next.trusted.keyid).signatures,
        ],
      };
      const keys = [windowed, { ...next.trusted, notBefore: new Date('2026-01-01T00:00:00.000Z') }];
      expect(verifyEnvelope(cosigned, keys, new Date('2026-06-01T00:00:00.000Z'))).toEqual(payload);
    });
  });
});
