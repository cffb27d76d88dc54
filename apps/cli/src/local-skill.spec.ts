import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { keyId } from '@skillhub/signing';
import { checkDir, signDir, signDirWithKey, validateDir } from './local-skill';
import { packDir } from './pack-dir';

const EXAMPLE = join(__dirname, '..', '..', '..', 'examples', 'weather');
const SECRET = 'a-kazma-secret';

describe('local skill commands', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'skillhub-local-')), 'weather');
    cpSync(EXAMPLE, dir, { recursive: true });
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('validates the example skill', () => {
    const result = validateDir(dir);
    expect(result.valid).toBe(true);
    expect(result.skill).toMatchObject({ namespace: 'acme-labs', name: 'weather', version: '1.0.0' });
  });

  it("signs exactly as Kazma's python does (hashlib + hmac)", () => {
    const result = signDir(dir, SECRET);
    const manifest = parse(readFileSync(join(dir, 'skill_manifest.yaml'), 'utf8'));
    expect(manifest).toMatchObject({ checksum: result.checksum, signature: result.signature, name: 'weather' });
    const python = execFileSync(
      'python3',
      [
        '-c',
        'import hashlib,hmac,sys\n' +
          'c=hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest()\n' +
          'print(c, hmac.new(sys.argv[2].encode(), c.encode(), hashlib.sha256).hexdigest())',
        join(dir, 'weather_skill.py'),
        SECRET,
      ],
      { encoding: 'utf8' },
    ).trim();
    expect(python).toBe(`${result.checksum} ${result.signature}`);
  });

  it("verifies a skill signed by Kazma's python (the reverse direction)", async () => {
    const manifestPath = join(dir, 'skill_manifest.yaml');
    execFileSync(
      'python3',
      [
        '-c',
        'import hashlib,hmac,sys\n' +
          'c=hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest()\n' +
          's=hmac.new(sys.argv[2].encode(), c.encode(), hashlib.sha256).hexdigest()\n' +
          'open(sys.argv[3],"a").write("checksum: %s\\nsignature: %s\\n" % (c, s))',
        join(dir, 'weather_skill.py'),
        SECRET,
        manifestPath,
      ],
      { encoding: 'utf8' },
    );
    expect(readFileSync(manifestPath, 'utf8')).toMatch(/^signature: [0-9a-f]{64}$/m);
    const report = (await checkDir(dir, { kazmaSecrets: [SECRET] })).report;
    expect(report.requirementsMet).toMatchObject({ checksum_valid: true, signature_valid: true });
    expect((await checkDir(dir, { kazmaSecrets: ['not-the-secret'] })).report.requirementsMet.signature_valid).toBe(
      false,
    );
  });

  it('signs every file with a publisher key; the local check verifies it and names a later change', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    signDir(dir, SECRET); // the HMAC first: the publisher signature covers the manifest it changes
    const signed = signDirWithKey(dir, privateKey);
    expect(signed).toMatchObject({ keyId: keyId(publicKey), files: readdirSync(dir).length - 1 });
    const keys = [{ keyid: keyId(publicKey), publicKey }];
    expect((await checkDir(dir, { kazmaSecrets: [SECRET], publisherKeys: keys })).report.checks.C14).toBe('pass');
    expect(packDir(dir).equals(packDir(dir))).toBe(true);

    signDir(dir, 'another-secret'); // rewrites the manifest after the publisher signed it
    const report = (await checkDir(dir, { kazmaSecrets: ['another-secret'], publisherKeys: keys })).report;
    expect(report.findings.filter((f) => f.check === 'C14').map((f) => f.message)).toEqual([
      'The bundle is not what the publisher signed: skill_manifest.yaml changed after it was signed.',
    ]);
  });

  it('packs a signed folder deterministically', () => {
    signDir(dir, SECRET);
    expect(packDir(dir).equals(packDir(dir))).toBe(true);
  });

  it('check-certification certifies a signed skill only with its secret', async () => {
    signDir(dir, SECRET);
    const signed = await checkDir(dir, { kazmaSecrets: [SECRET], now: new Date('2026-01-01T00:00:00Z') });
    expect(signed.packageProbes).toBe('not-run');
    expect(signed.report.status).toBe('certified');
    const wrong = await checkDir(dir, { kazmaSecrets: ['another'], now: new Date('2026-01-01T00:00:00Z') });
    expect(wrong.report.status).not.toBe('certified');
    expect(wrong.report.requirementsMet.signature_valid).toBe(false);
  });
});
