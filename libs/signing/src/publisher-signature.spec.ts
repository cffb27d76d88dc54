import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { signEnvelope, type TrustedKey } from './dsse';
import { keyId } from './hub-key';
import {
  PUBLISHER_SIGNATURE_FILE,
  signPublisherFiles,
  verifyPublisherSignature,
  type SignedFile,
} from './publisher-signature';

const SKILL = 'acme/weather@1.0.0';

const newKey = (): { privateKey: KeyObject; trusted: TrustedKey } => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, trusted: { keyid: keyId(publicKey), publicKey } };
};

/** A file as a bundle holds it: path and hex SHA-256 of its bytes. */
const file = (path: string, content: string | Buffer): SignedFile => ({
  path,
  sha256: createHash('sha256').update(content).digest('hex'),
});

const files = (): SignedFile[] => [
  file('skill_manifest.yaml', 'name: weather\n'),
  file('main.py', 'print(1)\n'),
  file('lib/util.py', 'X = 1\n'),
];

describe('publisher signature', () => {
  const publisher = newKey();
  const signed = signPublisherFiles(SKILL, files(), publisher.privateKey, new Date('2026-11-01T00:00:00.000Z'));

  it('verifies over the same files with the registered key, naming the key and the signed files', () => {
    const verdict = verifyPublisherSignature(SKILL, signed, files(), [publisher.trusted]);
    expect(verdict).toEqual({
      ok: true,
      keyId: publisher.trusted.keyid,
      statement: {
        skill: SKILL,
        signedAt: '2026-11-01T00:00:00.000Z',
        files: expect.objectContaining({ 'main.py': expect.stringMatching(/^[0-9a-f]{64}$/) }),
      },
    });
  });

  it('ignores the signature file itself among the files, so signing is stable', () => {
    const withSignature = [...files(), file(PUBLISHER_SIGNATURE_FILE, signed)];
    expect(verifyPublisherSignature(SKILL, signed, withSignature, [publisher.trusted]).ok).toBe(true);
  });

  it.each([
    [
      'a changed file',
      (f: SignedFile[]) => f.map((x) => (x.path === 'main.py' ? file('main.py', 'evil()') : x)),
      'main.py changed after it was signed',
    ],
    [
      'a removed file',
      (f: SignedFile[]) => f.filter((x) => x.path !== 'lib/util.py'),
      'lib/util.py was signed but is missing',
    ],
    ['an added file', (f: SignedFile[]) => [...f, file('hook.py', '')], 'hook.py was added after signing'],
    [
      'an added __proto__ file',
      (f: SignedFile[]) => [...f, file('__proto__', '')],
      '__proto__ was added after signing',
    ],
  ])('refuses %s, naming it', (_name, change, message) => {
    expect(verifyPublisherSignature(SKILL, signed, change(files()), [publisher.trusted])).toEqual({
      ok: false,
      reason: 'files-differ',
      message,
      keyIds: [publisher.trusted.keyid],
    });
  });

  it('refuses a signature by a key the namespace did not register, naming that key', () => {
    const other = newKey();
    const verdict = verifyPublisherSignature(SKILL, signed, files(), [other.trusted]);
    expect(verdict).toMatchObject({ ok: false, reason: 'unknown-key', keyIds: [publisher.trusted.keyid] });
    expect(verifyPublisherSignature(SKILL, signed, files(), [])).toMatchObject({ ok: false, reason: 'unknown-key' });
  });

  it('refuses a statement altered after signing (the files list rewritten to match other files)', () => {
    const envelope = JSON.parse(signed.toString('utf8')) as { payload: string };
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as {
      files: Record<string, string>;
    };
    delete statement.files['lib/util.py'];
    envelope.payload = Buffer.from(JSON.stringify(statement)).toString('base64');
    const verdict = verifyPublisherSignature(SKILL, Buffer.from(JSON.stringify(envelope)), files().slice(0, 2), [
      publisher.trusted,
    ]);
    expect(verdict).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a genuine signature made for another release (a re-upload under a new version or namespace)', () => {
    for (const published of ['acme/weather@9.9.9', 'other/weather@1.0.0']) {
      expect(verifyPublisherSignature(published, signed, files(), [publisher.trusted])).toEqual({
        ok: false,
        reason: 'wrong-skill',
        message: `signed for acme/weather@1.0.0, published as ${published}`,
        keyIds: [publisher.trusted.keyid],
      });
    }
  });

  it('names the key whose signature verified, not the first one the envelope lists', () => {
    const removed = newKey();
    const envelope = JSON.parse(signed.toString('utf8')) as { signatures: Array<{ keyid: string; sig: string }> };
    envelope.signatures.unshift({ keyid: removed.trusted.keyid, sig: envelope.signatures[0]!.sig });
    const verdict = verifyPublisherSignature(SKILL, Buffer.from(JSON.stringify(envelope)), files(), [
      removed.trusted,
      publisher.trusted,
    ]);
    expect(verdict).toMatchObject({ ok: true, keyId: publisher.trusted.keyid });
  });

  it('refuses envelopes with too many signatures or key ids that are not key ids, without echoing them', () => {
    const envelope = JSON.parse(signed.toString('utf8')) as { signatures: Array<{ keyid: string; sig: string }> };
    const long = { ...envelope, signatures: [{ keyid: 'x'.repeat(10_000), sig: envelope.signatures[0]!.sig }] };
    const verdict = verifyPublisherSignature(SKILL, Buffer.from(JSON.stringify(long)), files(), [publisher.trusted]);
    expect(verdict).toMatchObject({ ok: false, reason: 'malformed' });
    expect(JSON.stringify(verdict).length).toBeLessThan(400);
    const many = { ...envelope, signatures: Array.from({ length: 9 }, () => envelope.signatures[0]) };
    expect(
      verifyPublisherSignature(SKILL, Buffer.from(JSON.stringify(many)), files(), [publisher.trusted]),
    ).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('refuses a key outside its validity window', () => {
    const retired = { ...publisher.trusted, notAfter: new Date('2026-10-01T00:00:00.000Z') };
    expect(verifyPublisherSignature(SKILL, signed, files(), [retired])).toMatchObject({
      ok: false,
      reason: 'bad-signature',
    });
  });

  it.each([
    ['not JSON', Buffer.from('{nope')],
    ['another payload type', Buffer.from(JSON.stringify({ payloadType: 'text/plain', payload: '', signatures: [] }))],
    [
      'an envelope without signatures',
      Buffer.from(
        JSON.stringify({
          payloadType: 'application/vnd.skillhub.publisher-statement+json',
          payload: '',
          signatures: [],
        }),
      ),
    ],
    ['an oversized file', Buffer.alloc(1024 * 1024 + 1, 0x20)],
  ])('calls %s malformed and never throws', (_name, bytes) => {
    expect(verifyPublisherSignature(SKILL, bytes, files(), [publisher.trusted])).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
  });

  it('refuses a genuine signature over a statement that is not a publisher statement', () => {
    const envelope = signEnvelope(
      'application/vnd.skillhub.publisher-statement+json',
      Buffer.from('{"skill":"acme/weather@1.0.0","files":{"a":"not-a-digest"},"signedAt":"2026-11-01T00:00:00.000Z"}'),
      publisher.privateKey,
      publisher.trusted.keyid,
    );
    expect(
      verifyPublisherSignature(SKILL, Buffer.from(JSON.stringify(envelope)), files(), [publisher.trusted]),
    ).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
  });
});
