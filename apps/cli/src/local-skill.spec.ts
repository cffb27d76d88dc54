import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { checkDir, signDir, validateDir } from './local-skill';
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

  it('packs a signed folder deterministically', () => {
    signDir(dir, SECRET);
    expect(packDir(dir).equals(packDir(dir))).toBe(true);
  });

  it('check-certification certifies a signed skill only with its secret', () => {
    signDir(dir, SECRET);
    const signed = checkDir(dir, { kazmaSecrets: [SECRET], now: new Date('2026-01-01T00:00:00Z') });
    expect(signed.packageProbes).toBe('not-run');
    expect(signed.report.status).toBe('certified');
    const wrong = checkDir(dir, { kazmaSecrets: ['another'], now: new Date('2026-01-01T00:00:00Z') });
    expect(wrong.report.status).not.toBe('certified');
    expect(wrong.report.requirementsMet.signature_valid).toBe(false);
  });
});
