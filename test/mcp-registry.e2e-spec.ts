/**
 * Skill Hub as an MCP sub-registry (docs/mcp-registry.md), over HTTP: skills that run MCP servers
 * are published and certified by the real certifier (C8 probes on a local fake npm/PyPI), and
 * `/v0.1` answers exactly the servers certified skills run, every answer validated with ajv against
 * the MCP Registry's own OpenAPI document and server.json schema (test/fixtures/mcp-registry).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020';
import { parse } from 'yaml';
import { FakeRegistries } from '@skillhub/package-probe/testing';
import { decodeStatement } from '@skillhub/signing';
import { kazmaBundle, uniqueName } from '@skillhub/testing';
import { waitFor } from './support/private-redis';
import { startTestHub, type TestHub } from './support/test-hub';

const FIXTURES = join(__dirname, 'fixtures', 'mcp-registry');
const openapi = parse(readFileSync(join(FIXTURES, 'openapi.yaml'), 'utf8')) as {
  paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: object }> }> } }>;
};
const serverSchema = JSON.parse(readFileSync(join(FIXTURES, 'server.schema.json'), 'utf8')) as object;

/** RFC 3339 `date-time`, and `uri` as WHATWG URL parses it: the two formats the documents use. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
function withFormats<T extends Ajv>(ajv: T): T {
  ajv.addFormat('date-time', { validate: (s: string) => RFC3339.test(s) && !Number.isNaN(Date.parse(s)) });
  ajv.addFormat('uri', { validate: (s: string) => URL.canParse(s) });
  return ajv;
}
// The documents carry OpenAPI's `example`, which is no JSON Schema keyword: strict mode is off for it.
const ajv2020 = withFormats(new Ajv2020({ strict: false, allErrors: true }));
ajv2020.addSchema({ ...openapi, $id: 'mcp-registry-openapi' });
const response = (path: string, status: string): ValidateFunction => {
  const pointer = `/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/get/responses/${status}/content/application~1json/schema`;
  return ajv2020.compile({ $ref: `mcp-registry-openapi#${pointer}` });
};
const VALIDATE = {
  list: response('/v0.1/servers', '200'),
  versions: response('/v0.1/servers/{serverName}/versions', '200'),
  versionsNotFound: response('/v0.1/servers/{serverName}/versions', '404'),
  detail: response('/v0.1/servers/{serverName}/versions/{version}', '200'),
  detailNotFound: response('/v0.1/servers/{serverName}/versions/{version}', '404'),
  serverJson: withFormats(new Ajv({ strict: false, allErrors: true })).compile(serverSchema),
};

function expectValid(validate: ValidateFunction, body: unknown): void {
  const ok = validate(body);
  expect(ok ? [] : validate.errors).toEqual([]);
}

interface Entry {
  server: {
    name: string;
    version: string;
    description: string;
    packages?: Array<Record<string, unknown>>;
    remotes?: Array<Record<string, unknown>>;
  };
  _meta: {
    'io.modelcontextprotocol.registry/official': { isLatest: boolean; publishedAt: string; updatedAt: string };
    'dev.skillhub/certification': {
      status: string;
      level: string;
      certificate: string;
      logIndex: number;
      package: { registry: string; name: string; version: string; integrity: string } | null;
      tools: Record<string, string> | null;
      skillCount: number;
      skills: Array<{ skill: string; version: string; certificate: string; logIndex: number; argv: string[] }>;
    };
  };
}
interface ServerList {
  servers: Entry[];
  metadata: { count: number; nextCursor?: string };
}

const KAZMA_SECRET = 'mcp-registry-kazma-secret-for-tests';
const FS = 'dev.skillhub.npm.modelcontextprotocol/server-filesystem';
const WEATHER = 'dev.skillhub.npm.acme/weather-mcp';
const KUBE = 'dev.skillhub.npm/mcp-server-kubernetes';
const FETCH = 'dev.skillhub.pypi/mcp-server-fetch';
const REMOTE = 'dev.skillhub.remote.com.example.mcp/search';
const npx = (spec: string, ...args: string[]) => ({ type: 'stdio', command: 'npx', args: ['-y', spec, ...args] });

describe('MCP sub-registry (/v0.1)', () => {
  let hub: TestHub;
  let registries: FakeRegistries;
  let token: string;
  const ns = uniqueName('mcpreg');

  const publish = async (name: string, servers: Record<string, unknown>, secret = KAZMA_SECRET) => {
    const bytes = kazmaBundle({
      author: ns,
      name,
      manifest: {
        permissions: [],
        mcp_servers: Object.entries(servers).map(([n, s]) => ({ name: n, ...(s as object) })),
      },
      sign: { secret },
    });
    const res = await hub.http
      .post('/api/v1/skills')
      .set('authorization', `Bearer ${token}`)
      .set('content-type', 'application/gzip')
      .send(bytes);
    expect(res.status).toBe(201);
  };
  const verdict = async (name: string): Promise<string> => {
    for (let i = 0; i < 300; i++) {
      const res = await hub.http.get(`/api/v1/skills/${ns}/${name}/versions/1.0.0/certification`).expect(200);
      if (res.body.status !== 'pending') return res.body.status as string;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${name} stayed pending`);
  };
  const list = async (query = ''): Promise<ServerList> => {
    const res = await hub.http.get(`/v0.1/servers${query}`).expect(200);
    expectValid(VALIDATE.list, res.body);
    for (const entry of (res.body as ServerList).servers) expectValid(VALIDATE.serverJson, entry.server);
    return res.body as ServerList;
  };
  const everything = async (query = ''): Promise<Entry[]> => {
    const all: Entry[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(`?limit=2${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.metadata.count).toBe(page.servers.length);
      all.push(...page.servers);
      cursor = page.metadata.nextCursor;
    } while (cursor);
    return all;
  };
  const revoke = (name: string) =>
    hub.http
      .post(`/api/v1/skills/${ns}/${name}/versions/1.0.0/revoke`)
      .set('authorization', `Bearer ${token}`)
      .send({ reason: 'its server misbehaves' })
      .expect(200);
  const key = (e: Entry) => `${e.server.name}@${e.server.version}`;

  beforeAll(async () => {
    registries = await FakeRegistries.start();
    hub = await startTestHub({
      worker: true,
      env: {
        KAZMA_SECRET,
        NPM_REGISTRY_URL: registries.baseUrls.npmBaseUrl,
        PYPI_REGISTRY_URL: registries.baseUrls.pypiBaseUrl,
        LIVE_PROBE: 'false',
        PUBLISH_RATE_LIMIT_PER_MINUTE: '1000',
      },
    });
    token = await hub.token(ns, ['publish', 'manage']);
    // One after another, so the certificates are issued in this order.
    const skills: Array<[string, Record<string, unknown>, string?]> = [
      [
        'files-new',
        {
          files: npx('@modelcontextprotocol/server-filesystem@2025.8.21', '/data'),
          weather: npx('@acme/weather-mcp@1.2.3'),
        },
      ],
      ['files-old', { files: npx('@modelcontextprotocol/server-filesystem@2025.7.1', '/srv') }],
      [
        'searcher',
        {
          search: { type: 'streamable-http', url: 'https://mcp.example.com/search' },
          weather: npx('@acme/weather-mcp@1.2.3'),
        },
      ],
      ['kube', { kube: npx('mcp-server-kubernetes@2.4.0') }],
      ['fetcher', { fetch: { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch==2025.4.7'] } }],
      // Signed with another secret: failed, so its server is listed nowhere.
      ['notes', { notes: npx('@acme/notes-mcp@2.0.0') }, 'not-the-hub-secret'],
    ];
    for (const [name, servers, secret] of skills) {
      await publish(name, servers, secret);
      expect(await verdict(name)).toBe(name === 'notes' ? 'failed' : 'certified');
    }
  });
  afterAll(async () => {
    await hub?.close();
    await registries?.close();
  });

  it("holds the registry's documents to their word: a server.json that breaks them is refused", () => {
    const broken = { server: { name: 'no-slash', description: 'x'.repeat(101), version: '1.0.0' } };
    expect(VALIDATE.list({ servers: [broken] })).toBe(false);
    expect(VALIDATE.serverJson(broken.server)).toBe(false);
    expect(
      VALIDATE.detail({ ...broken, _meta: { 'io.modelcontextprotocol.registry/official': { isLatest: 'yes' } } }),
    ).toBe(false);
  });

  it('lists every server a certified skill runs, one entry per pinned version, over pages of a cursor', async () => {
    const all = await everything();
    expect(all.map(key)).toEqual([
      `${WEATHER}@1.2.3`,
      `${FS}@2025.7.1`,
      `${FS}@2025.8.21`,
      `${KUBE}@2.4.0`,
      `${FETCH}@2025.4.7`,
      `${REMOTE}@0.0.0-tools.unrecorded`,
    ]);
    // Pages of two: three of them, and each cursor continues where the last page stopped.
    const first = await list('?limit=2');
    const second = await list(`?limit=2&cursor=${first.metadata.nextCursor}`);
    expect(second.servers.map(key)).toEqual(all.slice(2, 4).map(key));
    expect((await list('?limit=6')).metadata.nextCursor).toBeUndefined();

    const weather = all[0]!;
    expect(weather.server.packages).toEqual([
      {
        registryType: 'npm',
        // Where clients install it, not the registry the certifier probed through.
        registryBaseUrl: 'https://registry.npmjs.org',
        identifier: '@acme/weather-mcp',
        version: '1.2.3',
        runtimeHint: 'npx',
        transport: { type: 'stdio' },
      },
    ]);
    const remote = all.find((e) => e.server.name === REMOTE)!;
    expect(remote.server.remotes).toEqual([{ type: 'streamable-http', url: 'https://mcp.example.com/search' }]);
    expect(remote.server.packages).toBeUndefined();
    expect(all.find((e) => e.server.name === FETCH)!.server.packages![0]).toMatchObject({
      registryType: 'pypi',
      identifier: 'mcp-server-fetch',
      runtimeHint: 'uvx',
    });
  });

  it("puts each entry's certification under _meta, and its certificate link answers the certificate that pins it", async () => {
    const weather = (await list(`?search=weather`)).servers[0]!;
    const cert = weather._meta['dev.skillhub/certification'];
    expect(cert).toMatchObject({ status: 'certified', skillCount: 2, tools: null });
    expect(cert.skills.map((s) => s.skill)).toEqual([`${ns}/searcher`, `${ns}/files-new`]);
    expect(cert.certificate).toBe(cert.skills[0]!.certificate);

    const path = new URL(cert.certificate).pathname;
    expect(path).toBe(`/api/v1/skills/${ns}/searcher/versions/1.0.0/certificate`);
    const { body } = await hub.http.get(path).expect(200);
    expect(body.log_index).toBe(cert.logIndex);
    const statement = decodeStatement(Buffer.from(body.envelope.payload, 'base64'));
    const pinned = statement.servers.find((s) => s.name === 'weather')!;
    expect(cert.package).toEqual(pinned.package);
    expect(cert.package!.integrity).toMatch(/^sha512-/);
    expect(cert.skills[0]!.argv).toEqual(pinned.argv);
    expect(['basic', 'standard']).toContain(cert.level);
  });

  it('searches names by any part, in any case, and filters by update time and version', async () => {
    expect((await everything('&search=FileSystem')).map(key)).toEqual([`${FS}@2025.7.1`, `${FS}@2025.8.21`]);
    expect((await list('?search=no-such-server')).servers).toEqual([]);

    const all = await everything();
    const times = all.map((e) => e._meta['io.modelcontextprotocol.registry/official'].updatedAt).sort();
    const middle = times[3]!;
    const since = await everything(`&updated_since=${encodeURIComponent(middle)}`);
    expect(since.map(key).sort()).toEqual(
      all
        .filter((e) => e._meta['io.modelcontextprotocol.registry/official'].updatedAt >= middle)
        .map(key)
        .sort(),
    );
    expect(since.length).toBeGreaterThan(0);
    expect(since.length).toBeLessThan(all.length);
    expect((await list(`?updated_since=${encodeURIComponent('2999-01-01T00:00:00Z')}`)).servers).toEqual([]);

    expect((await everything('&version=latest')).map(key)).not.toContain(`${FS}@2025.7.1`);
    expect((await list('?version=2025.7.1')).servers.map(key)).toEqual([`${FS}@2025.7.1`]);
  });

  it("lists a server's versions newest published first; latest is the highest version, encoded or not", async () => {
    const res = await hub.http.get(`/v0.1/servers/${encodeURIComponent(FS)}/versions`).expect(200);
    expectValid(VALIDATE.versions, res.body);
    const versions = (res.body as ServerList).servers;
    // 2025.7.1 was certified after 2025.8.21, so it is first; the higher version is still the latest.
    expect(versions.map((e) => e.server.version)).toEqual(['2025.7.1', '2025.8.21']);
    expect(versions.map((e) => e._meta['io.modelcontextprotocol.registry/official'].isLatest)).toEqual([false, true]);
    expect((await hub.http.get(`/v0.1/servers/${FS}/versions`).expect(200)).body).toEqual(res.body);

    for (const path of [`${encodeURIComponent(FS)}/versions/latest`, `${FS}/versions/latest`]) {
      const latest = await hub.http.get(`/v0.1/servers/${path}`).expect(200);
      expectValid(VALIDATE.detail, latest.body);
      expectValid(VALIDATE.serverJson, latest.body.server);
      expect(latest.body.server.version).toBe('2025.8.21');
    }
    const exact = await hub.http.get(`/v0.1/servers/${encodeURIComponent(FS)}/versions/2025.7.1`).expect(200);
    expect(exact.body).toEqual(versions[0]);
  });

  it("answers what it does not hold with 404 in the registry's error shape, and bad paging with 400 naming the field", async () => {
    const unknown = await hub.http.get(`/v0.1/servers/${encodeURIComponent('dev.skillhub.npm/nope')}/versions`);
    expect(unknown.status).toBe(404);
    expectValid(VALIDATE.versionsNotFound, unknown.body);
    expect(unknown.body.error).toBe('Server not found');
    const notes = await hub.http.get(
      `/v0.1/servers/${encodeURIComponent('dev.skillhub.npm.acme/notes-mcp')}/versions/latest`,
    );
    expect([notes.status, notes.body.error]).toEqual([404, 'Server not found']);
    const version = await hub.http.get(`/v0.1/servers/${encodeURIComponent(FS)}/versions/9.9.9`);
    expect(version.status).toBe(404);
    expectValid(VALIDATE.detailNotFound, version.body);
    expect(version.body.error).toBe('Server version not found');

    for (const [query, field] of [
      ['cursor=not-a-cursor!', 'cursor'],
      [`cursor=${Buffer.from('{"a":1}').toString('base64url')}`, 'cursor'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=ten', 'limit'],
      ['updated_since=yesterday', 'updated_since'],
      ['include_deleted=maybe', 'include_deleted'],
    ] as const) {
      const res = await hub.http.get(`/v0.1/servers?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field);
    }
    expect((await list('?include_deleted=false')).servers.length).toBeGreaterThan(0);
  });

  it("drops a revoked skill's servers unless another certified skill still runs them", async () => {
    await revoke('kube');
    await revoke('searcher');
    const names = (await everything()).map((e) => e.server.name);
    expect(names).not.toContain(KUBE);
    expect(names).not.toContain(REMOTE);
    await hub.http.get(`/v0.1/servers/${encodeURIComponent(KUBE)}/versions`).expect(404);

    const weather = await hub.http.get(`/v0.1/servers/${encodeURIComponent(WEATHER)}/versions/1.2.3`).expect(200);
    const cert = weather.body._meta['dev.skillhub/certification'];
    expect([cert.skillCount, cert.skills.map((s: { skill: string }) => s.skill)]).toEqual([1, [`${ns}/files-new`]]);
    expect(new URL(cert.certificate).pathname).toBe(`/api/v1/skills/${ns}/files-new/versions/1.0.0/certificate`);
  });

  it('drops a server when its certificate expires, with nothing written at the expiry', async () => {
    const generation = async () =>
      (await hub.dataSource.query(`SELECT "generation"::text AS g FROM "certification_changes"`))[0].g as string;
    // The certificate of the only skill that runs the weather server now ends in 10 s (a write, as a renewal is).
    await hub.dataSource.query(
      `UPDATE "certifications" c SET "expires_at" = now() + interval '10 seconds'
         FROM "skill_versions" v JOIN "skills" s ON s."id" = v."skill_id"
        WHERE c."skill_version_id" = v."id" AND s."name" = 'files-new'`,
    );
    const written = await generation();
    const weather = `/v0.1/servers/${encodeURIComponent(WEATHER)}/versions/1.2.3`;
    await hub.http.get(weather).expect(200);
    await waitFor(async () => (await hub.http.get(weather)).status === 404, 60_000, 'the expiry');
    expect(await generation()).toBe(written);
    expect((await everything()).map((e) => e.server.name)).not.toContain(WEATHER);
  });
});

describe('MCP sub-registry on the embedded database', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startTestHub({ embedded: true });
  });
  afterAll(() => hub?.close());

  it("answers the registry's ping, health and version, under /v0.1 and /v0", async () => {
    for (const base of ['/v0.1', '/v0']) {
      expect((await hub.http.get(`${base}/ping`).expect(200)).body).toEqual({ pong: true });
      expect((await hub.http.get(`${base}/health`).expect(200)).body).toMatchObject({ status: 'ok' });
      expect((await hub.http.get(`${base}/version`).expect(200)).body).toEqual({ version: expect.any(String) });
      expect((await hub.http.get(`${base}/servers`).expect(200)).body).toMatchObject({ servers: [] });
    }
  });

  it('answers the same shapes when nothing is certified yet', async () => {
    const res = await hub.http.get('/v0.1/servers').expect(200);
    expectValid(VALIDATE.list, res.body);
    expect(res.body).toEqual({ servers: [], metadata: { count: 0 } });
    const missing = await hub.http.get(`/v0.1/servers/${encodeURIComponent('dev.skillhub.npm/x')}/versions/latest`);
    expect([missing.status, missing.body.error]).toEqual([404, 'Server not found']);
  });
});
