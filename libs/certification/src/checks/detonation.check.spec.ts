import type { DetonationEvent, DetonationEventKind, DetonationResult } from '../detonation-result';
import {
  AGENT_SKILL_FOLDER,
  agentSkillFiles,
  certifyFiles,
  findingsOf,
  placeOf,
} from '../testing/certification-fixtures';

const RAN: DetonationResult['ran'] = [
  { what: 'scripts/extract.py', file: 'scripts/extract.py', line: null, exit: 1, timedOut: false },
  { what: 'the shell block at SKILL.md:9', file: 'SKILL.md', line: 9, exit: 0, timedOut: false },
];

const event = (kind: DetonationEventKind, detail: string, program = 'scripts/extract.py'): DetonationEvent => ({
  kind,
  detail,
  program,
  evidence: `openat(AT_FDCWD</srv/skill>, "${detail}", O_RDONLY) = 3`,
});

const detonated = (events: DetonationEvent[], notRun: DetonationResult['notRun'] = []) =>
  certifyFiles(agentSkillFiles(), {
    rootFolder: AGENT_SKILL_FOLDER,
    detonation: { ran: RAN, events, notRun },
  });

describe('C16 detonation', () => {
  it('neither fails nor raises a skill that was not detonated, and says so', () => {
    const report = certifyFiles(agentSkillFiles(), { rootFolder: AGENT_SKILL_FOLDER });

    expect(report.checks.C16).toBe('skipped');
    expect(findingsOf(report, 'C16.skipped').map(placeOf)).toEqual([
      { rule: 'C16.skipped', severity: 'info', file: null, line: null },
    ]);
    expect(findingsOf(report, 'C16.skipped')[0]?.message).toContain('not detonated');
    expect(report.detonation).toBeNull();
    const clean = detonated([]);
    expect([clean.status, clean.level]).toEqual([report.status, report.level]);
  });

  it('passes a clean detonation, recording what ran as evidence', () => {
    const report = detonated([]);

    expect(report.checks.C16).toBe('pass');
    expect(report.detonation).toEqual({ ran: RAN, events: [], notRun: [] });
    expect(findingsOf(report, 'C16.ran')[0]?.message).toBe(
      'Detonated 2 programs in the sandbox with honeytokens planted: scripts/extract.py; the shell block at SKILL.md:9.',
    );
  });

  it.each<[DetonationEventKind, string]>([
    ['honeytoken-read', '/home/sandbox/.ssh/id_rsa'],
    ['connect', '1.2.3.4:443'],
    ['dns', 'exfil.attacker.example'],
    ['exec-shell', 'sh -c echo hi (started by python3)'],
    ['exec-downloader', 'curl -s https://collect.example'],
    ['persistence-write', '/home/sandbox/.bashrc (a shell start-up file)'],
  ])('fails the skill on %s, at the file and line of the program that did it', (kind, detail) => {
    const report = detonated([event(kind, detail)]);

    expect(report.status).toBe('failed');
    expect(report.checks.C16).toBe('fail');
    expect(findingsOf(report, `C16.${kind}`).map(placeOf)).toEqual([
      { rule: `C16.${kind}`, severity: 'critical', file: 'scripts/extract.py', line: null },
    ]);
    const message = findingsOf(report, `C16.${kind}`)[0]?.message ?? '';
    expect(message).toContain(detail);
    expect(message).toContain('traced: openat(');
    expect(report.requirementsMet.no_critical_vulnerabilities).toBe(false);
  });

  it('records, without failing, the connections of a skill that declares network_outbound, unless one carries a canary', () => {
    const files = agentSkillFiles({
      body: '# PDF tools\n\nRun `scripts/extract.py <file.pdf>`.\n',
    });
    const declared = (events: DetonationEvent[]) =>
      certifyFiles(
        {
          ...files,
          'SKILL.md': String(files['SKILL.md']).replace(
            'license: Apache-2.0',
            'license: Apache-2.0\nmetadata:\n  permissions: network_outbound',
          ),
        },
        { rootFolder: AGENT_SKILL_FOLDER, detonation: { ran: RAN, events, notRun: [] } },
      );
    const report = declared([event('dns', 'api.github.com'), event('connect', '140.82.112.6:443')]);
    expect(findingsOf(report, 'C16.dns').map((f) => f.severity)).toEqual(['low']);
    expect(findingsOf(report, 'C16.connect').map((f) => f.severity)).toEqual(['low']);
    expect(report.checks.C16).toBe('warn');
    const leaking = declared([event('dns', 'shc0123.x.example carrying the value of $GITHUB_TOKEN')]);
    expect(findingsOf(leaking, 'C16.dns').map((f) => f.severity)).toEqual(['critical']);
  });

  it('asks for review, without failing, of network use the static analysis saw in that file but the skill does not declare', () => {
    const files = {
      ...agentSkillFiles(),
      'scripts/extract.py': 'import urllib.request\n\nurllib.request.urlopen("https://registry.npmjs.org/")\n',
    };
    const report = certifyFiles(files, {
      rootFolder: AGENT_SKILL_FOLDER,
      detonation: { ran: RAN, events: [event('dns', 'registry.npmjs.org')], notRun: [] },
    });

    expect(findingsOf(report, 'C16.dns').map((f) => f.severity)).toEqual(['medium']);
    expect(findingsOf(report, 'C16.dns')[0]?.message).toContain(
      'the static analysis found this file using the network',
    );
    expect(report.status).toBe('certified');
    // From a shell block, where the static analysis records no capability, the same lookup fails.
    const hidden = certifyFiles(files, {
      rootFolder: AGENT_SKILL_FOLDER,
      detonation: {
        ran: RAN,
        events: [event('dns', 'registry.npmjs.org', 'the shell block at SKILL.md:9')],
        notRun: [],
      },
    });
    expect(findingsOf(hidden, 'C16.dns').map((f) => f.severity)).toEqual(['critical']);
  });

  it('places an event of a shell block at its line', () => {
    const report = detonated([event('honeytoken-read', '/home/sandbox/.netrc', 'the shell block at SKILL.md:9')]);

    expect(findingsOf(report, 'C16.honeytoken-read').map(placeOf)).toEqual([
      { rule: 'C16.honeytoken-read', severity: 'critical', file: 'SKILL.md', line: 9 },
    ]);
  });

  it('asks for review of a deletion outside the scratch folders without failing the skill', () => {
    const report = detonated([event('delete-outside', '/srv/skill/SKILL.md')]);

    expect(report.checks.C16).toBe('warn');
    expect(findingsOf(report, 'C16.delete-outside').map((f) => f.severity)).toEqual(['medium']);
    expect(report.status).not.toBe('failed');
    expect(report.level).not.toBe('standard');
  });

  it('lists what could not run in one info finding', () => {
    const notRun = [{ what: 'SKILL.md:12 pip install requests', reason: 'a package install' }];
    const report = detonated([], notRun);

    expect(report.checks.C16).toBe('pass');
    expect(findingsOf(report, 'C16.not-run')[0]?.message).toBe(
      'Not detonated: SKILL.md:12 pip install requests (a package install).',
    );
  });
});
