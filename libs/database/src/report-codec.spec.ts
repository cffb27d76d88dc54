import { decodeOptionalReport, decodeReport, encodeReport, StoredReportError } from './report-codec';
import { certifiedReport as currentReport } from './testing/report-fixtures';

/** Through the jsonb column and back: what PostgreSQL gives a reader is plain parsed JSON. */
const stored = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const problemPaths = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (err) {
    if (err instanceof StoredReportError) return err.problems.map((p) => p.path);
    throw err;
  }
  throw new Error('expected a StoredReportError');
};

describe('the stored report codec', () => {
  it('gives every reader back exactly what record() stored', () => {
    const report = currentReport();
    expect(decodeReport(stored(encodeReport(report)))).toEqual(report);
  });

  it('refuses to store a report missing a requirement, with a wrong type, or with a field it does not know', () => {
    const { no_hidden_text: _dropped, ...fewer } = currentReport().requirementsMet;
    expect(problemPaths(() => encodeReport({ ...currentReport(), requirementsMet: fewer as never }))).toEqual([
      'requirementsMet.no_hidden_text',
    ]);
    expect(problemPaths(() => encodeReport({ ...currentReport(), score: '100' as never }))).toEqual(['score']);
    const extra = { ...currentReport(), servers: [{ ...currentReport().servers[0]!, secret: 'x' }] };
    expect(problemPaths(() => encodeReport(extra as never))).toEqual(['servers.0']);
  });

  it('refuses to read stored JSON no certifier wrote, naming where it goes wrong', () => {
    expect(() => decodeReport({})).toThrow(StoredReportError);
    expect(() => decodeReport(null)).toThrow(StoredReportError);
    const bad = stored(currentReport()) as { findings: Array<{ severity: string }> };
    bad.findings[0]!.severity = 'harmless';
    expect(problemPaths(() => decodeReport(bad))).toEqual(['findings.0.severity']);
    expect(decodeOptionalReport(null)).toBeNull();
  });

  it('reads a report an older policy stored: its own requirement names, and no evidence it did not record', () => {
    // The shape policy 1 wrote (no C11 capabilities, C15 servers or C9 provenance; a requirement since renamed).
    const old = {
      status: 'certified',
      level: 'basic',
      score: 90,
      findings: [],
      requirementsMet: { manifest_valid: true, packages_point_back: true },
      checks: { C1: 'pass', C8: 'pass', C13: 'skipped' },
      files: [{ path: 'skill_manifest.yaml', size: 200, sha256: 'a'.repeat(64) }],
      toolHashes: {},
      pinnedPackages: [{ registry: 'pypi', name: 'weather', version: '1.0.0', integrity: 'b'.repeat(64) }],
      manifestSha256: 'c'.repeat(64),
      entryPointChecksum: null,
      issuedAt: '2025-01-01T00:00:00.000Z',
      expiresAt: '2025-04-01T00:00:00.000Z',
      policyVersion: 1,
      resultsSha256: 'd'.repeat(64),
    };
    const report = decodeReport(old);
    expect(report.requirementsMet).toEqual({ manifest_valid: true, packages_point_back: true });
    expect([report.capabilities, report.servers, report.provenance]).toEqual([[], [], []]);
    expect(report.pinnedPackages).toEqual(old.pinnedPackages);
  });
});
