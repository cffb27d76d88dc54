import type { PackageRef } from '@skillhub/skill-formats';
import { PackageProber, type PackageProberOptions } from './package-prober';
import { PackageProbeConfigError } from './package-probe.errors';
import type { ProbeResult } from './probe-result';
import {
  FIXTURE_PACKAGES as P,
  FROM_FIXTURES,
  FakeRegistries,
  FakeRegistryServer,
  npmIntegrity,
  npmVersion,
  pypiFileSha256,
} from './testing';

const npm = (name: string, version: string | null = null): PackageRef => ({
  registry: 'npm',
  name,
  version,
  source: `npx -y ${version === null ? name : `${name}@${version}`}`,
});
const pypi = (name: string, version: string | null = null): PackageRef => ({
  registry: 'pypi',
  name,
  version,
  source: `uvx ${version === null ? name : `${name}==${version}`}`,
});

let registries: FakeRegistries;
let sleeps: number[];

beforeAll(async () => {
  registries = await FakeRegistries.start();
});
afterAll(() => registries.close());
beforeEach(() => {
  registries.reset();
  sleeps = [];
});

/** A prober on the fake registries whose backoff is recorded instead of waited for. */
function prober(options: PackageProberOptions = {}): PackageProber {
  return new PackageProber({
    ...registries.baseUrls,
    timeoutMs: 2_000,
    maxAttempts: 3,
    baseDelayMs: 100,
    maxDelayMs: 1_000,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
}

const npmUrl = (path: string): string => `${registries.npm.baseUrl}${path}`;
const pypiUrl = (path: string): string => `${registries.pypi.baseUrl}${path}`;

describe('PackageProber', () => {
  describe('npm', () => {
    it('finds an exact scoped version at /@scope%2fname/<version> and records dist.integrity', async () => {
      const result = await prober().probe(npm(P.filesystem.name, P.filesystem.version));

      expect(result).toEqual<ProbeResult>({
        registry: 'npm',
        name: P.filesystem.name,
        version: P.filesystem.version,
        pinnedByHub: false,
        outcome: 'found',
        deprecated: null,
        integrity: npmIntegrity(P.filesystem.name, P.filesystem.version),
        provenance: { repository: 'https://github.com/modelcontextprotocol/servers', attestation: null },
        attempts: 1,
        detail: `npm package ${P.filesystem.name}@${P.filesystem.version} is published — ${npmUrl('/@modelcontextprotocol%2fserver-filesystem/2025.8.21')}`,
        fixHint: '',
      });
      expect(registries.npm.paths).toEqual(['/@modelcontextprotocol%2fserver-filesystem/2025.8.21']);
      expect(registries.pypi.paths).toEqual([]);
    });

    it('derives an SRI integrity from the SHA-1 shasum of a package older than dist.integrity', async () => {
      const result = await prober().probe(npm(P.legacy.name, P.legacy.version));

      expect(result.outcome).toBe('found');
      expect(result.integrity).toMatch(/^sha1-[A-Za-z0-9+/]{27}=$/);
      expect(registries.npm.paths).toEqual(['/legacy-mcp-tool/0.3.0']);
    });

    it('reports a deprecated version as found, with the deprecation message and a hint', async () => {
      const result = await prober().probe(npm(P.weather.name, P.weather.deprecatedVersion));

      expect(result.outcome).toBe('found');
      expect(result.deprecated).toBe('1.0.0 logs API keys; upgrade to 1.2.3');
      expect(result.detail).toContain('deprecated: "1.0.0 logs API keys; upgrade to 1.2.3"');
      expect(result.fixHint).toContain('not deprecated');
    });

    it('pins a package named with no version to its latest release, by integrity: the certificate is the lock', async () => {
      const result = await prober().probe(npm(P.weather.name));

      expect(result).toMatchObject({
        outcome: 'found',
        version: P.weather.version,
        pinnedByHub: true,
        integrity: npmIntegrity(P.weather.name, P.weather.version),
        attempts: 1,
      });
      expect(result.detail).toContain(
        `the hub pinned its latest release, ${P.weather.name}@${P.weather.version}, at certification`,
      );
      expect(registries.npm.paths).toEqual(['/@acme%2fweather-mcp']);
    });

    it.each(['^1.2.0', 'latest', '1.2', '1.0.0/../../admin'])(
      'treats the non-exact version %p as unpinned and never requests it',
      async (version) => {
        const result = await prober().probe(npm(P.weather.name, version));

        expect(result.outcome).toBe('no_exact_version');
        expect(result.version).toBe(version);
        expect(result.detail).toContain(`${JSON.stringify(version)} is not an exact version`);
        expect(registries.npm.paths).toEqual(['/@acme%2fweather-mcp']);
      },
    );

    it('reports a version the package never had as not_found, naming the latest', async () => {
      const result = await prober().probe(npm(P.weather.name, '9.9.9'));

      expect(result.outcome).toBe('not_found');
      expect(result.detail).toBe(
        `npm package @acme/weather-mcp has no version 9.9.9: ${npmUrl('/@acme%2fweather-mcp/9.9.9')} answered 404; its latest is 1.2.3.`,
      );
      expect(result.fixHint).toBe('Pin a published version, e.g. `npx -y @acme/weather-mcp@1.2.3`.');
      expect(registries.npm.paths).toEqual(['/@acme%2fweather-mcp/9.9.9', '/@acme%2fweather-mcp']);
      expect(registries.pypi.paths).toEqual([]);
    });

    it.each([P.unpublished.version, null])(
      'reports a package answered 200 with time.unpublished as unpublished (version %p)',
      async (version) => {
        const result = await prober().probe(npm(P.unpublished.name, version));

        expect(result.outcome).toBe('unpublished');
        expect(result.detail).toBe(
          `npm package mcp-server-gone was unpublished by its owner on ${P.unpublished.unpublishedAt} — ${npmUrl('/mcp-server-gone')}`,
        );
        expect(result.integrity).toBeNull();
      },
    );

    it('reports a single unpublished version (still in `time`, gone from `versions`) as unpublished', async () => {
      const result = await prober().probe(npm(P.notes.name, P.notes.unpublishedVersion));

      expect(result.outcome).toBe('unpublished');
      expect(result.detail).toContain('npm package @acme/notes-mcp@1.9.0 was unpublished by its owner');
    });

    it.each([
      ['the placeholder version itself', '0.0.1-security'],
      ['the removed malicious version', P.placeholder.removedVersion],
      ['no version', null],
    ])('reports a package replaced by 0.0.1-security as security_placeholder (%s)', async (_case, version) => {
      const result = await prober().probe(npm(P.placeholder.name, version));

      expect(result.outcome).toBe('security_placeholder');
      expect(result.detail).toContain('npm package mcp-server-evil was taken down');
      expect(result.detail).toContain('0.0.1-security');
      expect(result.integrity).toBeNull();
      expect(result.fixHint).toContain('Remove mcp-server-evil');
    });
  });

  describe('the SwarmKit mistakes (docs/kazma.md)', () => {
    it.each(P.swarmkitMissing)('reports %s as not on npm', async (name) => {
      const result = await prober().probe(npm(name));
      const path = `/${name.replace('/', '%2f')}`;

      expect(result.outcome).toBe('not_found');
      expect(result.detail).toBe(`npm package ${name} does not exist: ${npmUrl(path)} answered 404.`);
      expect(result.fixHint).toContain('Name a package that exists on npm');
      expect(registries.npm.paths).toEqual([path]);
      // A scoped name cannot be a PyPI name: there is nothing to ask PyPI.
      expect(registries.pypi.paths).toEqual([]);
    });

    it('reports mcp-server-qdrant listed as an npm package as wrong_registry: it is a PyPI package', async () => {
      const result = await prober().probe(npm(P.qdrant.name));

      expect(result.outcome).toBe('wrong_registry');
      expect(result.detail).toBe(
        `mcp-server-qdrant is not on npm (${npmUrl('/mcp-server-qdrant')} answered 404); it is a PyPI package ` +
          `(${pypiUrl('/pypi/mcp-server-qdrant/json')}) — use \`uvx mcp-server-qdrant\`.`,
      );
      expect(result.fixHint).toBe('Run it from PyPI, pinned: `uvx mcp-server-qdrant@0.8.0`.');
      expect(registries.npm.paths).toEqual(['/mcp-server-qdrant']);
      expect(registries.pypi.paths).toEqual(['/pypi/mcp-server-qdrant/json']);
    });

    it('reports a pinned mcp-server-qdrant on npm as wrong_registry too', async () => {
      const result = await prober().probe(npm(P.qdrant.name, P.qdrant.version));

      expect(result.outcome).toBe('wrong_registry');
      expect(registries.npm.paths).toEqual(['/mcp-server-qdrant/0.7.1', '/mcp-server-qdrant']);
      expect(registries.pypi.paths).toEqual(['/pypi/mcp-server-qdrant/json']);
    });

    it('reports the reverse mistake, an npm package run with uvx, as wrong_registry', async () => {
      const result = await prober().probe(pypi(P.kubernetes.name, '2.4.0'));

      expect(result.outcome).toBe('wrong_registry');
      expect(result.detail).toContain('mcp-server-kubernetes is not on PyPI');
      expect(result.detail).toContain('it is an npm package');
      expect(result.fixHint).toBe('Run it from npm, pinned: `npx -y mcp-server-kubernetes@2.4.0`.');
    });

    it('stays not_found when the other registry cannot be asked, rather than inconclusive', async () => {
      registries.pypi.script('/pypi/mcp-server-qdrant/json', [{ status: 503 }]);

      const result = await prober().probe(npm(P.qdrant.name));

      expect(result.outcome).toBe('not_found');
      expect(result.attempts).toBe(1 + 3);
    });
  });

  describe('PyPI', () => {
    it('finds an exact release at /pypi/<name>/<version>/json and records the sdist sha256', async () => {
      const result = await prober().probe(pypi(P.qdrant.name, P.qdrant.version));

      expect(result).toMatchObject({
        registry: 'pypi',
        name: 'mcp-server-qdrant',
        outcome: 'found',
        integrity: `sha256-${pypiFileSha256('mcp_server_qdrant-0.7.1.tar.gz')}`,
        provenance: { repository: 'https://github.com/qdrant/mcp-server-qdrant', attestation: null },
        attempts: 1,
      });
      expect(result.detail).toBe(
        `PyPI package mcp-server-qdrant==0.7.1 is published — ${pypiUrl('/pypi/mcp-server-qdrant/0.7.1/json')}`,
      );
      expect(registries.pypi.paths).toEqual(['/pypi/mcp-server-qdrant/0.7.1/json']);
    });

    it('records the first wheel sha256 when there is no sdist', async () => {
      const result = await prober().probe(pypi(P.fetch.name, P.fetch.version));

      expect(result.integrity).toBe(`sha256-${pypiFileSha256('mcp_server_fetch-2025.4.7-py3-none-any.whl')}`);
    });

    it('requests the PEP 503 name and reports a yanked release with its reason', async () => {
      const result = await prober().probe({ ...pypi(P.acmeTools.writtenAs, P.acmeTools.yanked) });

      expect(result).toMatchObject({ name: 'acme-mcp-tools', outcome: 'yanked', integrity: null });
      expect(result.detail).toBe(
        `PyPI release acme-mcp-tools==1.0.0 is yanked (broken build, use 1.0.1) — ${pypiUrl('/pypi/acme-mcp-tools/1.0.0/json')}`,
      );
      expect(result.fixHint).toBe('Pin a release of acme-mcp-tools that is not yanked.');
      expect(registries.pypi.paths).toEqual(['/pypi/acme-mcp-tools/1.0.0/json']);
    });

    it('finds the release after the yanked one', async () => {
      const result = await prober().probe(pypi(P.acmeTools.writtenAs, P.acmeTools.version));

      expect(result.outcome).toBe('found');
    });

    it('reports a project marked Inactive as deprecated', async () => {
      const result = await prober().probe(pypi(P.inactive.name, P.inactive.version));

      expect(result).toMatchObject({
        outcome: 'found',
        deprecated: 'marked inactive (Development Status :: 7 - Inactive)',
      });
    });

    it('reports an unpinned project as no_exact_version with a pinned uvx command', async () => {
      const result = await prober().probe(pypi(P.qdrant.name));

      expect(result.outcome).toBe('no_exact_version');
      expect(result.fixHint).toBe('Pin an exact version, e.g. `uvx mcp-server-qdrant@0.8.0`.');
      expect(registries.pypi.paths).toEqual(['/pypi/mcp-server-qdrant/json']);
    });

    it('treats a version range as no exact version', async () => {
      const result = await prober().probe(pypi(P.qdrant.name, '>=0.7'));

      expect(result.outcome).toBe('no_exact_version');
      expect(registries.pypi.paths).toEqual(['/pypi/mcp-server-qdrant/json']);
    });

    it('reports a missing release as not_found, naming the latest', async () => {
      const result = await prober().probe(pypi(P.qdrant.name, '0.1.0'));

      expect(result.outcome).toBe('not_found');
      expect(result.detail).toContain('PyPI package mcp-server-qdrant has no version 0.1.0');
      expect(result.detail).toContain('its latest is 0.8.0');
    });

    it('reports a project on neither registry as not_found', async () => {
      const result = await prober().probe(pypi('mcp-server-nowhere', '1.0.0'));

      expect(result.outcome).toBe('not_found');
      expect(result.detail).toBe(
        `PyPI package mcp-server-nowhere does not exist: ${pypiUrl('/pypi/mcp-server-nowhere/json')} answered 404.`,
      );
      expect(registries.pypi.paths).toEqual(['/pypi/mcp-server-nowhere/1.0.0/json', '/pypi/mcp-server-nowhere/json']);
      expect(registries.npm.paths).toEqual(['/mcp-server-nowhere']);
    });
  });

  describe('provenance (C9)', () => {
    const weatherPath = '/@acme%2fweather-mcp/1.2.3';
    const weather = npm(P.weather.name, P.weather.version);
    const NO_PROVENANCE = { repository: null, attestation: null };

    it('records the SLSA provenance attestation npm lists for the release, and its repository', async () => {
      const doc = npmVersion(P.weather.name, P.weather.version, {
        repository: { type: 'git', url: 'git+https://github.com/acme/weather-mcp.git' },
      });
      const attestations = {
        url: `https://registry.npmjs.org/-/npm/v1/attestations/${P.weather.name}@${P.weather.version}`,
        provenance: { predicateType: 'https://slsa.dev/provenance/v1' },
      };
      registries.npm.script(weatherPath, [{ status: 200, json: { ...doc, dist: { ...doc.dist, attestations } } }]);

      const result = await prober().probe(weather);

      expect(result).toMatchObject({
        outcome: 'found',
        provenance: {
          repository: 'https://github.com/acme/weather-mcp',
          attestation: 'https://slsa.dev/provenance/v1',
        },
        fixHint: '',
      });
    });

    it('records a repository without an attestation for a release published without provenance', async () => {
      const result = await prober().probe(weather);

      expect(result.provenance).toEqual({ repository: 'https://github.com/acme/weather-mcp', attestation: null });
    });

    it('expands a repository shorthand (github:owner/repo)', async () => {
      const result = await prober().probe(npm(P.kubernetes.name, P.kubernetes.version));

      expect(result.provenance.repository).toBe('https://github.com/Flux159/mcp-server-kubernetes');
    });

    it('records neither for a release that names no repository', async () => {
      const result = await prober().probe(npm(P.legacy.name, P.legacy.version));

      expect([result.outcome, result.provenance]).toEqual(['found', NO_PROVENANCE]);
    });

    it('takes the first link that is a repository URL', async () => {
      const doc = npmVersion(P.weather.name, P.weather.version, { repository: 'not a url at all' });
      registries.npm.script(weatherPath, [{ status: 200, json: doc }]);

      expect((await prober().probe(weather)).provenance).toEqual(NO_PROVENANCE);
    });

    it.each([
      ['given by a range', npm(P.weather.name, '^1.0.0'), 'no_exact_version'],
      ['taken down (its placeholder names npm/security-holder)', npm(P.placeholder.name), 'security_placeholder'],
      ['yanked', pypi(P.acmeTools.writtenAs, P.acmeTools.yanked), 'yanked'],
    ] as const)('records nothing for a package that is %s', async (_case, ref, outcome) => {
      const result = await prober().probe(ref);

      expect([result.outcome, result.provenance]).toEqual([outcome, NO_PROVENANCE]);
    });

    it("records a PyPI release's source link, labelled or its home page, and no attestation", async () => {
      const labelled = await prober().probe(pypi(P.fetch.name, P.fetch.version));
      const homePage = await prober().probe(pypi(P.acmeTools.writtenAs, P.acmeTools.version));

      expect(labelled.provenance).toEqual({
        repository: 'https://github.com/modelcontextprotocol/servers/tree/main/src/fetch',
        attestation: null,
      });
      expect(homePage.provenance).toEqual({ repository: 'https://github.com/Acme/acme-mcp-tools', attestation: null });
    });
  });

  describe('retries', () => {
    const path = '/@acme%2fweather-mcp/1.2.3';
    const weather = npm(P.weather.name, P.weather.version);

    it('honours Retry-After in seconds after a 429, then finds the package', async () => {
      registries.npm.script(path, [{ status: 429, headers: { 'retry-after': '2' } }, FROM_FIXTURES]);

      const result = await prober({ maxDelayMs: 5_000 }).probe(weather);

      expect(result).toMatchObject({ outcome: 'found', attempts: 2 });
      expect(sleeps).toEqual([2_000]);
      expect(registries.npm.paths).toEqual([path, path]);
    });

    it('honours Retry-After as an HTTP date', async () => {
      const now = Date.parse('Tue, 21 Oct 2025 07:28:00 GMT');
      registries.npm.script(path, [
        { status: 429, headers: { 'retry-after': 'Tue, 21 Oct 2025 07:28:03 GMT' } },
        FROM_FIXTURES,
      ]);

      const result = await prober({ maxDelayMs: 5_000, now: () => now }).probe(weather);

      expect(result.outcome).toBe('found');
      expect(sleeps).toEqual([3_000]);
    });

    it('stops at once when Retry-After asks for more than maxDelayMs, rather than come back early', async () => {
      registries.npm.script(path, [{ status: 503, headers: { 'retry-after': '3600' } }, FROM_FIXTURES]);

      const result = await prober({ maxDelayMs: 1_000 }).probe(weather);

      expect(result).toMatchObject({ outcome: 'inconclusive', attempts: 1 });
      expect(result.detail).toContain(
        'the registry answered HTTP 503 (asked to wait 3600 s, more than the 1 s allowed)',
      );
      expect(sleeps).toEqual([]);
    });

    it('backs off exponentially with full jitter after 500, 500, then finds the package', async () => {
      registries.npm.script(path, [{ status: 500 }, { status: 500 }, FROM_FIXTURES]);

      const result = await prober({ baseDelayMs: 100, random: () => 0.5 }).probe(weather);

      expect(result).toMatchObject({ outcome: 'found', attempts: 3 });
      // random() · min(max, base · 2^retry): 0.5 · 100, 0.5 · 200.
      expect(sleeps).toEqual([50, 100]);
    });

    it('gives up as inconclusive, never found, when the registry always answers 500', async () => {
      registries.npm.script(path, [{ status: 500 }]);

      const result = await prober({ maxAttempts: 5, baseDelayMs: 400, maxDelayMs: 1_000, random: () => 0.75 }).probe(
        weather,
      );

      expect(result).toMatchObject({ outcome: 'inconclusive', integrity: null, attempts: 5 });
      expect(sleeps).toEqual([300, 600, 750, 750]);
      expect(result.detail).toBe(
        `No definite answer from npm about @acme/weather-mcp@1.2.3: the registry answered HTTP 500 (gave up after 5 attempts) — ${npmUrl(path)}. It stays uncertified and is probed again later.`,
      );
    });

    it('times out a slow answer and reports it as inconclusive', async () => {
      registries.npm.script(path, [{ fixture: true, delayMs: 1_000 }]);

      const result = await prober({ timeoutMs: 100, maxAttempts: 2 }).probe(weather);

      expect(result).toMatchObject({ outcome: 'inconclusive', attempts: 2 });
      expect(result.detail).toContain('timed out after 100 ms (gave up after 2 attempts)');
    });

    it('times out an answer whose body stalls after the headers', async () => {
      registries.npm.script(path, [{ status: 200, raw: '{}', delayMs: 1_000, delayBody: true }]);

      const result = await prober({ timeoutMs: 100, maxAttempts: 1 }).probe(weather);

      expect(result.outcome).toBe('inconclusive');
      expect(result.detail).toContain('timed out after 100 ms (gave up after 1 attempt)');
    });

    it('retries malformed JSON and then says so', async () => {
      registries.npm.script(path, [{ status: 200, raw: '{"name": "@acme/weather-mcp", "version": ' }]);

      const result = await prober().probe(weather);

      expect(result).toMatchObject({ outcome: 'inconclusive', attempts: 3 });
      expect(result.detail).toContain('HTTP 200 with malformed JSON');
    });

    it('recovers when malformed JSON is followed by a good answer', async () => {
      registries.npm.script(path, [{ status: 200, raw: '<html>' }, FROM_FIXTURES]);

      expect((await prober().probe(weather)).outcome).toBe('found');
    });

    it('reports valid JSON of the wrong shape as inconclusive', async () => {
      registries.npm.script(path, [{ status: 200, json: ['not', 'a', 'version'] }]);

      const result = await prober().probe(weather);

      expect(result).toMatchObject({ outcome: 'inconclusive', attempts: 1 });
      expect(result.detail).toContain('the answer is JSON but not an npm document');
    });

    it('retries network errors', async () => {
      const closed = await FakeRegistryServer.start('npm');
      const closedUrl = closed.baseUrl;
      await closed.close();

      const result = await prober({ npmBaseUrl: closedUrl }).probe(weather);

      expect(result).toMatchObject({ outcome: 'inconclusive', attempts: 3 });
      expect(result.detail).toContain('connection refused (ECONNREFUSED) (gave up after 3 attempts)');
    });

    it('does not retry an unexpected status such as 403', async () => {
      registries.npm.script(path, [{ status: 403, json: { error: 'Forbidden' } }]);

      const result = await prober().probe(weather);

      expect(result).toMatchObject({ outcome: 'inconclusive', attempts: 1 });
      expect(result.detail).toContain('the registry answered HTTP 403');
    });

    it.each([
      ['a Content-Length', false],
      ['no Content-Length (chunked)', true],
    ])('refuses a version document larger than 2 MiB sent with %s', async (_case, chunked) => {
      registries.npm.script(path, [{ status: 200, raw: `"${'x'.repeat(2 * 1_048_576)}"`, chunked }]);

      const result = await prober().probe(weather);

      expect(result).toMatchObject({ outcome: 'inconclusive', attempts: 1 });
      expect(result.detail).toContain('the answer is larger than 2 MiB');
    });

    it('keeps a 404 for the version definite when the packument cannot be read', async () => {
      registries.npm.script('/@acme%2fweather-mcp', [{ status: 500 }]);

      const result = await prober().probe(npm(P.weather.name, '9.9.9'));

      expect(result.outcome).toBe('not_found');
      expect(result.detail).toContain('has no version 9.9.9');
    });
  });

  describe('only the configured registries are contacted', () => {
    let elsewhere: FakeRegistryServer;

    beforeAll(async () => {
      elsewhere = await FakeRegistryServer.start('npm');
    });
    afterAll(() => elsewhere.close());

    it('does not follow a redirect to another origin', async () => {
      registries.npm.script('/@acme%2fweather-mcp/1.2.3', [
        { status: 302, headers: { location: `${elsewhere.baseUrl}/@acme%2fweather-mcp/1.2.3` } },
      ]);

      const result = await prober().probe(npm(P.weather.name, P.weather.version));

      expect(result).toMatchObject({ outcome: 'inconclusive', attempts: 1 });
      expect(result.detail).toContain(`redirected outside the configured registries (to ${elsewhere.baseUrl})`);
      expect(elsewhere.requests).toEqual([]);
    });

    it('follows a redirect within the same registry', async () => {
      registries.pypi.script('/pypi/mcp-server-qdrant/0.7.1/json', [
        { status: 301, headers: { location: '/pypi/mcp-server-qdrant/0.8.0/json' } },
      ]);

      const result = await prober().probe(pypi(P.qdrant.name, P.qdrant.version));

      expect(result).toMatchObject({ outcome: 'found', attempts: 2 });
      expect(registries.pypi.paths).toEqual([
        '/pypi/mcp-server-qdrant/0.7.1/json',
        '/pypi/mcp-server-qdrant/0.8.0/json',
      ]);
    });

    it.each([
      ['npm', '@scope/../../admin'],
      ['npm', '../../etc/passwd'],
      ['npm', 'pkg?version=1'],
      ['npm', 'pkg#fragment'],
      ['npm', '//evil.example/pkg'],
      ['npm', '@evil.example:80/pkg'],
      ['npm', 'a/b/c'],
      ['npm', ''],
      ['pypi', '../pkg'],
      ['pypi', 'pkg/../../x'],
      ['pypi', 'pkg?x'],
      ['pypi', 'pkg#x'],
    ] as const)('refuses the %s name %p without asking any registry', async (registry, name) => {
      const result = await prober().probe({ registry, name, version: '1.0.0', source: name });

      expect(result.outcome).toBe('not_found');
      expect(result.detail).toContain(
        `${JSON.stringify(name)} cannot be ${registry === 'npm' ? 'an npm' : 'a PyPI'} package name`,
      );
      expect(result.attempts).toBe(0);
      expect([...registries.npm.paths, ...registries.pypi.paths, ...elsewhere.paths]).toEqual([]);
    });
  });

  describe('per-host concurrency', () => {
    const refs = [
      npm(P.filesystem.name, P.filesystem.version),
      npm(P.filesystem.name, P.filesystem.older),
      npm(P.weather.name, P.weather.version),
      npm(P.weather.name, P.weather.deprecatedVersion),
      npm(P.kubernetes.name, P.kubernetes.version),
      npm(P.legacy.name, P.legacy.version),
    ];

    it('lets the fake registry see concurrent requests (the control: separate probers share no cap)', async () => {
      // Answers are held until all six are waiting: they overlap however slow the machine is.
      registries.npm.holdAnswers();

      const probing = Promise.all(refs.map((ref) => prober({ perHostConcurrency: 2 }).probe(ref)));
      await registries.npm.whenInFlight(6);
      registries.npm.releaseAll();
      const results = await probing;

      expect(results.every((result) => result.outcome === 'found')).toBe(true);
      expect(registries.npm.maxInFlight).toBe(6);
    });

    it('caps requests per host across concurrent probes of one prober', async () => {
      registries.npm.holdAnswers();
      registries.pypi.holdAnswers();
      const shared = prober({ perHostConcurrency: 2 });

      const probing = Promise.all([
        ...refs.map((ref) => shared.probe(ref)),
        shared.probe(pypi(P.qdrant.name, P.qdrant.version)),
        shared.probe(pypi(P.qdrant.name, P.qdrant.latest)),
        shared.probe(pypi(P.fetch.name, P.fetch.version)),
      ]);
      // One answer at a time, each once the cap is full again: a third request never joins two held ones.
      for (const [registry, total] of [
        [registries.npm, refs.length],
        [registries.pypi, 3],
      ] as const) {
        for (let left = total; left > 0; left--) {
          await registry.whenInFlight(Math.min(2, left));
          registry.releaseOne();
        }
      }
      const results = await probing;

      expect(results.map((result) => result.outcome)).toEqual(Array(9).fill('found'));
      expect(registries.npm.maxInFlight).toBe(2);
      expect(registries.pypi.maxInFlight).toBe(2);
    });
  });

  describe('ETag cache', () => {
    const ref = npm(P.weather.name, P.weather.version);

    it('answers a second probe within the TTL from the cache', async () => {
      const shared = prober({ cacheTtlMs: 60_000 });

      const first = await shared.probe(ref);
      const second = await shared.probe(ref);

      expect(second).toEqual({ ...first, attempts: 0 });
      expect(registries.npm.paths).toHaveLength(1);
    });

    it('revalidates with If-None-Match after the TTL and reuses the answer on 304', async () => {
      let now = 1_000_000;
      const shared = prober({ cacheTtlMs: 60_000, now: () => now });

      const first = await shared.probe(ref);
      now += 60_000;
      const second = await shared.probe(ref);
      const third = await shared.probe(ref);

      expect(second).toEqual(first);
      expect(third.attempts).toBe(0);
      const [plain, revalidation] = registries.npm.requests;
      expect(registries.npm.requests).toHaveLength(2);
      expect(plain?.ifNoneMatch).toBeNull();
      expect(revalidation?.ifNoneMatch).toMatch(/^"[0-9a-f]{40}"$/);
    });

    it('takes a changed answer after the TTL', async () => {
      let now = 0;
      const shared = prober({ cacheTtlMs: 1_000, now: () => now });
      await shared.probe(ref);
      registries.npm.script('/@acme%2fweather-mcp/1.2.3', [
        { status: 200, json: { name: P.weather.name, version: '1.2.3', deprecated: 'moved' } },
      ]);
      now += 1_000;

      const result = await shared.probe(ref);

      expect(result.deprecated).toBe('moved');
    });

    it('sends one request for concurrent probes of the same package', async () => {
      registries.npm.holdAnswers();
      const shared = prober({ cacheTtlMs: 0 });

      const probing = Promise.all([shared.probe(ref), shared.probe(ref), shared.probe(ref)]);
      await registries.npm.whenInFlight(1);
      registries.npm.releaseAll();
      const results = await probing;

      expect(results.map((result) => result.outcome)).toEqual(['found', 'found', 'found']);
      expect(results.map((result) => result.attempts).sort()).toEqual([0, 0, 1]);
      expect(registries.npm.paths).toHaveLength(1);
    });

    it('asks every time when the cache is disabled', async () => {
      const shared = prober({ cacheTtlMs: 0 });

      await shared.probe(ref);
      await shared.probe(ref);

      expect(registries.npm.paths).toHaveLength(2);
    });
  });

  describe('options', () => {
    it.each([
      [{ npmBaseUrl: 'not a url' }, 'npmBaseUrl is not a URL'],
      [{ pypiBaseUrl: 'ftp://pypi.org' }, 'pypiBaseUrl must be a plain http(s) URL'],
      [{ npmBaseUrl: 'https://user:secret@registry.example' }, 'npmBaseUrl must be a plain http(s) URL'],
      [{ maxAttempts: 0 }, 'maxAttempts must be an integer of at least 1'],
      [{ timeoutMs: Number.NaN }, 'timeoutMs must be a positive number'],
      [{ perHostConcurrency: 1.5 }, 'perHostConcurrency must be an integer of at least 1'],
    ] as const)('refuses %p', (options, message) => {
      expect(() => new PackageProber(options)).toThrow(PackageProbeConfigError);
      expect(() => new PackageProber(options)).toThrow(message);
    });

    it('defaults to the public registries', async () => {
      // Nothing is requested: the name is refused first. This only checks construction.
      await expect(new PackageProber().probe(npm('../x'))).resolves.toMatchObject({
        outcome: 'not_found',
        attempts: 0,
      });
    });
  });
});
