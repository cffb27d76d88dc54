import type { ProbeResult } from '../certification-input';
import {
  certifyFiles,
  findingsOf,
  KAZMA_PACKAGE,
  kazmaFiles,
  kazmaManifest,
  kazmaProbes,
  lineIn,
  placeOf,
  probe,
  SWARMKIT_PACKAGE,
  swarmkitFiles,
} from '../testing/certification-fixtures';

const SLSA = 'https://slsa.dev/provenance/v1';
const REPOSITORY = 'https://github.com/acme/weather-mcp';
const KAZMA_LINE = lineIn(kazmaManifest(), KAZMA_PACKAGE.name);

const kazma = (provenance: ProbeResult['provenance'], overrides: Partial<ProbeResult> = {}) =>
  certifyFiles(kazmaFiles(), { probes: kazmaProbes({ provenance, ...overrides }) });

describe('C9 provenance', () => {
  it('records the repository and the SLSA attestation npm lists, and says so in an info finding', () => {
    const report = kazma({ repository: REPOSITORY, attestation: SLSA });

    expect(report.provenance).toEqual([
      { registry: 'npm', name: '@acme/weather-mcp', version: '2.1.0', repository: REPOSITORY, attestation: SLSA },
    ]);
    expect(findingsOf(report, 'C9.provenance').map(placeOf)).toEqual([
      { rule: 'C9.provenance', severity: 'info', file: 'skill_manifest.yaml', line: KAZMA_LINE },
    ]);
    expect(findingsOf(report, 'C9.provenance')[0]?.message).toBe(
      `npm package @acme/weather-mcp@2.1.0 names its source repository ${REPOSITORY}, and npm lists a SLSA ` +
        'provenance attestation for this release; the hub records it as evidence and does not rate the package by it.',
    );
    expect(report.checks.C9).toBe('pass');
  });

  it('says when a release has no provenance attestation, or names no repository', () => {
    const unattested = kazma({ repository: REPOSITORY, attestation: null });
    const anonymous = kazma({ repository: null, attestation: null });

    expect(findingsOf(unattested, 'C9.provenance')[0]?.message).toContain(
      `names its source repository ${REPOSITORY}, and has no provenance attestation;`,
    );
    expect(findingsOf(anonymous, 'C9.provenance')[0]?.message).toContain(
      'names no source repository, and has no provenance attestation;',
    );
    expect(anonymous.provenance).toEqual([
      { registry: 'npm', name: '@acme/weather-mcp', version: '2.1.0', repository: null, attestation: null },
    ]);
  });

  it('names an attestation that is not SLSA provenance by its predicate type', () => {
    const report = kazma({ repository: null, attestation: 'https://in-toto.io/attestation/custom/v9' });

    expect(findingsOf(report, 'C9.provenance')[0]?.message).toContain(
      'npm lists an attestation of type https://in-toto.io/attestation/custom/v9 for this release',
    );
  });

  it('never decides the level: a package with no provenance at all certifies exactly like an attested one', () => {
    const attested = kazma({ repository: REPOSITORY, attestation: SLSA });
    const anonymous = kazma({ repository: null, attestation: null });

    expect(anonymous.status).toBe(attested.status);
    expect(anonymous.level).toBe(attested.level);
    expect(anonymous.requirementsMet).toEqual(attested.requirementsMet);
    expect(anonymous.checks).toEqual(attested.checks);
    expect(anonymous.findings.filter((finding) => finding.rule.startsWith('C9.'))).toEqual([
      expect.objectContaining({ rule: 'C9.provenance', severity: 'info' }),
    ]);
  });

  it('says nothing about a package that was not found (C8 fails it)', () => {
    const report = kazma({ repository: null, attestation: null }, { outcome: 'not_found', integrity: null });

    expect(report.provenance).toEqual([]);
    expect(findingsOf(report, 'C9.provenance')).toEqual([]);
    expect(report.checks.C9).toBe('pass');
  });

  it("says a PyPI package's attestations are not read, rather than that it has none", () => {
    const command = ['uvx', 'mcp-server-fetch==2025.4.7'];
    const files = kazmaFiles({ manifest: { mcp_servers: [{ name: 'fetch', transport: 'stdio', command }] } });
    const pypi = probe({
      registry: 'pypi',
      name: 'mcp-server-fetch',
      version: '2025.4.7',
      provenance: { repository: 'https://github.com/modelcontextprotocol/servers', attestation: null },
    });

    const report = certifyFiles(files, { probes: [pypi] });

    expect(report.provenance).toEqual([
      {
        registry: 'pypi',
        name: 'mcp-server-fetch',
        version: '2025.4.7',
        repository: 'https://github.com/modelcontextprotocol/servers',
        attestation: null,
      },
    ]);
    const [finding] = findingsOf(report, 'C9.provenance');
    expect(finding?.message).toContain("its attestations are not read (PyPI's JSON API does not list them)");
    expect(finding?.message).not.toContain('has no provenance attestation');
  });

  it("places a SwarmKit skill's finding on the workspace file that names the package", () => {
    const command = ['npx', '-y', '@acme/search-mcp@1.2.3'];
    const files = swarmkitFiles({ command });
    const report = certifyFiles(files, { probes: [probe({ ...SWARMKIT_PACKAGE })] });

    expect(findingsOf(report, 'C9.provenance').map(placeOf)).toEqual([
      {
        rule: 'C9.provenance',
        severity: 'info',
        file: 'workspace.yaml',
        line: lineIn(files['workspace.yaml'] ?? '', '@acme/search-mcp@1.2.3'),
      },
    ]);
  });

  it('records nothing for a skill that runs no package', () => {
    const report = certifyFiles(kazmaFiles({ manifest: { mcp_servers: undefined } }));

    expect([report.provenance, findingsOf(report, 'C9.provenance'), report.checks.C9]).toEqual([[], [], 'pass']);
  });
});
