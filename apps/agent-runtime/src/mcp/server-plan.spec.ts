import { DEFAULT_AUDIT_POLICY, readCallPolicy } from '@skillhub/gate';
import type { SkillExposure, SkillServer } from '../install/skill-exposure';
import type { SkillToolSpec } from '../install/skill-tools';
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
  network: null,
  skillDir: null,
  certifiedFiles: {},
  certification: { certifiedAs, tools: {} },
});
const exposure = (certifiedAs: string, ...servers: Array<[string, string]>): SkillExposure => ({
  certifiedAs,
  ref: certifiedAs.replace(/@.*$/, ''),
  name: certifiedAs.replace(/^.*\/|@.*$/g, ''),
  description: 'A skill.',
  servers: servers.map(([name, key]) => server(name, key, certifiedAs)),
  offersServers: true,
  tools: [],
  prompts: [],
  composes: null,
  operatorTier: null,
  refused: [],
  refusedTools: [],
  withheld: null,
});
/** A SwarmKit mcp_tool skill: its one tool, on its own server (`[name, key]`) or on one it only names. */
const swarmkit = (certifiedAs: string, tool: string, on: string | [string, string]): SkillExposure => {
  const own = Array.isArray(on);
  const base = own ? exposure(certifiedAs, on) : exposure(certifiedAs);
  const spec: SkillToolSpec = {
    certifiedAs,
    name: base.name,
    title: base.name,
    description: base.description,
    server: own ? on[0] : on,
    ownServer: own,
    review: null,
    tool,
    governance: { tiers: [], effect: null, presets: {} },
    call: readCallPolicy(undefined, 60_000),
    audit: DEFAULT_AUDIT_POLICY,
    outputs: null,
  };
  return { ...base, offersServers: false, tools: [spec] };
};
const certifiedBy = (...skills: string[]): ServerCertification[] =>
  skills.map((certifiedAs) => ({ certifiedAs, tools: {} }));

/** Every skill added in order, as the runtime does. */
const planServers = (operator: ReturnType<typeof mcpServerConfigSchema.parse>[], exposures: SkillExposure[]) => {
  const planner = new ServerPlanner(operator);
  const additions = exposures.map((exposure) => planner.add(exposure));
  return {
    skill: additions.flatMap((a) => a.added),
    tools: additions.flatMap((a) => a.tools),
    refusedTools: additions.flatMap((a) => a.refusedTools),
    notes: additions.flatMap((a) => a.notes),
  };
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
      "the server files of acme/a@1.0.0 is served as files-2: the operator's server files holds that name",
    );
    expect(new Set(plan.skill.map((s) => s.name)).size).toBe(3);
  });

  it("offers a SwarmKit skill's one tool under the skill's own name, on the server it shares with other skills", () => {
    const plan = planServers(
      [],
      [
        swarmkit('acme/read-notes@1.0.0', 'read_text_file', ['files', 'k']),
        swarmkit('acme/write-notes@1.0.0', 'write_file', ['files', 'k']),
      ],
    );

    expect(plan.skill.map((s) => [s.name, s.governance.offered])).toEqual([['files', false]]);
    expect(plan.tools.map((t) => [t.namespace, t.tool, t.upstream])).toEqual([
      ['read-notes', 'read_text_file', 'files'],
      ['write-notes', 'write_file', 'files'],
    ]);
  });

  it("offers a whole server once a skill that offers whole servers names it, with that skill's tier", () => {
    const kazma = {
      ...exposure('acme/notes@1.0.0', ['files', 'k']),
      operatorTier: { tier: 'readonly' as const, setBy: 'operator' as const, where: 'grants' },
    };
    const plan = planServers([], [swarmkit('acme/read-notes@1.0.0', 'read_text_file', ['files', 'k']), kazma]);

    expect(plan.skill).toHaveLength(1);
    expect(plan.skill[0]!.governance).toEqual({ offered: true, tiers: [kazma.operatorTier] });
  });

  it('keeps skill and server names apart, and says which name a skill got', () => {
    const operator = [mcpServerConfigSchema.parse({ name: 'search', transport: 'stdio', command: ['node', 's.js'] })];

    const plan = planServers(operator, [
      swarmkit('acme/search@1.0.0', 'find_notes', 'search'),
      swarmkit('other/search@1.0.0', 'find_notes', 'search'),
    ]);

    expect(plan.tools.map((t) => [t.namespace, t.upstream])).toEqual([
      ['search-2', 'search'],
      ['search-3', 'search'],
    ]);
    expect(plan.notes).toEqual([
      "the tools of acme/search@1.0.0 are offered as mcp__search-2__<tool>: the operator's server search holds the name search",
      "the tools of other/search@1.0.0 are offered as mcp__search-3__<tool>: the operator's server search holds the name search",
    ]);
  });

  it('refuses a tool whose server neither its bundle defines nor the operator runs', () => {
    const plan = planServers([], [swarmkit('acme/web@1.0.0', 'brave_web_search', 'brave-search')]);

    expect(plan.tools).toEqual([]);
    expect(plan.refusedTools).toEqual([
      {
        tool: 'brave_web_search',
        reason: 'its server brave-search is neither defined in its bundle nor run by the runtime config (mcp_servers)',
      },
    ]);
  });
});
