import type { CertifiedServer } from '@skillhub/signing';
import {
  entryKey,
  groupEntries,
  keyedUses,
  MAX_LISTED_SKILLS,
  toServerResponse,
  type ServerUse,
} from './server-entries';

const npmServer = (pkg: string, version: string, tools: Record<string, string> | null = null): CertifiedServer => ({
  name: 'main',
  transport: 'stdio',
  launch: 'npm',
  argv: ['npx', '-y', `${pkg}@${version}`],
  url: null,
  package: { registry: 'npm', name: pkg, version, integrity: 'sha512-x' },
  file: null,
  env: {},
  cwd: null,
  tools,
});
const remote = (url: string, tools: Record<string, string> | null = null): CertifiedServer => ({
  ...npmServer('x', '1.0.0', tools),
  transport: 'streamable-http',
  launch: 'remote',
  argv: [],
  url,
  package: null,
});
const at = (day: number) => new Date(Date.UTC(2026, 0, day));
const use = (
  server: CertifiedServer,
  day: number,
  skill = 'acme/skill',
  level: ServerUse['level'] = 'basic',
): ServerUse => ({
  skill,
  version: '1.0.0',
  level,
  logIndex: day,
  issuedAt: at(day),
  expiresAt: at(day + 90),
  server,
});
const LINKS = {
  origin: 'https://hub.example',
  npmRegistryUrl: 'https://registry.npmjs.org',
  pypiRegistryUrl: 'https://pypi.org',
};

describe('entryKey: the registry name and version of a certified server', () => {
  it('names packages by registry and scope, and versions them by their pin', () => {
    expect(entryKey(npmServer('left-pad', '1.3.0'))).toEqual({ name: 'dev.skillhub.npm/left-pad', version: '1.3.0' });
    expect(entryKey(npmServer('@acme/weather-mcp', '2.0.0'))?.name).toBe('dev.skillhub.npm.acme/weather-mcp');
    const pypi: CertifiedServer = {
      ...npmServer('x', '1'),
      launch: 'pypi',
      package: { registry: 'pypi', name: 'MCP_Server.Fetch', version: '2025.4.7', integrity: 'a'.repeat(64) },
    };
    expect(entryKey(pypi)).toEqual({ name: 'dev.skillhub.pypi/mcp-server-fetch', version: '2025.4.7' });
  });

  it('names a remote server by its host and path, and never gives two URLs one name', () => {
    expect(entryKey(remote('https://mcp.example.com/v1/sse'))).toEqual({
      name: 'dev.skillhub.remote.com.example.mcp/v1.sse',
      version: '0.0.0-tools.unrecorded',
    });
    expect(entryKey(remote('https://mcp.example.com/'))?.name).toMatch(
      /^dev\.skillhub\.remote\.com\.example\.mcp\/mcp-[0-9a-f]{16}$/,
    );
    const spellings = [
      'https://mcp.example.com/v1.sse',
      'https://mcp.example.com/v1/sse?x=1',
      'https://mcp.example.com:8443/v1/sse',
      'https://mcp.example.com/v1/sse',
    ];
    const names = spellings.map((url) => entryKey(remote(url))!.name);
    expect(new Set(names).size).toBe(spellings.length);
  });

  it('versions a remote server by its live tool pins, which change when the tools do', () => {
    const a = entryKey(remote('https://mcp.example.com/mcp', { search: 'a'.repeat(64) }))!.version;
    const b = entryKey(remote('https://mcp.example.com/mcp', { search: 'b'.repeat(64) }))!.version;
    expect(a).toMatch(/^0\.0\.0-tools\.[0-9a-f]{12}$/);
    expect(b).not.toBe(a);
  });

  it('leaves out what a registry client could not start, or could not name', () => {
    expect(
      entryKey({ ...npmServer('x', '1.0.0'), launch: 'bundle-file', package: null, file: 'server.py' }),
    ).toBeNull();
    expect(entryKey(npmServer('@my_scope/pkg', '1.0.0'))).toBeNull();
    expect(entryKey(npmServer(`pkg-${'x'.repeat(200)}`, '1.0.0'))).toBeNull();
  });
});

describe('groupEntries and toServerResponse', () => {
  it('makes one entry per name and version of every skill that runs it, latest the highest version', () => {
    const entries = groupEntries(
      keyedUses([
        use(npmServer('pkg', '2.0.0'), 1, 'acme/first'),
        use(npmServer('pkg', '1.9.0'), 5),
        use(npmServer('pkg', '2.0.0'), 3, 'acme/second', 'standard'),
        use(remote('https://mcp.example.com/mcp', { a: 'a'.repeat(64) }), 2),
        use(remote('https://mcp.example.com/mcp', { b: 'b'.repeat(64) }), 4),
      ]),
    );
    const pkg = entries.filter((e) => e.name === 'dev.skillhub.npm/pkg');
    expect(pkg.map((e) => [e.version, e.isLatest, e.uses.map((u) => u.skill)])).toEqual([
      ['1.9.0', false, ['acme/skill']],
      ['2.0.0', true, ['acme/second', 'acme/first']],
    ]);
    expect([pkg[1]!.publishedAt, pkg[1]!.updatedAt]).toEqual([at(1), at(3)]);
    // A remote server's versions are tool hashes: the most recently published is the latest.
    const remotes = entries.filter((e) => e.name.startsWith('dev.skillhub.remote.'));
    expect(remotes.find((e) => e.isLatest)?.publishedAt).toEqual(at(4));

    const body = toServerResponse(pkg[1]!, LINKS);
    expect(body._meta['dev.skillhub/certification']).toMatchObject({
      level: 'standard',
      certificate: 'https://hub.example/api/v1/skills/acme/second/versions/1.0.0/certificate',
      logIndex: 3,
      skillCount: 2,
    });
  });

  it('keeps description and title within the registry’s 100 characters, and lists at most 50 skills', () => {
    const tools = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`tool_number_${i}`, 'c'.repeat(64)]));
    const uses = Array.from({ length: 60 }, (_, i) => use(npmServer('pkg', '1.0.0', tools), i + 1, `acme/s${i}`));
    const body = toServerResponse(groupEntries(keyedUses(uses))[0]!, LINKS);
    expect(Array.from(body.server.description)).toHaveLength(100);
    expect(body.server.description.startsWith('pkg (npm): tool_number_0, tool_number_1')).toBe(true);
    const meta = body._meta['dev.skillhub/certification'];
    expect([meta.skillCount, meta.skills.length]).toEqual([60, MAX_LISTED_SKILLS]);
  });
});
