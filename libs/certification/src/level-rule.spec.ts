import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newFinding } from './finding';
import { decideLevel, decideStatus, LEVEL_RULE, type LevelFacts } from './level-rule';
import { REQUIREMENT_NAMES, type RequirementName } from './report';

const allMet = (): Record<RequirementName, boolean> =>
  Object.fromEntries(REQUIREMENT_NAMES.map((name) => [name, true])) as Record<RequirementName, boolean>;

const facts = (o: Partial<LevelFacts> & { unmet?: RequirementName[] } = {}): LevelFacts => {
  const requirements = allMet();
  for (const name of o.unmet ?? []) requirements[name] = false;
  return {
    requirements,
    score: o.score ?? 100,
    format: o.format === undefined ? 'kazma' : o.format,
    findings: o.findings ?? [],
    hasCode: o.hasCode ?? true,
  };
};

describe('the level rule', () => {
  it('is documented in the file header with the same words it is served with', () => {
    const source = readFileSync(join(__dirname, 'level-rule.ts'), 'utf8');
    const header = (/^\/\*\*\n([\s\S]*?)\n \*\//.exec(source)?.[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/^ \* ?/, ''))
      .join('\n');

    expect(header).toBe(
      `The level rule (also served as LEVEL_RULE; a spec keeps the two texts equal):\n\n${LEVEL_RULE}`,
    );
  });

  it.each([
    ['everything met, score 100', facts(), 'standard'],
    ['score 89', facts({ score: 89 }), 'basic'],
    ['score 79', facts({ score: 79 }), 'none'],
    ['a medium finding left', facts({ findings: [mediumFinding()] }), 'basic'],
    ['unsigned Kazma skill', facts({ unmet: ['signature_valid'] }), 'basic'],
    [
      'SwarmKit without Kazma signing',
      facts({ format: 'swarmkit', unmet: ['checksum_valid', 'signature_valid'] }),
      'standard',
    ],
    ['unknown format without signing', facts({ format: null, unmet: ['checksum_valid'] }), 'basic'],
    ['packages not pinned', facts({ unmet: ['packages_pinned'] }), 'basic'],
    ['description incomplete', facts({ unmet: ['description_complete'] }), 'basic'],
    ['no license', facts({ unmet: ['license_present'] }), 'none'],
    ['SwarmKit without a licence', facts({ format: 'swarmkit', unmet: ['license_present'] }), 'standard'],
    ['Agent Skill without a licence', facts({ format: 'agent-skill', unmet: ['license_present'] }), 'standard'],
    [
      'Kazma skill of instructions alone, nothing to sign',
      facts({ hasCode: false, unmet: ['checksum_valid', 'signature_valid'] }),
      'standard',
    ],
    ['namespace not owned', facts({ unmet: ['namespace_owned'] }), 'none'],
    ['a file not parsed', facts({ unmet: ['code_analysed'] }), 'basic'],
    ['an undeclared capability', facts({ unmet: ['capabilities_declared'] }), 'basic'],
    ['runs programs, declared', facts({ unmet: ['no_dangerous_capabilities'] }), 'basic'],
    ['a server not pinned', facts({ unmet: ['launch_specs_pinned'] }), 'basic'],
    ['no live tool pins', facts({ unmet: ['live_tools_recorded'] }), 'basic'],
  ])('%s → %s', (_, levelFacts, level) => {
    expect(decideLevel(levelFacts)).toBe(level);
  });

  it('is stricter than Kazma: Kazma calls "3 of 6 and score 80" basic, the hub does not', () => {
    const kazmaBasic = facts({ score: 80, unmet: ['entry_point_exists', 'description_complete', 'license_present'] });

    expect(decideLevel(kazmaBasic)).toBe('none');
  });

  it.each([
    [{ failed: true, undecided: true, level: 'standard' }, 'failed'],
    [{ failed: false, undecided: true, level: 'standard' }, 'inconclusive'],
    [{ failed: false, undecided: false, level: 'none' }, 'failed'],
    [{ failed: false, undecided: false, level: 'basic' }, 'certified'],
  ] as const)('status of %j is %s', (statusFacts, status) => {
    expect(decideStatus(statusFacts)).toBe(status);
  });
});

function mediumFinding() {
  return newFinding({ check: 'C8', code: 'deprecated', severity: 'medium', message: 'm', fixHint: 'h' });
}
