/**
 * C3 and C4 against Kazma's own signing: the fixtures are signed by Python's hashlib and hmac
 * exactly as Kazma's `hub sign` does, so a skill Kazma signed verifies on the hub.
 */
import { execFileSync } from 'node:child_process';
import { kazmaChecksum, kazmaSignature } from '@skillhub/signing';
import {
  certifyFiles,
  findingsOf,
  KAZMA_CODE,
  KAZMA_ENTRY,
  kazmaFiles,
  kazmaLiveServers,
  kazmaManifest,
  kazmaProbes,
  lineIn,
  placeOf,
} from '../testing/certification-fixtures';

const SECRET = 'kazma-secret-for-acme';

/** Kazma's `hub sign`: checksum = sha256 hex of the entry file; signature = HMAC-SHA256(secret, checksum hex). */
function hubSign(entry: string, secret: string): { checksum: string; signature: string } {
  const script = [
    'import hashlib, hmac, sys',
    'data = sys.stdin.buffer.read()',
    'checksum = hashlib.sha256(data).hexdigest()',
    'signature = hmac.new(sys.argv[1].encode("utf-8"), checksum.encode("utf-8"), hashlib.sha256).hexdigest()',
    'print(checksum, signature)',
  ].join('\n');
  const [checksum, signature] = execFileSync('python3', ['-c', script, secret], { input: Buffer.from(entry, 'utf8') })
    .toString('utf8')
    .trim()
    .split(' ');
  return { checksum: checksum as string, signature: signature as string };
}

const signed = hubSign(KAZMA_CODE, SECRET);
const signedFiles = (o: { code?: string; manifest?: Record<string, unknown> } = {}) =>
  kazmaFiles({ code: o.code, manifest: { ...signed, ...o.manifest } });
const signatureLine = lineIn(kazmaManifest(signed), 'signature:');

describe('Kazma v1 signatures (C3 checksum, C4 HMAC)', () => {
  it('computes what the signing lib computes, byte for byte', () => {
    const entry = Buffer.from(KAZMA_CODE, 'utf8');
    expect(signed).toEqual({ checksum: kazmaChecksum(entry), signature: kazmaSignature(kazmaChecksum(entry), SECRET) });
  });

  it('certifies a skill signed by `hub sign` at standard when everything else is perfect', () => {
    const report = certifyFiles(signedFiles(), {
      probes: kazmaProbes(),
      kazmaSecrets: [SECRET],
      liveServers: kazmaLiveServers(),
    });

    expect([report.status, report.level, report.score]).toEqual(['certified', 'standard', 100]);
    expect(report.findings.filter((finding) => finding.severity !== 'info')).toEqual([]);
    expect(report.requirementsMet).toMatchObject({ checksum_valid: true, signature_valid: true });
    expect(report.entryPointChecksum).toBe(signed.checksum);
  });

  it("verifies with the hub's own secret when the namespace has none registered", () => {
    const report = certifyFiles(signedFiles(), {
      probes: kazmaProbes(),
      kazmaSecrets: ['', 'other', SECRET],
      liveServers: kazmaLiveServers(),
    });

    expect(report.level).toBe('standard');
  });

  it('fails a tampered entry point with a critical C3 finding on that file, and does not look at the signature', () => {
    const report = certifyFiles(signedFiles({ code: `${KAZMA_CODE}import os\n` }), {
      probes: kazmaProbes(),
      kazmaSecrets: [SECRET],
    });

    expect(findingsOf(report, 'C3.checksum-mismatch').map(placeOf)).toEqual([
      { rule: 'C3.checksum-mismatch', severity: 'critical', file: KAZMA_ENTRY, line: null },
    ]);
    expect(findingsOf(report, 'C3.checksum-mismatch')[0]?.message).toContain('may have been tampered with');
    expect([report.status, report.level, report.checks.C3, report.checks.C4]).toEqual([
      'failed',
      'none',
      'fail',
      'skipped',
    ]);
    expect(report.requirementsMet).toMatchObject({ checksum_valid: false, signature_valid: false });
  });

  it('fails a signature made with another secret with a high C4 finding on the signature line', () => {
    const report = certifyFiles(signedFiles(), { probes: kazmaProbes(), kazmaSecrets: ['not-the-secret'] });

    expect(findingsOf(report, 'C4.bad-signature').map(placeOf)).toEqual([
      { rule: 'C4.bad-signature', severity: 'high', file: 'skill_manifest.yaml', line: signatureLine },
    ]);
    expect([report.status, report.checks.C3, report.checks.C4]).toEqual(['failed', 'pass', 'fail']);
  });

  it('fails a signature when no secret is available to check it with', () => {
    const report = certifyFiles(signedFiles(), { probes: kazmaProbes(), kazmaSecrets: [] });

    expect(findingsOf(report, 'C4.no-secret').map(placeOf)).toEqual([
      { rule: 'C4.no-secret', severity: 'high', file: 'skill_manifest.yaml', line: signatureLine },
    ]);
    expect(report.status).toBe('failed');
  });

  it('fails a signature without a checksum, which cannot be verified', () => {
    const report = certifyFiles(signedFiles({ manifest: { checksum: undefined } }), {
      probes: kazmaProbes(),
      kazmaSecrets: [SECRET],
    });

    expect(
      report.findings.filter((f) => f.check === 'C3' || f.check === 'C4').map((f) => [f.rule, f.severity]),
    ).toEqual([
      ['C3.unsigned', 'medium'],
      ['C4.missing-checksum', 'high'],
    ]);
    expect(report.status).toBe('failed');
  });

  it('reports a skill without checksum as unsigned: certified, but never at standard', () => {
    const report = certifyFiles(kazmaFiles(), {
      probes: kazmaProbes(),
      kazmaSecrets: [SECRET],
      liveServers: kazmaLiveServers(),
    });

    expect(findingsOf(report, 'C3.unsigned').map(placeOf)).toEqual([
      { rule: 'C3.unsigned', severity: 'medium', file: 'skill_manifest.yaml', line: null },
    ]);
    expect(report.requirementsMet.signature_valid).toBe(false);
    expect([report.status, report.level]).toEqual(['certified', 'basic']);
  });

  it('does not hold back as unsigned a skill with no entry point in which nothing runs', () => {
    const manifestOnly = {
      'skill_manifest.yaml': kazmaManifest({ entry_point: undefined, permissions: [] }),
      'README.md': '# Weather report\n\nAsk for the forecast of a city; the weather server answers.\n',
    };
    const report = certifyFiles(manifestOnly, {
      probes: kazmaProbes(),
      kazmaSecrets: [SECRET],
      liveServers: kazmaLiveServers(),
    });

    expect(findingsOf(report, 'C3.nothing-to-sign').map(placeOf)).toEqual([
      { rule: 'C3.nothing-to-sign', severity: 'info', file: 'skill_manifest.yaml', line: null },
    ]);
    expect(report.requirementsMet).toMatchObject({ checksum_valid: true, signature_valid: true });
    expect([report.status, report.level]).toEqual(['certified', 'standard']);

    // Code anywhere (here a shell block in its README) has something a signature would cover: unsigned.
    const withCode = { ...manifestOnly, 'README.md': '# Weather\n\n```bash\ncurl -s https://wttr.in/Paris\n```\n' };
    const unsigned = certifyFiles(withCode, {
      probes: kazmaProbes(),
      kazmaSecrets: [SECRET],
      liveServers: kazmaLiveServers(),
    });
    expect(findingsOf(unsigned, 'C3.unsigned')).toHaveLength(1);
    expect(unsigned.requirementsMet).toMatchObject({ checksum_valid: false, signature_valid: false });
  });

  it('reports a checksum without a signature as unsigned for C4 only', () => {
    const report = certifyFiles(signedFiles({ manifest: { signature: undefined } }), {
      probes: kazmaProbes(),
      kazmaSecrets: [SECRET],
    });

    expect([report.checks.C3, report.checks.C4, report.level]).toEqual(['pass', 'warn', 'basic']);
    expect(findingsOf(report, 'C4.unsigned')).toHaveLength(1);
    expect(report.requirementsMet).toMatchObject({ checksum_valid: true, signature_valid: false });
  });
});
