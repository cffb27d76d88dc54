import { generateKeyPairSync } from 'node:crypto';
import { openNote, signNote } from './signed-note';
import { BAD_SIGNATURE, MALFORMED_NOTE, UNKNOWN_KEY } from './signing.errors';
import { ed25519FromSeed } from './testing/ed25519-keys';

const failsWith = (code: string) => expect.objectContaining({ code });

// The example of golang.org/x/mod/sumdb/note: signer key
// PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz, whose base64 is
// the algorithm byte 0x01 and then the Ed25519 seed; its verifier key hash is c74f20a3.
const GO = {
  name: 'PeterNeumann',
  seed: Buffer.from('AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz', 'base64').subarray(1),
  text: "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n",
  note:
    "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n\n" +
    '\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n',
};

describe('signed notes', () => {
  const go = ed25519FromSeed(GO.seed);

  it("writes Go's example note byte for byte", () => {
    expect(signNote(GO.text, GO.name, go.privateKey)).toBe(GO.note);
  });

  it("opens Go's example note, whose key hash is c74f20a3", () => {
    expect(openNote(GO.note, GO.name, [go.publicKey])).toBe(GO.text);
    const blob = Buffer.from(GO.note.trimEnd().split(' ').pop() ?? '', 'base64');
    expect(blob.subarray(0, 4).toString('hex')).toBe('c74f20a3');
  });

  it('refuses an altered text with SIGNING.BAD_SIGNATURE', () => {
    expect(() => openNote(GO.note.replace('cryptography', 'cryptographY'), GO.name, [go.publicKey])).toThrow(
      failsWith(BAD_SIGNATURE),
    );
  });

  it('refuses a note signed by other keys or names with SIGNING.UNKNOWN_KEY', () => {
    const other = generateKeyPairSync('ed25519');
    expect(() => openNote(GO.note, GO.name, [other.publicKey])).toThrow(failsWith(UNKNOWN_KEY));
    expect(() => openNote(GO.note, 'EnochRoot', [go.publicKey])).toThrow(failsWith(UNKNOWN_KEY));
    expect(() => openNote(GO.note, GO.name, [])).toThrow(failsWith(UNKNOWN_KEY));
  });

  it('finds its signature among cosignatures and skips keys of other types', () => {
    const witness = generateKeyPairSync('ed25519');
    const cosigned = `${signNote(GO.text, 'witness.example/w1', witness.privateKey).trimEnd()}\n${GO.note.split('\n\n')[1]}`;
    const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    expect(openNote(cosigned, GO.name, [ecKey, go.publicKey])).toBe(GO.text);
    expect(openNote(cosigned, 'witness.example/w1', [witness.publicKey])).toBe(GO.text);
  });

  it.each([
    ['no blank line', GO.note.replace('\n\n', '\n')],
    ['no final newline', GO.note.trimEnd()],
    ['no signature lines', `${GO.text}\n`],
    ['a hyphen instead of the em dash', GO.note.replace('\u2014', '-')],
    ['a signature that is not base64', GO.note.replace('x08go', 'x08g!')],
    ['a signature of only a key hash', GO.note.replace(/ \S+\n$/, ' AAAAAA==\n')],
    ['an extra field', GO.note.replace(' x08go', ' extra x08go')],
    ['a control character in the text', GO.note.replace('problem,', 'problem,\u0007')],
    ['too many signature lines', GO.note + `\u2014 other AAAAAAA=\n`.repeat(100)],
  ])('refuses a note with %s as SIGNING.MALFORMED_NOTE', (_label, note) => {
    expect(() => openNote(note, GO.name, [go.publicKey])).toThrow(failsWith(MALFORMED_NOTE));
  });

  it.each([
    ['an empty name', 'text\n', ''],
    ['a name with a space', 'text\n', 'two words'],
    ['a name with "+"', 'text\n', 'a+b'],
    ['a text without final newline', 'text', 'name'],
    ['a text with a carriage return', 'text\r\n', 'name'],
    ['a text with a lone surrogate', 'text \ud800\n', 'name'],
  ])('refuses to sign %s', (_label, text, name) => {
    expect(() => signNote(text, name, go.privateKey)).toThrow(failsWith(MALFORMED_NOTE));
  });
});
