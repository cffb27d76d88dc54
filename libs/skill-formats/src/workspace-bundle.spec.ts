import { workspaceSkills } from './workspace-bundle';

const file = (path: string, content: string) => ({ path, content: Buffer.from(content, 'utf8') });
const WORKSPACE = file('workspace.yaml', 'apiVersion: swarmkit/v1\nkind: Workspace\nmetadata:\n  id: team\n');
const skill = (path: string) => file(path, `apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: ${path}\n`);

describe('workspaceSkills', () => {
  it("splits SwarmKit's layout into one bundle per skill, its file at the root beside the workspace", () => {
    const split = workspaceSkills([
      WORKSPACE,
      file('server.py', 'print(1)\n'),
      skill('skills/a.yaml'),
      skill('skills/g/b.yml'),
    ]);

    expect(split?.ok).toBe(true);
    if (!split?.ok) return;
    expect(split.skills.map((one) => [one.skillPath, one.files.map((f) => f.path)])).toEqual([
      ['skills/a.yaml', ['a.yaml', 'workspace.yaml', 'server.py', 'skills/g/b.yml']],
      ['skills/g/b.yml', ['b.yml', 'workspace.yaml', 'server.py', 'skills/a.yaml']],
    ]);
  });

  it.each([
    ['a bundle with its skill at the root', [skill('skill.yaml'), WORKSPACE, skill('skills/a.yaml')]],
    ['a workspace with no skill under skills/', [WORKSPACE, skill('other/a.yaml')]],
    ['skills under skills/ with no workspace', [skill('skills/a.yaml'), file('workspace.yaml', 'mcp_servers: []\n')]],
  ])('leaves %s alone', (_label, files) => {
    expect(workspaceSkills(files)).toBeNull();
  });

  it('refuses two skills that would land on one root file name', () => {
    expect(workspaceSkills([WORKSPACE, skill('skills/a.yaml'), skill('skills/x/a.yaml')])).toEqual({
      ok: false,
      problem: expect.objectContaining({ path: 'skills/x/a.yaml', severity: 'error' }),
    });
  });
});
