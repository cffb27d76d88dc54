import { FakeRegistries } from './fake-registry.server';
import {
  FIXTURE_PACKAGES as P,
  type NpmPackument,
  type NpmVersionDocument,
  type PypiFile,
  type PypiInfo,
} from './registry-fixtures';

interface PypiAnswer {
  info: PypiInfo;
  releases?: Record<string, PypiFile[]>;
  urls: PypiFile[];
}

describe('FakeRegistries', () => {
  let registries: FakeRegistries;

  beforeAll(async () => {
    registries = await FakeRegistries.start();
  });
  afterAll(() => registries.close());
  beforeEach(() => registries.reset());

  const get = (base: string, path: string, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${base}${path}`, { headers });
  const getJson = async <T>(base: string, path: string): Promise<T> => (await get(base, path)).json() as Promise<T>;

  it('answers npm packuments and version documents, scoped names as @scope%2fname', async () => {
    const packument = await getJson<NpmPackument>(registries.npm.baseUrl, '/@acme%2fweather-mcp');
    const version = await getJson<NpmVersionDocument>(registries.npm.baseUrl, '/@acme%2fweather-mcp/latest');

    expect(packument).toMatchObject({ name: P.weather.name, 'dist-tags': { latest: '1.2.3' } });
    expect(Object.keys(packument.versions ?? {})).toEqual(['1.0.0', '1.2.3']);
    expect(version).toMatchObject({ name: P.weather.name, version: '1.2.3', mcpName: 'acme/weather' });
    expect(version.dist).toEqual(expect.objectContaining({ integrity: expect.stringMatching(/^sha512-/) }));
  });

  it('answers 404 as npm and PyPI do', async () => {
    const npm = await get(registries.npm.baseUrl, '/@anthropic%2fbrave-search-mcp');
    const npmVersion = await get(registries.npm.baseUrl, '/@acme%2fweather-mcp/9.9.9');
    const pypi = await get(registries.pypi.baseUrl, '/pypi/nothing-here/json');

    expect([npm.status, await npm.json()]).toEqual([404, { error: 'Not found' }]);
    expect([npmVersion.status, await npmVersion.json()]).toEqual([404, 'version not found: 9.9.9']);
    expect([pypi.status, await pypi.json()]).toEqual([404, { message: 'Not Found' }]);
  });

  it('answers the PyPI project JSON with every release and the release JSON without', async () => {
    const project = await getJson<PypiAnswer>(registries.pypi.baseUrl, '/pypi/mcp-server-qdrant/json');
    const release = await getJson<PypiAnswer>(registries.pypi.baseUrl, '/pypi/mcp-server-qdrant/0.7.1/json');

    expect(Object.keys(project)).toEqual(['info', 'last_serial', 'vulnerabilities', 'releases', 'urls']);
    expect(Object.keys(project.releases ?? {})).toEqual(['0.7.1', '0.8.0']);
    expect(project.info.version).toBe('0.8.0');
    expect(Object.keys(release)).toEqual(['info', 'last_serial', 'vulnerabilities', 'urls']);
    expect(release.urls.map((file) => file.packagetype)).toEqual(['bdist_wheel', 'sdist']);
  });

  it('tags answers with an ETag and answers a matching If-None-Match with 304', async () => {
    const first = await get(registries.npm.baseUrl, '/mcp-server-kubernetes');
    const etag = first.headers.get('etag') as string;
    const second = await get(registries.npm.baseUrl, '/mcp-server-kubernetes', { 'if-none-match': etag });

    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect(second.status).toBe(304);
    expect(registries.npm.requests.map((request) => request.ifNoneMatch)).toEqual([null, etag]);
  });

  it('plays a script in order and repeats its last step', async () => {
    registries.npm.script('/x', [{ status: 429, headers: { 'retry-after': '1' } }, { status: 500 }]);

    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(registries.npm.baseUrl, '/x')).status);

    expect(statuses).toEqual([429, 500, 500]);
    expect(registries.npm.paths).toEqual(['/x', '/x', '/x']);
  });
});
