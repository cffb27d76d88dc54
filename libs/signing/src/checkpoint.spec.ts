import { generateKeyPairSync } from 'node:crypto';
import { signCheckpoint, verifyCheckpoint, type Checkpoint } from './checkpoint';
import { leafHash, merkleRoot } from './merkle';
import { signNote } from './signed-note';
import { BAD_SIGNATURE, MALFORMED_NOTE, UNKNOWN_KEY } from './signing.errors';

const failsWith = (code: string) => expect.objectContaining({ code });

describe('signed checkpoints', () => {
  const origin = 'skillhub.example/log';
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const checkpoint: Checkpoint = {
    origin,
    treeSize: 3,
    rootHash: merkleRoot(['a', 'b', 'c'].map((entry) => leafHash(Buffer.from(entry)))),
    timestamp: new Date('2025-06-01T12:00:00.000Z'),
  };

  it('writes the C2SP body, a timestamp extension line, and one signature line under the origin', () => {
    const note = signCheckpoint(checkpoint, privateKey);
    const [text, signatures] = note.split('\n\n');
    expect(text.split('\n')).toEqual([
      origin,
      '3',
      checkpoint.rootHash.toString('base64'),
      'timestamp 2025-06-01T12:00:00.000Z',
    ]);
    expect(signatures).toMatch(/^\u2014 skillhub\.example\/log [A-Za-z0-9+/]{91}=\n$/);
  });

  it('round-trips', () => {
    expect(verifyCheckpoint(signCheckpoint(checkpoint, privateKey), origin, [publicKey])).toEqual(checkpoint);
  });

  it('verifies with any of the log keys, for rotation', () => {
    const retired = generateKeyPairSync('ed25519').publicKey;
    expect(verifyCheckpoint(signCheckpoint(checkpoint, privateKey), origin, [retired, publicKey]).treeSize).toBe(3);
  });

  it('carries sizes past 32 bits', () => {
    const big = { ...checkpoint, treeSize: 2 ** 40 + 1 };
    expect(verifyCheckpoint(signCheckpoint(big, privateKey), origin, [publicKey]).treeSize).toBe(2 ** 40 + 1);
  });

  it.each([
    ['tree size', (note: string) => note.replace('\n3\n', '\n4\n')],
    ['root hash', (note: string) => note.replace(/\n[A-Za-z0-9+/]{2}/, '\nAA')],
    ['timestamp', (note: string) => note.replace('12:00:00', '12:00:01')],
  ])('refuses an altered %s with SIGNING.BAD_SIGNATURE', (_label, alter) => {
    const altered = alter(signCheckpoint(checkpoint, privateKey));
    expect(() => verifyCheckpoint(altered, origin, [publicKey])).toThrow(failsWith(BAD_SIGNATURE));
  });

  it('refuses a checkpoint of another log, or by another key, with SIGNING.UNKNOWN_KEY', () => {
    const note = signCheckpoint(checkpoint, privateKey);
    expect(() => verifyCheckpoint(note, 'other.example/log', [publicKey])).toThrow(failsWith(UNKNOWN_KEY));
    const stranger = generateKeyPairSync('ed25519').publicKey;
    expect(() => verifyCheckpoint(note, origin, [stranger])).toThrow(failsWith(UNKNOWN_KEY));
  });

  describe('malformed checkpoint texts, each validly signed under the origin', () => {
    const root = checkpoint.rootHash.toString('base64');
    const stamp = 'timestamp 2025-06-01T12:00:00.000Z';
    it.each([
      ['no timestamp line', `${origin}\n3\n${root}\n`],
      ['an extra extension line', `${origin}\n3\n${root}\n${stamp}\nmore\n`],
      ['another origin in the text', `other.example/log\n3\n${root}\n${stamp}\n`],
      ['a size with a leading zero', `${origin}\n03\n${root}\n${stamp}\n`],
      ['a negative size', `${origin}\n-3\n${root}\n${stamp}\n`],
      ['a size beyond 2^53', `${origin}\n9007199254740993\n${root}\n${stamp}\n`],
      ['a root of 31 bytes', `${origin}\n3\n${checkpoint.rootHash.subarray(1).toString('base64')}\n${stamp}\n`],
      ['a root in hex', `${origin}\n3\n${checkpoint.rootHash.toString('hex')}\n${stamp}\n`],
      ['a timestamp without milliseconds', `${origin}\n3\n${root}\ntimestamp 2025-06-01T12:00:00Z\n`],
      ['a timestamp in seconds', `${origin}\n3\n${root}\ntimestamp 1748779200\n`],
    ])('refuses %s as SIGNING.MALFORMED_NOTE', (_label, text) => {
      const note = signNote(text, origin, privateKey);
      expect(() => verifyCheckpoint(note, origin, [publicKey])).toThrow(failsWith(MALFORMED_NOTE));
    });
  });

  it.each([
    ['a negative size', { treeSize: -1 }],
    ['a fractional size', { treeSize: 1.5 }],
    ['a short root', { rootHash: Buffer.alloc(31) }],
    ['an invalid time', { timestamp: new Date(Number.NaN) }],
    ['an origin with a space', { origin: 'skill hub' }],
    ['an origin with a newline', { origin: 'a\n5' }],
  ])('refuses to sign %s', (_label, change) => {
    expect(() => signCheckpoint({ ...checkpoint, ...change }, privateKey)).toThrow(failsWith(MALFORMED_NOTE));
  });
});
