import { PypiRegistryClient } from './pypi-registry.client';
import { RegistryBase } from './registry-base';
import { pypiFile, pypiFileSha256, pypiRelease } from './testing';

const client = new PypiRegistryClient(new RegistryBase('https://pypi.org', 'pypiBaseUrl'));

describe('PypiRegistryClient', () => {
  it('normalizes names per PEP 503 and refuses what cannot be a name', () => {
    expect(client.canonicalName('Mcp_Server..Qdrant')).toBe('mcp-server-qdrant');
    expect(['', '-x', 'x-', 'a/b', 'a b', 'x?', '..'].map((name) => client.canonicalName(name))).toEqual(
      Array(7).fill(null),
    );
  });

  it('builds the JSON API URLs', () => {
    expect(client.packageUrl('mcp-server-qdrant')).toBe('https://pypi.org/pypi/mcp-server-qdrant/json');
    expect(client.releaseUrl('x', '1.0+local.1')).toBe('https://pypi.org/pypi/x/1.0%2Blocal.1/json');
  });

  it('takes PEP 440 versions as exact, and specifiers as not', () => {
    expect(
      ['1.0', '0.7.1', '2025.4.7', '1.0rc1', '1.0.post2', '1!2.0', '1.0.dev3', '1.0+local.7'].every((v) =>
        client.isExactVersion(v),
      ),
    ).toBe(true);
    expect(['>=1.0', '~=1.0', '1.*', '', 'latest', '1.0,<2'].some((v) => client.isExactVersion(v))).toBe(false);
  });

  describe('release documents', () => {
    it('prefers the sdist digest, skipping yanked files', () => {
      const sdist = pypiFile('x', '1.0', 'sdist');
      const files = [
        pypiFile('x', '1.0', 'sdist', true),
        pypiFile('x', '1.0', 'bdist_wheel'),
        { ...sdist, filename: 'other.tar.gz', digests: { ...sdist.digests, sha256: pypiFileSha256('other') } },
      ];

      expect(client.readRelease(pypiRelease('x', '1.0', {}, files))?.integrity).toBe(
        `sha256-${pypiFileSha256('other')}`,
      );
    });

    it('has no integrity without a well-formed digest', () => {
      const file = { ...pypiFile('x', '1.0', 'sdist'), digests: { blake2b_256: '', md5: '', sha256: 'NOT-HEX' } };

      expect(client.readRelease(pypiRelease('x', '1.0', {}, [file]))?.integrity).toBeNull();
    });

    it('reads a release whose every file is yanked as yanked', () => {
      const release = pypiRelease('x', '1.0', {}, [pypiFile('x', '1.0', 'sdist', true)]);

      expect(client.readRelease(release)?.withdrawn).toEqual({ outcome: 'yanked', reason: 'no reason given' });
    });

    it('reads project_urls and home_page as repository links, those labelled as the source first', () => {
      const release = pypiRelease('x', '1.0', {
        project_urls: {
          Documentation: 'https://x.dev',
          'Source Code': 'https://github.com/a/x',
          Changelog: 'https://x.dev/changes',
          GitHub: 'https://github.com/a/x-mirror',
        },
        home_page: 'https://github.com/a/x-home',
      });

      expect(client.readRelease(release)?.repositoryUrls).toEqual([
        'https://github.com/a/x',
        'https://github.com/a/x-mirror',
        'https://x.dev',
        'https://x.dev/changes',
        'https://github.com/a/x-home',
      ]);
    });

    it('knows no attestation: PyPI does not list them in its JSON API', () => {
      expect(client.readRelease(pypiRelease('x', '1.0'))?.attestation).toBeNull();
    });

    it('refuses documents without info.version', () => {
      expect(client.readRelease({ info: {} })).toBeNull();
      expect(client.readPackage([])).toBeNull();
    });
  });

  it('writes uvx commands', () => {
    expect(client.runCommand('mcp-server-qdrant', '0.8.0')).toBe('uvx mcp-server-qdrant@0.8.0');
    expect(client.spec('mcp-server-qdrant', '0.8.0')).toBe('mcp-server-qdrant==0.8.0');
  });
});
