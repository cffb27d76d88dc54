import { detectFormat } from './detect-format';
import { MAX_MANIFEST_BYTES } from './safe-yaml';
import { skillFiles } from './testing/skill-files';

const SWARMKIT = 'apiVersion: swarmkit/v1\nkind: Skill\nmetadata: {id: x}\n';

function detected(files: Record<string, string | Buffer>): string {
  const detection = detectFormat(skillFiles(files));
  return detection.ok ? `${detection.format} ${detection.manifest.path}` : detection.problem.message;
}

describe('detectFormat', () => {
  it.each<[string, Record<string, string>, string]>([
    ['a Kazma manifest', { 'skill_manifest.yaml': 'name: x', 'main.py': '' }, 'kazma skill_manifest.yaml'],
    ['an Agent Skill', { 'SKILL.md': '---\n---', 'scripts/run.py': '' }, 'agent-skill SKILL.md'],
    ['a SwarmKit skill under any name', { 'web-search.yml': SWARMKIT }, 'swarmkit web-search.yml'],
    [
      'a SwarmKit skill beside its workspace.yaml',
      { 'skill.yaml': SWARMKIT, 'workspace.yaml': 'apiVersion: swarmkit/v1\nkind: Workspace\n' },
      'swarmkit skill.yaml',
    ],
    ['CRLF line ends', { 's.yaml': SWARMKIT.replace(/\n/g, '\r\n') }, 'swarmkit s.yaml'],
    ['quoted values and comments', { 's.yaml': `apiVersion: "swarmkit/v1"  # v1\nkind: 'Skill'\n` }, 'swarmkit s.yaml'],
  ])('detects %s', (_, files, expected) => {
    expect(detected(files)).toBe(expected);
  });

  it('ignores manifests below the root', () => {
    expect(detected({ 'nested/SKILL.md': '---\n---', 'README.md': '' })).toMatch(
      /^No skill manifest at the bundle root: .* Found: README\.md$/,
    );
  });

  it.each<[string, Record<string, string>]>([
    ['nested keys', { 'a.yaml': 'spec:\n  apiVersion: swarmkit/v1\n  kind: Skill\n' }],
    ['another kind', { 'a.yaml': 'apiVersion: swarmkit/v1\nkind: Topology\n' }],
    ['another API version', { 'a.yaml': 'apiVersion: swarmkit/v2\nkind: Skill\n' }],
    ['another extension', { 'a.json': SWARMKIT }],
    ['a lowercase skill.md', { 'skill.md': '---\n---' }],
  ])('does not take a file with %s for a skill', (_, files) => {
    expect(detected(files)).toMatch(/^No skill manifest/);
  });

  it('says which files were found when there is no manifest', () => {
    expect(detected({ 'main.py': '', 'README.md': '', 'lib/util.py': '' })).toBe(
      'No skill manifest at the bundle root: expected skill_manifest.yaml (Kazma), SKILL.md (Agent Skill) or a .yaml/.yml file ' +
        'with "apiVersion: swarmkit/v1" and "kind: Skill" (SwarmKit). Found: README.md, main.py',
    );
    expect(detected({})).toMatch(/Found: no files$/);
  });

  it('lists at most 20 root files', () => {
    const files = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, '']));
    expect(detected(files)).toMatch(/f19\.txt and 5 more$/);
  });

  it('refuses two manifests, naming both', () => {
    const detection = detectFormat(skillFiles({ 'skill_manifest.yaml': 'name: x', 'SKILL.md': '---\n---' }));
    expect(detection).toEqual({
      ok: false,
      problem: {
        path: '.',
        message:
          'More than one skill manifest at the bundle root: skill_manifest.yaml (kazma), SKILL.md (agent-skill). A bundle holds exactly one skill',
        severity: 'error',
      },
    });
  });

  it('refuses two SwarmKit skills', () => {
    expect(detected({ 'a.yaml': SWARMKIT, 'b.yml': SWARMKIT })).toMatch(/a\.yaml \(swarmkit\), b\.yml \(swarmkit\)/);
  });

  it('still detects an oversized SwarmKit manifest, for its parser to refuse', () => {
    expect(detected({ 'big.yaml': Buffer.from(SWARMKIT + '#'.repeat(MAX_MANIFEST_BYTES)) })).toBe('swarmkit big.yaml');
  });
});
