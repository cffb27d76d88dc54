import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT } from './exit-codes';
import { generateKeyFiles, localPublicKeys, readPrivateKey, readPublicKey } from './key-files';

describe('key files', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'skillhub-keys-')), 'keys');
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('writes a pair: the private key 0600 in a 0700 folder, the public key readable, one key id', () => {
    const key = generateKeyFiles(dir, 'laptop');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(key.privateKey).mode & 0o777).toBe(0o600);
    expect(readFileSync(key.privateKey, 'utf8')).toContain('BEGIN PRIVATE KEY');
    expect(readPublicKey(key.publicKey).keyId).toBe(key.keyId);
    expect(readPrivateKey(key.privateKey).asymmetricKeyType).toBe('ed25519');
    expect(localPublicKeys(dir).map((k) => k.keyid)).toEqual([key.keyId]);
  });

  it('never overwrites a key, and refuses names that are paths', () => {
    const first = generateKeyFiles(dir, 'default');
    expect(() => generateKeyFiles(dir, 'default')).toThrow(expect.objectContaining({ exitCode: EXIT.usage }));
    expect(readPublicKey(first.publicKey).keyId).toBe(first.keyId);
    for (const name of ['../escape', '.hidden', '', 'a/b']) {
      expect(() => generateKeyFiles(dir, name)).toThrow(expect.objectContaining({ exitCode: EXIT.usage }));
    }
  });

  it('refuses a private key others can read, and files that are not Ed25519 keys, without quoting them', () => {
    const key = generateKeyFiles(dir, 'default');
    chmodSync(key.privateKey, 0o640);
    expect(() => readPrivateKey(key.privateKey)).toThrow(/readable by others \(mode 0640\)/);
    const junk = join(dir, 'junk.key');
    writeFileSync(junk, '-----BEGIN PRIVATE KEY-----\nSECRET-MATERIAL\n-----END PRIVATE KEY-----\n', { mode: 0o600 });
    expect(() => readPrivateKey(junk)).toThrow(expect.objectContaining({ exitCode: EXIT.usage }));
    expect(() => readPrivateKey(junk)).not.toThrow(/SECRET-MATERIAL/);
    expect(() => readPublicKey(key.privateKey)).toThrow(/private key was given where a public key is expected/);
  });
});
