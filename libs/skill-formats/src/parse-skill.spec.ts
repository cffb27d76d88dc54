import { parseSkill } from './parse-skill';
import { MAX_MANIFEST_BYTES } from './safe-yaml';
import { skillFiles } from './testing/skill-files';

describe('parseSkill', () => {
  it('refuses a bundle with two manifests', () => {
    const result = parseSkill(skillFiles({ 'skill_manifest.yaml': 'name: x', 'SKILL.md': '---\nname: x\n---' }));
    expect(result.skill).toBeNull();
    expect(result.problems).toEqual([
      {
        path: '.',
        message:
          'More than one skill manifest at the bundle root: skill_manifest.yaml (kazma), SKILL.md (agent-skill). A bundle holds exactly one skill',
        severity: 'error',
      },
    ]);
  });

  it('refuses a bundle without a manifest', () => {
    const result = parseSkill(skillFiles({ 'main.py': 'print(1)' }));
    expect(result.skill).toBeNull();
    expect(result.problems).toEqual([
      { path: '.', message: expect.stringMatching(/^No skill manifest .* Found: main\.py$/), severity: 'error' },
    ]);
  });

  it.each([
    ['skill_manifest.yaml', 'kazma'],
    ['SKILL.md', 'agent-skill'],
    ['skill.yaml', 'swarmkit'],
  ])('refuses an oversized %s before parsing it', (path) => {
    const padding = '#'.repeat(MAX_MANIFEST_BYTES + 1);
    const content = path === 'skill.yaml' ? `apiVersion: swarmkit/v1\nkind: Skill\n${padding}` : padding;
    const result = parseSkill(skillFiles({ [path]: content }), { namespace: 'acme', version: '1.0.0' });
    expect(result.skill).toBeNull();
    expect(result.problems).toContainEqual({
      path,
      message: expect.stringMatching(
        new RegExp(`^Manifest is \\d+ bytes; at most ${MAX_MANIFEST_BYTES} are accepted$`),
      ),
      severity: 'error',
    });
  });

  it('refuses an alias bomb in any format', () => {
    const bomb =
      'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n';
    const result = parseSkill(skillFiles({ 'skill_manifest.yaml': bomb }));
    expect(result.problems).toEqual([
      { path: 'skill_manifest.yaml', message: expect.stringMatching(/^YAML aliases refused/), severity: 'error' },
    ]);
  });

  it('refuses a custom tag', () => {
    const result = parseSkill(skillFiles({ 'skill_manifest.yaml': 'name: !!python/object/apply:os.system ["id"]\n' }));
    expect(result.problems).toEqual([
      {
        path: 'skill_manifest.yaml',
        message: expect.stringMatching(/^YAML tag not allowed .*\(line 1\)$/),
        severity: 'error',
      },
    ]);
  });

  it('reports many problems at once, with field paths and lines', () => {
    const manifest = [
      'name: Bad Name',
      'version: 1.0',
      'author: [someone]',
      'license: MIT',
      'mcp_servers:',
      '  - name: s',
      '    type: carrier-pigeon',
      'permissions: [telepathy]',
    ].join('\n');
    const result = parseSkill(skillFiles({ 'skill_manifest.yaml': manifest }));
    expect(result.skill).toBeNull();
    expect(result.problems).toEqual([
      {
        path: 'skill_manifest.yaml#name',
        message:
          'name must be kebab-case: a lowercase letter, then lowercase letters, digits or "-", got "Bad Name" (line 1)',
        severity: 'error',
      },
      {
        path: 'skill_manifest.yaml#version',
        message: 'version must be a string, got a number (1) (line 2)',
        severity: 'error',
      },
      { path: 'skill_manifest.yaml#description', message: 'description is required', severity: 'error' },
      {
        path: 'skill_manifest.yaml#author',
        message: 'author must be a string, got a list (line 3)',
        severity: 'error',
      },
      {
        path: 'skill_manifest.yaml#mcp_servers[0].type',
        message:
          'mcp_servers[0].type must be one of stdio, sse, streamable-http, streamable_http, http; got "carrier-pigeon" (line 7)',
        severity: 'error',
      },
      {
        path: 'skill_manifest.yaml#permissions',
        message: 'Unknown permission "telepathy" (Kazma takes 5 points off its score for each) (line 8)',
        severity: 'warning',
      },
    ]);
  });

  it('returns the skill along with its warnings', () => {
    const manifest = 'name: ok\nversion: 1.0.0\ndescription: Fine skill here.\nauthor: Me\nlicense: Custom-1.0\n';
    const result = parseSkill(skillFiles({ 'skill_manifest.yaml': manifest }));
    expect(result.skill?.name).toBe('ok');
    expect(result.problems.map((problem) => problem.severity)).toEqual(['warning']);
  });
});
