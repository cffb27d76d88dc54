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

/** What the prober answers for SwarmKit's documented mistakes (docs/kazma.md). */
const BRAVE_NOT_FOUND = probe({
  registry: 'npm',
  name: '@anthropic/brave-search-mcp',
  version: null,
  outcome: 'not_found',
  integrity: null,
  detail:
    'npm package @anthropic/brave-search-mcp does not exist: https://registry.npmjs.org/@anthropic%2fbrave-search-mcp answered 404.',
  fixHint: 'Name a package that exists on npm (check its spelling and scope), or remove the server that runs it.',
});
const QDRANT_WRONG_REGISTRY = probe({
  registry: 'npm',
  name: 'mcp-server-qdrant',
  version: null,
  outcome: 'wrong_registry',
  integrity: null,
  detail:
    'mcp-server-qdrant is not on npm (https://registry.npmjs.org/mcp-server-qdrant answered 404); it is a PyPI package (https://pypi.org/pypi/mcp-server-qdrant/json) — use `uvx mcp-server-qdrant`.',
  fixHint: 'Run it from PyPI, pinned: `uvx mcp-server-qdrant==0.8.0`.',
});

const KAZMA_LINE = lineIn(kazmaManifest(), KAZMA_PACKAGE.name);
const workspaceLine = (command: string[]): number =>
  lineIn(swarmkitFiles({ command })['workspace.yaml'] ?? '', command[command.length - 1] ?? '');
const PINNED = ['npx', '-y', '@acme/search-mcp@1.2.3'];

const swarmkit = (command: string[], result: Partial<ProbeResult> & Pick<ProbeResult, 'registry' | 'name'>) =>
  certifyFiles(swarmkitFiles({ command }), { probes: [probe(result)] });

describe('C8 packages', () => {
  it("fails SwarmKit's @anthropic/brave-search-mcp, which is not on npm, with the prober's explanation", () => {
    const command = ['npx', '-y', '@anthropic/brave-search-mcp'];
    const report = certifyFiles(swarmkitFiles({ command }), { probes: [BRAVE_NOT_FOUND] });

    expect(findingsOf(report, 'C8.not-found').map(placeOf)).toEqual([
      { rule: 'C8.not-found', severity: 'high', file: 'workspace.yaml', line: workspaceLine(command) },
    ]);
    expect(findingsOf(report, 'C8.not-found')[0]).toMatchObject({
      message: BRAVE_NOT_FOUND.detail,
      fixHint: BRAVE_NOT_FOUND.fixHint,
    });
    expect([report.status, report.requirementsMet.packages_exist]).toEqual(['failed', false]);
  });

  it("fails SwarmKit's mcp-server-qdrant run from npm, though it is a PyPI package", () => {
    const command = ['npx', '-y', 'mcp-server-qdrant'];
    const report = certifyFiles(swarmkitFiles({ command }), { probes: [QDRANT_WRONG_REGISTRY] });

    expect(findingsOf(report, 'C8.wrong-registry').map(placeOf)).toEqual([
      { rule: 'C8.wrong-registry', severity: 'high', file: 'workspace.yaml', line: workspaceLine(command) },
    ]);
    expect(findingsOf(report, 'C8.wrong-registry')[0]?.fixHint).toContain('uvx mcp-server-qdrant==');
    expect(report.status).toBe('failed');
  });

  it.each([
    ['unpublished', 'C8.unpublished'],
    ['security_placeholder', 'C8.security-placeholder'],
    ['yanked', 'C8.yanked'],
  ] as const)('fails a package that is %s', (outcome, rule) => {
    const report = certifyFiles(kazmaFiles(), { probes: kazmaProbes({ outcome, integrity: null }) });

    expect(findingsOf(report, rule).map(placeOf)).toEqual([
      { rule, severity: 'high', file: 'skill_manifest.yaml', line: KAZMA_LINE },
    ]);
    expect(report.status).toBe('failed');
  });

  it('holds a package pinned to no exact version back from standard, and pins nothing', () => {
    const command = ['npx', '-y', '@acme/search-mcp'];
    const report = swarmkit(command, {
      ...SWARMKIT_PACKAGE,
      version: null,
      outcome: 'no_exact_version',
      integrity: null,
      fixHint: 'Pin an exact version, e.g. `npx -y @acme/search-mcp@1.2.3`.',
    });

    expect(findingsOf(report, 'C8.no-exact-version').map(placeOf)).toEqual([
      { rule: 'C8.no-exact-version', severity: 'medium', file: 'workspace.yaml', line: workspaceLine(command) },
    ]);
    expect(report.requirementsMet).toMatchObject({ packages_exist: true, packages_pinned: false });
    expect([report.status, report.level, report.pinnedPackages]).toEqual(['certified', 'basic', []]);
  });

  it('holds a deprecated package back from standard', () => {
    const report = swarmkit(PINNED, {
      ...SWARMKIT_PACKAGE,
      deprecated: 'use @acme/search',
    });

    expect(findingsOf(report, 'C8.deprecated').map(placeOf)).toEqual([
      { rule: 'C8.deprecated', severity: 'medium', file: 'workspace.yaml', line: workspaceLine(PINNED) },
    ]);
    expect(report.level).toBe('basic');
  });

  it('holds a found package without an integrity digest back from standard', () => {
    const report = swarmkit(PINNED, { ...SWARMKIT_PACKAGE, integrity: null });

    expect(findingsOf(report, 'C8.no-integrity')).toHaveLength(1);
    expect([report.level, report.requirementsMet.packages_pinned]).toEqual(['basic', false]);
  });

  it('leaves a version inconclusive, never certified, when a registry gave no definite answer', () => {
    const report = certifyFiles(kazmaFiles(), {
      probes: kazmaProbes({ outcome: 'inconclusive', integrity: null, detail: 'No definite answer from npm: 503' }),
    });

    expect(findingsOf(report, 'C8.inconclusive').map(placeOf)).toEqual([
      { rule: 'C8.inconclusive', severity: 'medium', file: 'skill_manifest.yaml', line: KAZMA_LINE },
    ]);
    expect([report.status, report.level, report.checks.C8]).toEqual(['inconclusive', 'none', 'inconclusive']);
  });

  it('fails rather than waits when something else already failed', () => {
    const report = certifyFiles(kazmaFiles(), {
      probes: kazmaProbes({ outcome: 'inconclusive', integrity: null }),
      ownerMatches: false,
    });

    expect(report.status).toBe('failed');
  });
});
