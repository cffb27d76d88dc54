import { NpmRegistryClient, npmPackageSegment } from './npm-registry.client';
import { RegistryBase } from './registry-base';
import { npmIntegrity, npmPackument, npmVersion } from './testing';

const client = new NpmRegistryClient(new RegistryBase('https://registry.npmjs.org', 'npmBaseUrl'));

describe('NpmRegistryClient', () => {
  describe('names and URLs', () => {
    it('spells a scoped name @scope%2fname, escaping each part', () => {
      expect(npmPackageSegment('@scope/name')).toBe('@scope%2fname');
      expect(npmPackageSegment('@sc?pe/na#me/../x')).toBe('@sc%3Fpe%2fna%23me%2F..%2Fx');
      expect(npmPackageSegment('plain')).toBe('plain');
      expect(npmPackageSegment('no-scope/slash')).toBe('no-scope%2Fslash');
    });

    it('builds the packument and version URLs', () => {
      expect(client.packageUrl('@modelcontextprotocol/server-filesystem')).toBe(
        'https://registry.npmjs.org/@modelcontextprotocol%2fserver-filesystem',
      );
      expect(client.releaseUrl('@acme/x', '1.0.0-rc.1+build.5')).toBe(
        'https://registry.npmjs.org/@acme%2fx/1.0.0-rc.1%2Bbuild.5',
      );
    });

    it.each(['left-pad', '@acme/weather-mcp', 'JSONStream', 'a.b_c~d'])('accepts the name %p', (name) => {
      expect(client.canonicalName(name)).toBe(name);
    });

    it.each(['', '.hidden', '_private', '@scope/', '@/x', 'a b', 'a/b', `x${'y'.repeat(214)}`])(
      'refuses the name %p',
      (name) => {
        expect(client.canonicalName(name)).toBeNull();
      },
    );

    it('takes only exact semver as exact', () => {
      expect(['1.2.3', '1.0.0-rc.1', '2025.8.21'].map((v) => client.isExactVersion(v))).toEqual([true, true, true]);
      expect(['v1.2.3', '^1.2.3', '1.2', 'latest', '*', '=1.2.3'].some((v) => client.isExactVersion(v))).toBe(false);
    });
  });

  describe('documents', () => {
    it('reads a version document', () => {
      const doc = npmVersion('@acme/x', '1.0.0', {
        deprecated: 'use 2.x',
        repository: { type: 'git', url: 'git+https://github.com/acme/x.git' },
      });

      expect(client.readRelease(doc)).toEqual({
        version: '1.0.0',
        withdrawn: null,
        deprecated: 'use 2.x',
        integrity: npmIntegrity('@acme/x', '1.0.0'),
        repositoryUrls: ['git+https://github.com/acme/x.git'],
        attestation: null,
      });
    });

    /** A version document as npm serves one published with provenance. */
    const attested = (attestations: unknown): unknown => {
      const doc = npmVersion('@acme/x', '1.0.0');
      return { ...doc, dist: { ...doc.dist, attestations } };
    };

    it('reads the predicate type of the provenance attestation npm lists in dist.attestations', () => {
      const doc = attested({
        url: 'https://registry.npmjs.org/-/npm/v1/attestations/@acme%2fx@1.0.0',
        provenance: { predicateType: 'https://slsa.dev/provenance/v1' },
      });

      expect(client.readRelease(doc)?.attestation).toBe('https://slsa.dev/provenance/v1');
    });

    it.each([
      ['no provenance entry', { url: 'https://registry.npmjs.org/-/npm/v1/attestations/@acme%2fx@1.0.0' }],
      ['a provenance of true', { provenance: true }],
      ['a predicate type that is not a string', { provenance: { predicateType: 1 } }],
      ['a predicate type that is not an https URI', { provenance: { predicateType: 'javascript:alert(1)' } }],
      ['a predicate type with spaces', { provenance: { predicateType: 'https://slsa.dev/ provenance' } }],
      ['a predicate type too long to show', { provenance: { predicateType: `https://x.dev/${'a'.repeat(300)}` } }],
      ['attestations that are not an object', 'https://slsa.dev/provenance/v1'],
    ])('lists no attestation for %s', (_case, attestations) => {
      expect(client.readRelease(attested(attestations))).toMatchObject({ version: '1.0.0', attestation: null });
    });

    it.each([
      ['github:acme/x', 'https://github.com/acme/x'],
      ['gitlab:acme/x', 'https://gitlab.com/acme/x'],
      ['bitbucket:acme/x', 'https://bitbucket.org/acme/x'],
      ['acme/x', 'https://github.com/acme/x'],
      ['https://example.com/acme/x', 'https://example.com/acme/x'],
    ])('expands the repository %p', (repository, expected) => {
      expect(client.readRelease(npmVersion('x', '1.0.0', { repository }))?.repositoryUrls).toEqual([expected]);
    });

    it('ignores an integrity that is not SRI and a deprecation of false', () => {
      const doc = { ...npmVersion('x', '1.0.0'), deprecated: false, dist: { integrity: 'md5-<script>', shasum: 'zz' } };

      expect(client.readRelease(doc)).toMatchObject({ integrity: null, deprecated: null });
    });

    it('refuses documents without a version', () => {
      expect(client.readRelease({ name: 'x' })).toBeNull();
      expect(client.readRelease('x')).toBeNull();
      expect(client.readPackage({ name: 'x', time: {} })).toBeNull();
    });

    it('lists versions that are in `time` but gone from `versions` as removed', () => {
      const packument = npmPackument([npmVersion('x', '2.0.0')], { '1.0.0': '2024-01-01T00:00:00.000Z' });

      const facts = client.readPackage(packument);

      expect([...(facts?.removedVersions ?? [])]).toEqual(['1.0.0']);
      expect(facts?.latest?.version).toBe('2.0.0');
    });

    it('does not read a dist-tag that names an Object.prototype key', () => {
      const packument = { ...npmPackument([npmVersion('x', '1.0.0')]), 'dist-tags': { latest: '__proto__' } };

      expect(client.readPackage(packument)?.latest).toBeNull();
    });
  });

  it('writes npx commands', () => {
    expect(client.runCommand('@acme/x', '1.0.0')).toBe('npx -y @acme/x@1.0.0');
    expect(client.runCommand('@acme/x', null)).toBe('npx -y @acme/x');
  });
});
