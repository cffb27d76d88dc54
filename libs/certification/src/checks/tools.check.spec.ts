import { toolDefinitionHash } from '@skillhub/gate';
import { certify } from '../certify';
import type { LiveServerProbe } from '../live-server';
import {
  certificationInput,
  findingsOf,
  kazmaFiles,
  kazmaLiveServers,
  kazmaProbes,
  listedServer,
  placeOf,
  probe,
} from '../testing/certification-fixtures';

describe('C13 tools', () => {
  it("pins the hash the runtime computes for each declared tool's name and description", () => {
    const report = certify(
      certificationInput(kazmaFiles(), { probes: kazmaProbes(), liveServers: kazmaLiveServers() }),
    );

    expect(report.toolHashes).toEqual({
      get_forecast: toolDefinitionHash({
        name: 'get_forecast',
        description: 'Returns the forecast for a city for the next few days.',
      }),
    });
    expect(report.checks.C13).toBe('pass');
  });

  it('keeps a tool named __proto__ as a key like any other', () => {
    const input = certificationInput(kazmaFiles(), { probes: kazmaProbes() });
    const skill = { ...input.skill!, tools: [{ name: '__proto__', description: 'odd but allowed' }] };

    const report = certify({ ...input, skill });

    expect(Object.keys(report.toolHashes)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(report.toolHashes)).toBe(Object.prototype);
  });

  it('fails when two tools share a name, since the runtime could not tell which one is pinned', () => {
    const input = certificationInput(kazmaFiles(), { probes: kazmaProbes() });
    const tool = { name: 'get', description: 'Gets.' };
    const report = certify({ ...input, skill: { ...input.skill!, tools: [tool, { ...tool, description: 'Other.' }] } });

    expect(findingsOf(report, 'C13.check-error')[0]?.message).toContain('"get" is declared twice');
    expect(report.status).toBe('failed');
  });
});

describe('C13 live tools', () => {
  const withLive = (liveServers: LiveServerProbe[], manifest: Record<string, unknown> = {}) =>
    certify(certificationInput(kazmaFiles({ manifest }), { probes: kazmaProbes(), liveServers }));

  it('pins every tool the server listed in the sandbox, annotations included, and records them per server', () => {
    const report = withLive(kazmaLiveServers());
    const [forecast] = kazmaLiveServers()[0]!.tools;

    expect(report.servers.map((server) => [server.name, server.tools])).toEqual([
      ['weather', { forecast: toolDefinitionHash(forecast!) }],
    ]);
    expect(toolDefinitionHash(forecast!)).not.toBe(toolDefinitionHash({ ...forecast!, annotations: undefined }));
    expect([report.checks.C13, report.requirementsMet.live_tools_recorded]).toEqual(['pass', true]);
  });

  it('pins the tools of a server that could not list its resources, and keeps the skill from standard', () => {
    const [listed] = kazmaLiveServers();
    const partial: LiveServerProbe = {
      ...listed!,
      detail: 'its resources/list failed (connect ECONNREFUSED 127.0.0.1:5432); its tools are recorded',
      unlisted: ['resources'],
    };
    const report = withLive([partial]);

    expect(findingsOf(report, 'C13.definitions-not-listed').map(placeOf)).toEqual([
      { rule: 'C13.definitions-not-listed', severity: 'medium', file: 'skill_manifest.yaml', line: expect.any(Number) },
    ]);
    expect(findingsOf(report, 'C13.definitions-not-listed')[0]?.message).toContain('did not list its resources');
    expect(report.level).toBe('basic');
    expect(Object.keys(report.servers[0]?.tools ?? {})).toEqual(listed!.tools.map((tool) => tool.name));
  });

  it('says why a server was not recorded, from what the sandbox saw, and keeps the skill from standard', () => {
    const failed: LiveServerProbe = {
      ...listedServer('weather', []),
      outcome: 'failed',
      detail: 'it exited with code 1 before listing its tools; it looks like it needs WEATHER_API_KEY',
    };
    const report = withLive([failed]);

    expect(findingsOf(report, 'C13.tools-not-recorded').map(placeOf)).toEqual([
      { rule: 'C13.tools-not-recorded', severity: 'medium', file: 'skill_manifest.yaml', line: expect.any(Number) },
    ]);
    expect(findingsOf(report, 'C13.tools-not-recorded')[0]?.message).toContain('needs WEATHER_API_KEY');
    expect([report.level, report.requirementsMet.live_tools_recorded, report.servers[0]?.tools]).toEqual([
      'basic',
      false,
      null,
    ]);
  });

  it.each([
    [
      { name: 'fetch', transport: 'stdio', command: ['uvx', 'mcp-server-fetch==2025.4.7'] },
      'the worker did not install and start it',
    ],
    [
      { name: 'docs', transport: 'streamable-http', url: 'https://mcp.example.com/mcp' },
      'the worker did not list the remote server',
    ],
  ])('explains that %j has no live pins when the worker did not list it', (server, why) => {
    const input = certificationInput(kazmaFiles({ manifest: { mcp_servers: [server] } }), {
      probes: 'command' in server ? [probe({ registry: 'pypi', name: 'mcp-server-fetch', version: '2025.4.7' })] : [],
    });
    const report = certify(input);

    expect(findingsOf(report, 'C13.tools-not-recorded')[0]?.message).toContain(why);
    expect(report.requirementsMet.live_tools_recorded).toBe(false);
  });

  it('fails a server that lists one tool name twice: no single definition could be pinned', () => {
    const report = withLive([
      listedServer('weather', [{ name: 'forecast' }, { name: 'forecast', description: 'other' }]),
    ]);

    expect(findingsOf(report, 'C13.duplicate-tool').map((finding) => finding.severity)).toEqual(['high']);
    expect(report.status).toBe('failed');
  });
});
