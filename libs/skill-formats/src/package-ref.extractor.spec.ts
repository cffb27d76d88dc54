import { extractPackageRefs, normalizePypiName, splitCommandLine } from './package-ref.extractor';
import type { PackageRef } from './skill.model';

const npm = (name: string, version: string | null, source: string): PackageRef => ({
  registry: 'npm',
  name,
  version,
  source,
});
const pypi = (name: string, version: string | null, source: string): PackageRef => ({
  registry: 'pypi',
  name,
  version,
  source,
});

function refs(command: string): PackageRef[] {
  return extractPackageRefs(splitCommandLine(command));
}

describe('extractPackageRefs', () => {
  describe('SwarmKit documentation mistakes', () => {
    it('reads the npm package of `npx -y @anthropic/brave-search-mcp`', () => {
      expect(refs('npx -y @anthropic/brave-search-mcp')).toEqual([
        npm('@anthropic/brave-search-mcp', null, 'npx -y @anthropic/brave-search-mcp'),
      ]);
    });

    it('reads `uvx mcp-server-qdrant` as a PyPI package', () => {
      expect(refs('uvx mcp-server-qdrant')).toEqual([pypi('mcp-server-qdrant', null, 'uvx mcp-server-qdrant')]);
    });
  });

  describe('npm runners', () => {
    it.each([
      ['npx -y @modelcontextprotocol/server-filesystem /tmp', '@modelcontextprotocol/server-filesystem', null],
      ['npx --yes @scope/name@1.2.3', '@scope/name', '1.2.3'],
      ['npx @scope/name@1.2.3-beta.1', '@scope/name', '1.2.3-beta.1'],
      ['npx plain-name@4.0.0 --port 3000', 'plain-name', '4.0.0'],
      ['npx plain-name@latest', 'plain-name', null],
      ['npx plain-name@^1.2.0', 'plain-name', null],
      ['npx plain-name@1.x', 'plain-name', null],
      ['npx plain-name@v1.2.3', 'plain-name', null],
      ['npm exec -- some-server@2.0.0', 'some-server', '2.0.0'],
      ['npm exec --yes some-server', 'some-server', null],
      ['pnpm dlx @scope/tool@0.1.0', '@scope/tool', '0.1.0'],
      ['bunx tool-x', 'tool-x', null],
      ['yarn dlx tool-y@3.3.3', 'tool-y', '3.3.3'],
      ['/usr/local/bin/npx -y abs-path-runner', 'abs-path-runner', null],
      ['npx --registry https://registry.example.com the-pkg', 'the-pkg', null],
      ['npx -y the-server -p 8080', 'the-server', null],
    ])('%s', (command, name, version) => {
      expect(refs(command)).toEqual([npm(name, version, command)]);
    });

    it('reads the package of `-p`, not the command run from it', () => {
      expect(refs('npx -p @scope/cli@1.0.0 scope-cli serve')).toEqual([
        npm('@scope/cli', '1.0.0', 'npx -p @scope/cli@1.0.0 scope-cli serve'),
      ]);
      expect(refs('npm exec --package=other@2.0.0 -- run-it')).toEqual([
        npm('other', '2.0.0', 'npm exec --package=other@2.0.0 -- run-it'),
      ]);
    });

    it.each(['npx ./local-server', 'npx github:owner/repo', 'npx https://example.com/x.tgz', 'npx -y'])(
      'names no registry package in %s',
      (command) => {
        expect(refs(command)).toEqual([]);
      },
    );
  });

  describe('PyPI runners', () => {
    it.each([
      ['uvx mcp-server-fetch', 'mcp-server-fetch', null],
      ['uvx mcp-server-fetch==2025.1.17', 'mcp-server-fetch', '2025.1.17'],
      ['uvx mcp-server-fetch@1.2.0', 'mcp-server-fetch', '1.2.0'],
      ['uvx mcp-server-fetch@latest', 'mcp-server-fetch', null],
      ['uvx Some_Package.Name>=1.0', 'some-package-name', null],
      ['uvx pkg[cli]==1.0.0', 'pkg', '1.0.0'],
      ['uvx pkg==1.0.*', 'pkg', null],
      ['uvx --python 3.12 mcp-server-time', 'mcp-server-time', null],
      ['uv tool run mcp-server-git', 'mcp-server-git', null],
      ['pipx run black==24.1.0', 'black', '24.1.0'],
    ])('%s', (command, name, version) => {
      expect(refs(command)).toEqual([pypi(name, version, command)]);
    });

    it('reads `--from` as the package and `--with` as extra packages', () => {
      const command = 'uvx --from mcp-server-x==1.0.0 --with helper-lib server-x';
      expect(refs(command)).toEqual([pypi('mcp-server-x', '1.0.0', command), pypi('helper-lib', null, command)]);
      const withOnly = 'uvx --with helper-lib main-tool';
      expect(refs(withOnly)).toEqual([pypi('main-tool', null, withOnly), pypi('helper-lib', null, withOnly)]);
    });

    it('reads the package of `pipx run --spec`', () => {
      expect(refs('pipx run --spec tool-pkg==2.0 tool')).toEqual([
        pypi('tool-pkg', '2.0', 'pipx run --spec tool-pkg==2.0 tool'),
      ]);
    });

    it('names no package for a git URL', () => {
      expect(refs('uvx git+https://github.com/owner/repo')).toEqual([]);
    });
  });

  it.each(['python -m mcp_server_qdrant', 'python3 -m mcp_server_fetch --help', 'python -m http.server'])(
    'names no package for %s: a module is not a PyPI package',
    (command) => {
      expect(refs(command)).toEqual([]);
    },
  );

  it.each([
    'node build/index.js',
    'docker run -i --rm mcp/fetch',
    'deno run -A jsr:@scope/server',
    '/opt/servers/bin/serve --stdio',
    '',
  ])('names no package for local or containerised code: %j', (command) => {
    expect(refs(command)).toEqual([]);
  });
});

describe('splitCommandLine', () => {
  it('splits on runs of whitespace and keeps quoted parts together', () => {
    expect(splitCommandLine('  npx  -y "@scope/a b"  \'c d\' e"f g"h ')).toEqual([
      'npx',
      '-y',
      '@scope/a b',
      'c d',
      'ef gh',
    ]);
    expect(splitCommandLine('run ""')).toEqual(['run', '']);
  });
});

describe('normalizePypiName', () => {
  it.each([
    ['Mcp_Server.Fetch', 'mcp-server-fetch'],
    ['a--_.b', 'a-b'],
    ['simple', 'simple'],
  ])('%s → %s', (name, normalized) => {
    expect(normalizePypiName(name)).toBe(normalized);
  });
});
