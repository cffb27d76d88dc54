/** Reports as the certifier records them, for the database's tests. */
import {
  CERTIFICATION_POLICY_VERSION,
  CHECK_IDS,
  REQUIREMENT_NAMES,
  type CertificationReport,
} from '@skillhub/certification';

/** A certified report of the current policy with every kind of evidence, as `record()` dates it. */
export function certifiedReport(overrides: Partial<CertificationReport> = {}): CertificationReport {
  return {
    status: 'certified',
    level: 'standard',
    score: 100,
    findings: [
      {
        rule: 'C11.capability-declared',
        check: 'C11',
        severity: 'info',
        file: 'weather_skill.py',
        line: 3,
        message: 'reads WEATHER_UNIT',
        fixHint: 'nothing to change',
      },
    ],
    requirementsMet: Object.fromEntries(REQUIREMENT_NAMES.map((name) => [name, true])) as Record<
      (typeof REQUIREMENT_NAMES)[number],
      boolean
    >,
    checks: Object.fromEntries(CHECK_IDS.map((id) => [id, 'pass'])) as CertificationReport['checks'],
    files: [{ path: 'weather_skill.py', size: 120, sha256: 'a'.repeat(64) }],
    toolHashes: { get_weather: 'b'.repeat(64) },
    capabilities: [
      {
        capability: 'env_read',
        permission: 'env_read',
        declared: true,
        uses: [{ file: 'weather_skill.py', line: 3, evidence: 'os.environ.get' }],
        more: 0,
      },
    ],
    servers: [
      {
        name: 'weather',
        transport: 'stdio',
        launch: 'npm',
        argv: ['npx', '-y', '@acme/weather-mcp@2.1.0'],
        url: null,
        package: { registry: 'npm', name: '@acme/weather-mcp', version: '2.1.0', integrity: 'sha512-abc' },
        file: null,
        env: { UNIT: '${WEATHER_UNIT}' },
        cwd: null,
        tools: { forecast: 'c'.repeat(64) },
      },
    ],
    provenance: [
      {
        registry: 'npm',
        name: '@acme/weather-mcp',
        version: '2.1.0',
        repository: 'https://github.com/acme/weather-mcp',
        attestation: null,
      },
    ],
    detonation: {
      ran: [{ what: 'scripts/forecast.py --help', file: 'scripts/forecast.py', line: null, exit: 0, timedOut: false }],
      events: [],
      notRun: [{ what: 'README.md line 12: pip install requests', reason: 'a package install (C8 checks packages)' }],
    },
    pinnedPackages: [{ registry: 'npm', name: '@acme/weather-mcp', version: '2.1.0', integrity: 'sha512-abc' }],
    manifestSha256: 'd'.repeat(64),
    entryPointChecksum: 'e'.repeat(64),
    policyVersion: CERTIFICATION_POLICY_VERSION,
    resultsSha256: 'f'.repeat(64),
    issuedAt: '2025-06-01T12:00:00.000Z',
    expiresAt: '2025-08-30T12:00:00.000Z',
    ...overrides,
  };
}
