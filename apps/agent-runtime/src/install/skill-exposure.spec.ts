import type { CertificateStatement, CertifiedServer } from '@skillhub/signing';
import type { McpServerRef, NormalizedSkill } from '@skillhub/skill-formats';
import type { SecretValue } from '../config/runtime-secrets';
import { type ExposureContext, skillExposure, skillServers } from './skill-exposure';
import type { VerifiedSkill } from './verified-skill';

const INTEGRITY = `sha512-${Buffer.alloc(64, 1).toString('base64')}`;
const TOOLS = { forecast: 'a'.repeat(64) };

const certified = (overrides: Partial<CertifiedServer> = {}): CertifiedServer => ({
  name: 'weather',
  transport: 'stdio',
  launch: 'npm',
  argv: ['npx', '-y', 'weather-mcp@1.0.0'],
  url: null,
  package: { registry: 'npm', name: 'weather-mcp', version: '1.0.0', integrity: INTEGRITY },
  file: null,
  env: {},
  cwd: null,
  tools: TOOLS,
  ...overrides,
});

const skill = (
  servers: CertifiedServer[],
  more: { permissions?: string[]; codeCapabilities?: string[]; declared?: string[] } = {},
): VerifiedSkill => ({
  ref: 'acme/weather',
  version: '1.2.0',
  path: '/state/skills/weather',
  skill: {
    mcpServers: (more.declared ?? servers.map((s) => s.name)).map((name) => ({ name }) as McpServerRef),
  } as NormalizedSkill,
  statement: {
    servers,
    permissions: more.permissions ?? [],
    codeCapabilities: more.codeCapabilities ?? [],
    files: { 'SKILL.md': 'b'.repeat(64) },
  } as unknown as CertificateStatement,
});

const context = (
  grants: ExposureContext['grants'] = {},
  secrets: Record<string, SecretValue> = {},
): ExposureContext => ({ grants, secrets: new Map(Object.entries(secrets)), callTimeoutMs: 60_000 });

describe('skillServers', () => {
  it('starts what the certificate says, vouched for by its pins, and nothing the manifest alone declares', () => {
    const { servers, refused } = skillServers(skill([certified()], { declared: ['weather', 'unpinned'] }), context());

    expect(servers).toEqual([
      expect.objectContaining({
        name: 'weather',
        launch: { kind: 'npm', package: { name: 'weather-mcp', version: '1.0.0', integrity: INTEGRITY }, args: [] },
        network: null,
        skillDir: null,
        certifiedFiles: { 'SKILL.md': 'b'.repeat(64) },
        certification: { certifiedAs: 'acme/weather@1.2.0', tools: TOOLS },
      }),
    ]);
    expect(refused).toEqual([
      {
        server: 'unpinned',
        reason:
          'not in the certificate of acme/weather@1.2.0 (its launch could not be verified and pinned at certification), so it is never started from the skill; if it is a program you provide, define it under mcp_servers in the runtime config',
      },
    ]);
  });

  it('gives no network unless the skill declares it, its code is proven to use it, or the operator grants it', () => {
    const network = (more: Parameters<typeof skill>[1], grants: ExposureContext['grants'] = {}) =>
      skillServers(skill([certified()], more), context(grants)).servers[0]?.network;
    const anyPublicHost = { domains: null };

    expect(network({})).toBeNull();
    expect(network({ permissions: ['network_outbound'] })).toEqual(anyPublicHost);
    expect(network({ codeCapabilities: ['network'] })).toEqual(anyPublicHost);
    expect(network({}, { 'acme/weather': { network: true, secrets: [], scopes: [] } })).toEqual(anyPublicHost);
    expect(network({}, { 'acme/other': { network: true, secrets: [], scopes: [] } })).toBeNull();
  });

  it('narrows a declared network to the domains the operator lists, and never widens it past them', () => {
    const grant = { network: { domains: ['api.weather.example'] }, secrets: [], scopes: [] };
    const servers = (more: Parameters<typeof skill>[1]) =>
      skillServers(skill([certified()], more), context({ 'acme/weather': grant })).servers;

    expect(servers({ permissions: ['network_outbound'] })[0]?.network).toEqual({ domains: ['api.weather.example'] });
    expect(servers({})[0]?.network).toEqual({ domains: ['api.weather.example'] });
  });

  it('fills ${NAME} only from a secret granted to this skill', () => {
    const server = certified({ env: { API_KEY: '${WEATHER_TOKEN}' } });
    const secrets = { WEATHER_TOKEN: { ok: true as const, value: 'tok-123456' } };

    const granted = skillServers(
      skill([server]),
      context({ 'acme/weather': { network: false, secrets: ['WEATHER_TOKEN'], scopes: [] } }, secrets),
    );
    const notGranted = skillServers(skill([server]), context({}, secrets));
    const undefinedSecret = skillServers(skill([server]), context());
    const unreadable = skillServers(
      skill([server]),
      context(
        { 'acme/weather': { network: false, secrets: ['WEATHER_TOKEN'], scopes: [] } },
        { WEATHER_TOKEN: { ok: false, problem: 'the environment variable HOST_TOKEN is not set' } },
      ),
    );

    expect(granted.servers[0]).toMatchObject({ env: { API_KEY: 'tok-123456' }, secrets: ['tok-123456'] });
    expect(notGranted.refused[0]?.reason).toBe(
      'it needs the secret WEATHER_TOKEN: grant it in the runtime config (grants: { "acme/weather": { secrets: [WEATHER_TOKEN] } })',
    );
    expect(undefinedSecret.refused[0]?.reason).toContain('define it (secrets: { WEATHER_TOKEN: { env: <VARIABLE> } }');
    expect(unreadable.refused[0]?.reason).toBe(
      'it needs the secret WEATHER_TOKEN, which cannot be read: the environment variable HOST_TOKEN is not set',
    );
  });

  it('honours a working folder inside the skill, and refuses one outside it', () => {
    const inside = skillServers(skill([certified({ cwd: './data/' })]), context());
    const outside = skillServers(skill([certified({ cwd: '../other' })]), context());

    expect(inside.servers[0]).toMatchObject({ cwd: 'data', skillDir: '/state/skills/weather' });
    expect(outside.refused[0]?.reason).toBe('its working folder "../other" is not inside the skill\'s folder');
  });

  it('refuses what the certificate cannot start here', () => {
    const { refused } = skillServers(
      skill([
        certified({
          name: 'py',
          launch: 'pypi',
          package: { registry: 'pypi', name: 'w', version: '1.0.0', integrity: 'x' },
        }),
      ]),
      context(),
    );
    expect(refused[0]).toMatchObject({ server: 'py', reason: expect.stringContaining('records no lock of wheels') });
  });

  it('gives two skills with the same launch the same key, and a server that uses its skill folder its own', () => {
    const other = (s: VerifiedSkill): VerifiedSkill => ({ ...s, ref: 'acme/trip', path: '/state/skills/trip' });
    const shared = [skill([certified()]), other(skill([certified()]))].map(
      (s) => skillServers(s, context()).servers[0]!.key,
    );
    const file = certified({ launch: 'bundle-file', argv: ['node', 'server.js'], package: null, file: 'server.js' });
    const own = [skill([file]), other(skill([file]))].map((s) => skillServers(s, context()).servers[0]!.key);

    expect(shared[0]).toBe(shared[1]);
    expect(own[0]).not.toBe(own[1]);
  });
});

describe('skillExposure of the SwarmKit skills the runtime does not serve', () => {
  it.each([
    ['command', /command pack.*does not run command packs yet/],
    ['agent', /another agent.*serves no agents/],
  ])('says why a %s skill offers nothing', (type, why) => {
    const swarmkit = skill([]);
    swarmkit.skill = {
      ...swarmkit.skill,
      format: 'swarmkit',
      name: 'ask',
      scopes: [],
      manifest: { implementation: { type } },
    } as NormalizedSkill;
    const exposure = skillExposure(swarmkit, context());
    expect(exposure.withheld).toMatch(why);
    expect([exposure.tools, exposure.prompts, exposure.servers]).toEqual([[], [], []]);
  });
});
