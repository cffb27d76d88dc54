import { createHash } from 'node:crypto';
import { signCertificate, type CertificateStatement } from './certificate-statement';
import { generateHubKey, keyId, loadPrivateKey, publicKeyFromPem } from './hub-key';
import { verifyBundleCertificate } from './bundle-certificate';

const hex = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const bundle = Buffer.from('the gzipped bundle bytes');
const files = [
  { path: 'skill_manifest.yaml', content: Buffer.from('name: x\n') },
  { path: 'main.py', content: Buffer.from('print(1)\n') },
];

function issue(issuedAt: string, expiresAt: string) {
  const pair = generateHubKey();
  const publicKey = publicKeyFromPem(pair.publicKeyPem);
  const id = keyId(publicKey);
  const statement: CertificateStatement = {
    skill: 'acme/x',
    version: '1.0.0',
    bundleSha256: hex(bundle),
    manifestSha256: hex('m'),
    entryPointChecksum: hex(files[1]!.content),
    files: Object.fromEntries(files.map((f) => [f.path, hex(f.content)])),
    capabilities: [],
    permissions: [],
    codeCapabilities: [],
    packages: [],
    tools: {},
    servers: [],
    level: 'basic',
    checkResultsSha256: hex('r'),
    issuedAt,
    expiresAt,
    logIndex: 0,
  };
  return { envelope: signCertificate(statement, loadPrivateKey(pair.privateKeyPem), id), publicKey, id };
}

describe('verifyBundleCertificate', () => {
  const now = new Date('2026-06-01T00:00:00Z');

  it('accepts the bundle and files it was issued for', () => {
    const { envelope, publicKey, id } = issue('2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z');
    const statement = verifyBundleCertificate({ envelope, keys: [{ keyid: id, publicKey }], bundle, files, now });
    expect(statement.skill).toBe('acme/x');
  });

  it('still accepts a certificate signed by a key that was retired after it signed', () => {
    const { envelope, publicKey, id } = issue('2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z');
    const retired = {
      keyid: id,
      publicKey,
      notBefore: new Date('2025-12-01T00:00:00Z'),
      notAfter: new Date('2026-02-01T00:00:00Z'),
    };
    expect(verifyBundleCertificate({ envelope, keys: [retired], bundle, now }).version).toBe('1.0.0');
  });

  it('refuses other bundle bytes, a changed file, an expired certificate and an unknown key', () => {
    const { envelope, publicKey, id } = issue('2026-01-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z');
    const keys = [{ keyid: id, publicKey }];
    const early = new Date('2026-02-01T00:00:00Z');
    expect(() => verifyBundleCertificate({ envelope, keys, bundle: Buffer.from('other'), now: early })).toThrow(
      expect.objectContaining({ code: 'SIGNING.BUNDLE_MISMATCH' }),
    );
    const changed = [files[0]!, { path: 'main.py', content: Buffer.from('print(2)\n') }];
    expect(() => verifyBundleCertificate({ envelope, keys, bundle, files: changed, now: early })).toThrow(
      expect.objectContaining({
        code: 'SIGNING.BUNDLE_MISMATCH',
        problems: [expect.objectContaining({ path: 'main.py' })],
      }),
    );
    expect(() => verifyBundleCertificate({ envelope, keys, bundle, now })).toThrow(
      expect.objectContaining({ code: 'SIGNING.CERTIFICATE_EXPIRED' }),
    );
    const stranger = issue('2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z');
    expect(() =>
      verifyBundleCertificate({
        envelope,
        keys: [{ keyid: stranger.id, publicKey: stranger.publicKey }],
        bundle,
        now: early,
      }),
    ).toThrow(expect.objectContaining({ code: 'SIGNING.UNKNOWN_KEY' }));
  });
});
