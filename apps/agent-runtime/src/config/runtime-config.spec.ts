import { join } from 'node:path';
import { loadRuntimeConfig, runtimeConfigSchema } from './runtime-config';

const issues = (config: unknown): string[] => {
  const result = runtimeConfigSchema.safeParse(config);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('the runtime configuration', () => {
  it('defaults to the sandbox on, the public npm registry, and nothing granted', () => {
    expect(runtimeConfigSchema.parse({})).toMatchObject({
      sandbox: 'on',
      npm_registry: 'https://registry.npmjs.org',
      sandbox_limits: { memory_mib: 1024, cpu_seconds: 3600 },
      secrets: {},
      grants: {},
    });
  });

  it.each([
    ['off', 'off'],
    [false, 'off'],
    [true, 'on'],
  ])('reads sandbox: %j as %s', (value, mode) => {
    expect(runtimeConfigSchema.parse({ sandbox: value }).sandbox).toBe(mode);
  });

  it('takes secrets from a named variable or a file, and grants them per skill', () => {
    const config = runtimeConfigSchema.parse({
      skills: ['acme/weather@^1.0.0'],
      secrets: { WEATHER_TOKEN: { env: 'HOST_WEATHER_TOKEN' }, GITHUB_TOKEN: { file: '/run/secrets/github' } },
      grants: { 'acme/weather': { network: true, secrets: ['WEATHER_TOKEN'] } },
    });

    expect(config.grants).toEqual({ 'acme/weather': { network: true, secrets: ['WEATHER_TOKEN'], scopes: [] } });
  });

  it('grants a skill its SwarmKit scopes and sets its permission tier', () => {
    const config = runtimeConfigSchema.parse({
      skills: ['acme/search@1'],
      grants: { 'acme/search': { scopes: ['repo:read', 'knowledge:*'], permission: 'readonly' } },
    });

    expect(config.grants['acme/search']).toEqual({
      network: false,
      secrets: [],
      scopes: ['repo:read', 'knowledge:*'],
      permission: 'readonly',
    });
    expect(
      issues({ skills: ['acme/search@1'], grants: { 'acme/search': { scopes: ['repo'], permission: 'everything' } } }),
    ).toEqual([
      'grants.acme/search.scopes.0: namespace:action, e.g. repo:read or repo:*',
      'grants.acme/search.permission: Invalid option: expected one of "open"|"cautious"|"strict"|"readonly"',
    ]);
  });

  it('refuses a grant for a skill it does not install, a secret it does not define, and a server named twice', () => {
    expect(
      issues({
        skills: ['acme/weather@1'],
        secrets: { KNOWN: { env: 'HOST' } },
        grants: { 'acme/other': {}, 'acme/weather': { secrets: ['KNOWN', 'UNKNOWN'] } },
        mcp_servers: [
          { name: 'dup', transport: 'stdio', command: ['node'] },
          { name: 'dup', transport: 'stdio', command: ['node'] },
        ],
      }),
    ).toEqual([
      'mcp_servers.1.name: dup is listed twice',
      'grants.acme/other: acme/other is not one of the skills',
      'grants.acme/weather.secrets.1: UNKNOWN is not defined under secrets',
    ]);
  });

  it('refuses a secret read from anywhere else, and a relative secret file', () => {
    expect(issues({ secrets: { X: { value: 'inline' } } })).not.toEqual([]);
    expect(issues({ secrets: { X: { file: 'secrets/x' } } })).not.toEqual([]);
  });

  it('lets an operator server opt in to the sandbox, stdio only', () => {
    const config = runtimeConfigSchema.parse({
      mcp_servers: [
        { name: 'plain', transport: 'stdio', command: ['node', 'server.js'] },
        { name: 'boxed', transport: 'stdio', command: ['node', 'server.js'], sandbox: true },
        {
          name: 'netted',
          transport: 'stdio',
          command: ['node', '/opt/srv/server.js'],
          sandbox: { network: true, read_only: ['/opt/srv'] },
        },
      ],
    });

    expect(config.mcp_servers.map((server) => server.sandbox)).toEqual([
      null,
      { network: false, read_only: [] },
      { network: true, read_only: ['/opt/srv'] },
    ]);
    expect(
      issues({ mcp_servers: [{ name: 'r', transport: 'sse', url: 'https://x.example/sse', sandbox: true }] }),
    ).toEqual(['mcp_servers.0.sandbox: only a stdio server runs in a sandbox']);
  });

  it('accepts examples/runtime.yaml, which shows every field', () => {
    const example = loadRuntimeConfig(join(__dirname, '../../../../examples/runtime.yaml'));

    expect(example).toMatchObject({
      sandbox: 'on',
      sandbox_limits: { memory_mib: 1024, processes: 256, cpu_cores: 1, cpu_seconds: 3600, tmpfs_mib: 64 },
      sandbox_egress: { allow_addresses: [], ca_file: null },
      grants: { 'acme-labs/weather': { network: { domains: ['api.weather.example'] } } },
    });
  });
});
