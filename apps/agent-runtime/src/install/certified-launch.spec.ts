import type { CertifiedServer } from '@skillhub/signing';
import { certifiedLaunch } from './certified-launch';

const INTEGRITY = `sha512-${Buffer.alloc(64, 7).toString('base64')}`;
const pinned = { registry: 'npm' as const, name: '@acme/weather-mcp', version: '1.2.3', integrity: INTEGRITY };

const server = (overrides: Partial<CertifiedServer>): CertifiedServer => ({
  name: 'weather',
  transport: 'stdio',
  launch: 'npm',
  argv: ['npx', '-y', '@acme/weather-mcp@1.2.3', '--units', 'metric'],
  url: null,
  package: pinned,
  file: null,
  env: {},
  cwd: null,
  tools: null,
  ...overrides,
});

describe('certifiedLaunch', () => {
  it('runs the pinned npm package with the arguments after it, never npx', () => {
    expect(certifiedLaunch(server({}))).toEqual({
      ok: true,
      launch: {
        kind: 'npm',
        package: { name: '@acme/weather-mcp', version: '1.2.3', integrity: INTEGRITY },
        args: ['--units', 'metric'],
      },
    });
    expect(certifiedLaunch(server({ argv: ['npx', '@acme/weather-mcp@1.2.3'] }))).toMatchObject({
      ok: true,
      launch: { args: [] },
    });
  });

  it.each([
    ['another program', ['node', '@acme/weather-mcp@1.2.3'], 'runs node, not npx'],
    ['another package', ['npx', '-y', '@acme/other@1.2.3'], 'does not run @acme/weather-mcp@1.2.3'],
    ['another version', ['npx', '-y', '@acme/weather-mcp@1.2.4'], 'does not run @acme/weather-mcp@1.2.3'],
    ['a flag before the package', ['npx', '--registry=http://evil', '@acme/weather-mcp@1.2.3'], 'does not run'],
  ])('refuses an npm launch with %s', (_label, argv, reason) => {
    expect(certifiedLaunch(server({ argv }))).toEqual({ ok: false, reason: expect.stringContaining(reason) });
  });

  it('refuses an npm launch without its pinned package', () => {
    expect(certifiedLaunch(server({ package: null })).ok).toBe(false);
  });

  it('runs a PyPI release from the lock its certificate records, with the arguments after it', () => {
    const lock = {
      name: 'weather',
      version: '1.0.0',
      wheels: [{ name: 'weather', version: '1.0.0', sha256: 'a'.repeat(64) }],
    };
    const pypi = { launch: 'pypi' as const, package: { ...pinned, registry: 'pypi' as const } };
    expect(certifiedLaunch(server({ ...pypi, argv: ['uvx', 'weather==1.0.0', '--units', 'metric'], lock }))).toEqual({
      ok: true,
      launch: { kind: 'pypi', lock, args: ['--units', 'metric'] },
    });
    // Without a lock nothing can be installed by hash; a lock for another release, or another runner, is refused.
    expect(certifiedLaunch(server({ ...pypi, argv: ['uvx', 'weather==1.0.0'] }))).toEqual({
      ok: false,
      reason: 'its certificate records no lock of wheels for this PyPI server, so nothing can be installed by hash',
    });
    expect(certifiedLaunch(server({ ...pypi, argv: ['uvx', 'weather==2.0.0'], lock })).ok).toBe(false);
    expect(certifiedLaunch(server({ ...pypi, argv: ['pipx', 'run', 'weather==1.0.0'], lock })).ok).toBe(false);
  });

  it('runs a file of the skill with its interpreter', () => {
    expect(
      certifiedLaunch(
        server({
          launch: 'bundle-file',
          argv: ['python', './server/main.py', '-v'],
          package: null,
          file: 'server/main.py',
        }),
      ),
    ).toEqual({
      ok: true,
      launch: { kind: 'bundle-file', interpreter: 'python3', file: 'server/main.py', module: null, args: ['-v'] },
    });
  });

  it("runs a file named from the server's working folder, as its certificate names it from the skill's root", () => {
    const launch = certifiedLaunch(
      server({
        launch: 'bundle-file',
        argv: ['node', 'index.js'],
        package: null,
        file: 'server/index.js',
        cwd: 'server',
      }),
    );
    expect(launch).toEqual({
      ok: true,
      launch: { kind: 'bundle-file', interpreter: 'node', file: 'server/index.js', module: null, args: [] },
    });
  });

  it.each([
    [['python3', '-m', 'weather', '-v'], 'weather/__main__.py', 'weather', ['-v']],
    [['python', '-m', 'oil.pricing'], 'oil/pricing.py', 'oil.pricing', []],
  ])('runs %j, a module of the skill, as python3 -m', (argv, file, module, args) => {
    expect(certifiedLaunch(server({ launch: 'bundle-file', argv, package: null, file }))).toEqual({
      ok: true,
      launch: { kind: 'bundle-file', interpreter: 'python3', file, module, args },
    });
  });

  it.each([
    ['another module', ['python3', '-m', 'other'], 'weather/__main__.py'],
    ['a module that is not a name', ['python3', '-m', '../weather'], 'weather/__main__.py'],
    ['another file', ['node', 'other.js'], 'server.js'],
    ['a file outside the skill', ['node', '../server.js'], '../server.js'],
    ['an absolute file', ['node', '/srv/server.js'], '/srv/server.js'],
    ['an unknown interpreter', ['ruby', 'server.js'], 'server.js'],
  ])('refuses a bundle file launch with %s', (_label, argv, file) => {
    expect(certifiedLaunch(server({ launch: 'bundle-file', argv, package: null, file })).ok).toBe(false);
  });

  it('connects a remote server to its certified URL', () => {
    expect(
      certifiedLaunch(
        server({ launch: 'remote', transport: 'sse', argv: [], url: 'https://mcp.example.com/sse', package: null }),
      ),
    ).toEqual({ ok: true, launch: { kind: 'remote', transport: 'sse', url: 'https://mcp.example.com/sse' } });
    expect(
      certifiedLaunch(server({ launch: 'remote', argv: [], url: 'https://mcp.example.com/mcp', package: null })).ok,
    ).toBe(false);
  });
});
