import type { SkillExposure, SkillServer } from '../install/skill-exposure';
import { mcpServerConfigSchema } from './mcp-server.config';
import { ServerPlanner } from './server-plan';
import type { ServerCertification } from './upstream-server';

const server = (name: string, key: string, certifiedAs: string): SkillServer => ({
  name,
  key,
  launch: { kind: 'npm', package: { name: 'pkg', version: '1.0.0', integrity: 'x' }, args: [] },
  env: {},
  secrets: [],
  cwd: null,
  network: false,
  skillDir: null,
  certification: { certifiedAs, tools: {} },
});
const exposure = (certifiedAs: string, ...servers: Array<[string, string]>): SkillExposure => ({
  certifiedAs,
  servers: servers.map(([name, key]) => server(name, key, certifiedAs)),
  prompts: [],
  refused: [],
});
const certifiedBy = (...skills: string[]): ServerCertification[] =>
  skills.map((certifiedAs) => ({ certifiedAs, tools: {} }));

/** Every skill added in order, as the runtime does. */
const planServers = (operator: ReturnType<typeof mcpServerConfigSchema.parse>[], exposures: SkillExposure[]) => {
  const planner = new ServerPlanner(operator);
  const additions = exposures.map((exposure) => planner.add(exposure));
  return { skill: additions.flatMap((a) => a.added), notes: additions.flatMap((a) => a.notes) };
};

describe('ServerPlanner', () => {
  it('starts a server several skills name with the same launch once, vouched for by each certificate', () => {
    const plan = planServers(
      [],
      [
        exposure('acme/a@1.0.0', ['memory', 'k']),
        exposure('acme/b@1.0.0', ['memory', 'k']),
        exposure('acme/c@2.0.0', ['memory', 'k']),
      ],
    );

    expect(plan.skill).toHaveLength(1);
    expect(plan.skill[0]).toMatchObject({
      name: 'memory',
      certifications: certifiedBy('acme/a@1.0.0', 'acme/b@1.0.0', 'acme/c@2.0.0'),
    });
    expect(plan.notes).toEqual([
      'acme/b@1.0.0 names the server memory with the same certified launch as acme/a@1.0.0: it is started once, as memory',
      'acme/c@2.0.0 names the server memory with the same certified launch as acme/a@1.0.0: it is started once, as memory',
    ]);
  });

  it('serves a server whose name another server holds under a free name, and says so', () => {
    const operator = [mcpServerConfigSchema.parse({ name: 'files', transport: 'stdio', command: ['node', 'fs.js'] })];

    const plan = planServers(operator, [
      exposure('acme/a@1.0.0', ['files', 'k1']),
      exposure('acme/b@1.0.0', ['files', 'k2'], ['files-2', 'k3']),
    ]);

    expect(plan.skill.map((s) => s.name)).toEqual(['files-2', 'files-3', 'files-2-2']);
    expect(plan.notes[0]).toBe(
      "the server files of acme/a@1.0.0 is served as files-2: the operator's server files holds that name with another launch",
    );
    expect(new Set(plan.skill.map((s) => s.name)).size).toBe(3);
  });
});
