import { createHash } from 'node:crypto';
import { HubClient, type HubClientOptions } from './hub-client';
import { HubRequestError } from './hub-client.errors';
import { FakeHub } from './testing/fake-hub.server';
import * as fixtures from './testing/hub-fixtures';

const TOKEN = 'shp_routes_token_0123456789';

describe('HubClient routes and answers (against a local server)', () => {
  let hub: FakeHub;
  const client = (options: Partial<HubClientOptions> = {}) =>
    new HubClient({ baseUrl: hub.url, token: TOKEN, sleep: async () => {}, ...options });

  beforeEach(async () => {
    hub = await FakeHub.start();
  });
  afterEach(() => hub.stop());

  describe('health and discovery', () => {
    it('health and ready; ready returns the report on 503 too, without retrying', async () => {
      hub.on('GET', '/api/v1/health', { status: 200, json: { status: 'ok', version: '0.1.0' } });
      const down = { ...fixtures.readiness, status: 'unavailable', database: { status: 'down', detail: 'no answer' } };
      hub.on('GET', '/api/v1/health/ready', { status: 503, json: down });
      await expect(client().health()).resolves.toEqual({ status: 'ok', version: '0.1.0' });
      await expect(client().ready()).resolves.toEqual(down);
      expect(hub.requestsTo('GET', '/api/v1/health/ready')).toHaveLength(1);
    });

    it('listSkills sends every filter as the hub reads it, and returns the page', async () => {
      const page = { items: [fixtures.listItem('weather')], total: 1, page: 2, per_page: 10 };
      hub.on('GET', '/api/v1/skills', { status: 200, json: page });
      const result = await client().listSkills({
        q: 'rain & "snow"?',
        capabilities: ['weather', 'forecast'],
        tags: ['demo'],
        author: 'acme',
        category: 'utilities',
        format: 'kazma',
        certified: false,
        sort: 'downloads',
        all_versions: true,
        page: 2,
        per_page: 10,
      });
      expect(result).toEqual(page);
      expect(Object.fromEntries(hub.requests[0]!.query)).toEqual({
        q: 'rain & "snow"?',
        capabilities: 'weather,forecast',
        tags: 'demo',
        author: 'acme',
        category: 'utilities',
        format: 'kazma',
        certified: 'false',
        sort: 'downloads',
        all_versions: 'true',
        page: '2',
        per_page: '10',
      });
    });

    it('iterateSkills follows next_cursor across pages, always in cursor mode', async () => {
      hub.on(
        'GET',
        '/api/v1/skills',
        { status: 200, json: { items: [fixtures.listItem('a'), fixtures.listItem('b')], total: 5, next_cursor: 'c1' } },
        { status: 200, json: { items: [fixtures.listItem('c'), fixtures.listItem('d')], total: 5, next_cursor: 'c2' } },
        { status: 200, json: { items: [fixtures.listItem('e')], total: 5, next_cursor: null } },
      );
      const names: string[] = [];
      for await (const item of client().iterateSkills({ tags: ['demo'], limit: 2 })) names.push(item.name);
      expect(names).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(hub.requests.map((r) => [r.query.get('limit'), r.query.get('cursor'), r.query.get('tags')])).toEqual([
        ['2', null, 'demo'],
        ['2', 'c1', 'demo'],
        ['2', 'c2', 'demo'],
      ]);
    });

    it('iterateSkills asks for the largest page by default, and stops on a cursor that repeats', async () => {
      const looping = { status: 200, json: { items: [fixtures.listItem('a')], total: 9, next_cursor: 'same' } };
      hub.on('GET', '/api/v1/skills', looping);
      const seen: string[] = [];
      const iterate = async () => {
        for await (const item of client().iterateSkills()) seen.push(item.name);
      };
      await expect(iterate()).rejects.toMatchObject({ code: 'HUB.MALFORMED_RESPONSE' });
      expect(seen).toEqual(['a', 'a']);
      expect(hub.requests[0]!.query.get('limit')).toBe('100');
    });

    it('iterateSkills refuses a page without next_cursor (page mode answered instead)', async () => {
      hub.on('GET', '/api/v1/skills', { status: 200, json: { items: [], total: 0, page: 1, per_page: 20 } });
      const iterate = async () => {
        for await (const _ of client().iterateSkills()) void _;
      };
      await expect(iterate()).rejects.toThrow(/next_cursor/);
    });

    it('kazmaSearch and stats', async () => {
      const found = { items: [fixtures.listItem('weather')], total: 1, query: 'weather' };
      hub.on('GET', '/api/v1/skills/search', { status: 200, json: found });
      hub.on('GET', '/api/v1/stats', { status: 200, json: fixtures.stats });
      await expect(client().kazmaSearch('weather', { category: 'utilities', certified: true })).resolves.toEqual(found);
      expect(hub.requests[0]!.query.toString()).toBe('q=weather&category=utilities&certified=true');
      await expect(client().stats()).resolves.toEqual(fixtures.stats);
    });
  });

  describe('skills', () => {
    it('getSkill and getVersion', async () => {
      hub.on('GET', '/api/v1/skills/acme/weather', { status: 200, json: fixtures.skill });
      hub.on('GET', '/api/v1/skills/acme/weather/versions/1.0.0', { status: 200, json: fixtures.skillVersion });
      await expect(client().getSkill('acme', 'weather')).resolves.toEqual(fixtures.skill);
      await expect(client().getVersion('acme', 'weather', '1.0.0')).resolves.toEqual(fixtures.skillVersion);
    });

    it('drops members the hub added after this client was built', async () => {
      hub.on('GET', '/api/v1/stats', { status: 200, json: { ...fixtures.stats, new_field: 1 } });
      await expect(client().stats()).resolves.toEqual(fixtures.stats);
    });

    it('downloadBundle returns the bytes and their SHA-256 when the ETag agrees', async () => {
      const bytes = Buffer.from('a gzipped tar, say');
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      hub.on('GET', '/api/v1/skills/acme/weather/versions/1.0.0/bundle', {
        status: 200,
        raw: bytes,
        headers: { etag: `"${sha256}"`, 'x-content-sha256': sha256, 'content-type': 'application/gzip' },
      });
      const bundle = await client().downloadBundle('acme', 'weather', '1.0.0', {
        expectedSha256: sha256.toUpperCase(),
      });
      expect(bundle).toEqual({ bytes, sha256 });
      expect(hub.requests[0]!.headers.accept).toBe('application/gzip');
    });

    it('publish: 201 is created, 200 is the same bytes published before; the bundle goes as application/gzip', async () => {
      hub.on(
        'POST',
        '/api/v1/skills',
        { status: 201, json: fixtures.published },
        { status: 200, json: fixtures.published },
      );
      const bundle = Buffer.from([0x1f, 0x8b, 0x08, 0x00]);
      await expect(client().publish(bundle, { namespace: 'acme', version: '1.0.0' })).resolves.toEqual({
        created: true,
        result: fixtures.published,
      });
      await expect(client().publish(bundle)).resolves.toEqual({ created: false, result: fixtures.published });
      const [first, second] = hub.requests;
      expect(first!.headers['content-type']).toBe('application/gzip');
      expect(first!.body).toEqual(bundle);
      expect(first!.query.toString()).toBe('namespace=acme&version=1.0.0');
      expect(second!.query.toString()).toBe('');
    });

    it('validate and setVersionStatus', async () => {
      hub.on('POST', '/api/v1/skills/validate', { status: 200, json: fixtures.validated });
      hub.on('PATCH', '/api/v1/skills/acme/weather/versions/1.0.0', {
        status: 200,
        json: { ...fixtures.skillVersion, status: 'deprecated', status_message: 'use 2.x' },
      });
      await expect(client().validate(Buffer.from('b'), { namespace: 'acme' })).resolves.toEqual(fixtures.validated);
      const changed = await client().setVersionStatus('acme', 'weather', '1.0.0', {
        status: 'deprecated',
        message: 'use 2.x',
      });
      expect(changed).toMatchObject({ status: 'deprecated', status_message: 'use 2.x' });
      const patch = hub.requestsTo('PATCH', '/api/v1/skills/acme/weather/versions/1.0.0')[0]!;
      expect(patch.headers['content-type']).toBe('application/json');
      expect(JSON.parse(patch.body.toString())).toEqual({ status: 'deprecated', message: 'use 2.x' });
    });
  });

  describe('certification and trust', () => {
    it('certification of a version, of the listed version, and of a submission', async () => {
      hub.on('GET', '/api/v1/skills/acme/weather/versions/1.0.0/certification', {
        status: 200,
        json: fixtures.certification,
      });
      hub.on('GET', '/api/v1/skills/acme/weather/certification', { status: 200, json: fixtures.certification });
      hub.on('GET', `/api/v1/submissions/${fixtures.submission.submission_id}/certification`, {
        status: 200,
        json: fixtures.quarantined,
      });
      await expect(client().certification('acme', 'weather', '1.0.0')).resolves.toEqual(fixtures.certification);
      await expect(client().certification('acme', 'weather')).resolves.toEqual(fixtures.certification);
      await expect(client().submissionCertification(fixtures.submission.submission_id)).resolves.toEqual(
        fixtures.quarantined,
      );
    });

    it('certificate, keys, revocations, checkpoint, log entries and proofs', async () => {
      hub.on('GET', '/api/v1/skills/acme/weather/versions/1.0.0/certificate', {
        status: 200,
        json: fixtures.certificate,
      });
      hub.on('GET', '/.well-known/skillhub/keys.json', { status: 200, json: fixtures.keys });
      hub.on('GET', '/.well-known/skillhub/revocations.json', { status: 200, json: fixtures.envelope });
      hub.on('GET', '/api/v1/log/checkpoint', { status: 200, json: fixtures.checkpoint });
      hub.on('GET', '/api/v1/log/entries/5', { status: 200, json: fixtures.logEntry });
      hub.on('GET', '/api/v1/log/proof/inclusion', { status: 200, json: fixtures.proof });
      hub.on('GET', '/api/v1/log/proof/consistency', { status: 200, json: fixtures.proof });
      const c = client();
      await expect(c.certificate('acme', 'weather', '1.0.0')).resolves.toEqual(fixtures.certificate);
      await expect(c.keys()).resolves.toEqual(fixtures.keys);
      await expect(c.revocations()).resolves.toEqual(fixtures.envelope);
      await expect(c.logCheckpoint()).resolves.toEqual(fixtures.checkpoint);
      await expect(c.logEntry(5)).resolves.toEqual(fixtures.logEntry);
      await expect(c.inclusionProof(5, 8)).resolves.toEqual(fixtures.proof);
      await expect(c.consistencyProof(4, 8)).resolves.toEqual(fixtures.proof);
      expect(hub.requestsTo('GET', '/api/v1/log/proof/inclusion')[0]!.query.toString()).toBe('index=5&tree_size=8');
      expect(hub.requestsTo('GET', '/api/v1/log/proof/consistency')[0]!.query.toString()).toBe('first=4&second=8');
    });

    it('revoke, rotateSigningKeys, and the Kazma secret (204, no body)', async () => {
      hub.on('POST', '/api/v1/skills/acme/weather/versions/1.0.0/revoke', { status: 200, json: fixtures.logEntry });
      hub.on('POST', '/api/v1/admin/signing-keys/rotate', { status: 200, json: fixtures.keys });
      hub.on('PUT', '/api/v1/namespaces/acme/kazma-secret', { status: 204 });
      hub.on('DELETE', '/api/v1/namespaces/acme/kazma-secret', { status: 204 });
      const c = client();
      await expect(c.revoke('acme', 'weather', '1.0.0', 'leaks keys')).resolves.toEqual(fixtures.logEntry);
      await expect(c.rotateSigningKeys()).resolves.toEqual(fixtures.keys);
      await expect(c.setKazmaSecret('acme', 'sixteen-chars-secret')).resolves.toBeUndefined();
      await expect(c.deleteKazmaSecret('acme')).resolves.toBeUndefined();
      expect(hub.requests.map((r) => r.body.toString())).toEqual([
        '{"reason":"leaks keys"}',
        '',
        '{"secret":"sixteen-chars-secret"}',
        '',
      ]);
    });
  });

  describe('submissions and tokens', () => {
    const id = fixtures.submission.submission_id;

    it('submit sends Kazma’s body; getSubmission; claim with and without a bundle', async () => {
      hub.on('POST', '/api/v1/skills/submit', { status: 201, json: fixtures.submission });
      hub.on('GET', `/api/v1/submissions/${id}`, { status: 200, json: fixtures.submission });
      hub.on('POST', `/api/v1/submissions/${id}/claim`, { status: 201, json: fixtures.published });
      const manifest = { name: 'weather', version: '1.0.0' };
      const c = client();
      await expect(
        c.submit(manifest, { source_url: 'https://example.com/w.git', submitter_id: 'me' }),
      ).resolves.toEqual(fixtures.submission);
      await expect(c.getSubmission(id)).resolves.toEqual(fixtures.submission);
      await expect(c.claimSubmission(id, Buffer.from('tgz'))).resolves.toEqual(fixtures.published);
      await expect(c.claimSubmission(id)).resolves.toEqual(fixtures.published);
      expect(JSON.parse(hub.requests[0]!.body.toString())).toEqual({
        manifest,
        source_url: 'https://example.com/w.git',
        submitter_id: 'me',
      });
      const [withBundle, without] = hub.requestsTo('POST', `/api/v1/submissions/${id}/claim`);
      expect(withBundle!.headers['content-type']).toBe('application/gzip');
      expect(withBundle!.body.toString()).toBe('tgz');
      expect(without!.headers['content-type']).toBeUndefined();
      expect(without!.body).toHaveLength(0);
    });

    it('createToken, listTokens, revokeToken', async () => {
      hub.on('POST', '/api/v1/tokens', { status: 201, json: fixtures.createdToken });
      hub.on('GET', '/api/v1/tokens', { status: 200, json: [fixtures.token] });
      hub.on('DELETE', `/api/v1/tokens/${fixtures.token.id}`, {
        status: 200,
        json: { ...fixtures.token, revoked_at: '2025-10-22T00:00:00.000Z' },
      });
      const c = client();
      const request = { namespace: 'acme', scopes: ['publish' as const], name: 'ci', expires_in_days: 30 };
      await expect(c.createToken(request)).resolves.toEqual(fixtures.createdToken);
      await expect(c.listTokens()).resolves.toEqual([fixtures.token]);
      await expect(c.revokeToken(fixtures.token.id)).resolves.toMatchObject({ revoked_at: '2025-10-22T00:00:00.000Z' });
      expect(JSON.parse(hub.requests[0]!.body.toString())).toEqual(request);
    });
  });

  describe('paths and headers', () => {
    it('escapes every path segment: names with /, ?, #, spaces and accents stay one segment', async () => {
      hub.on('GET', '/api/v1/skills/ac%2Fme/we%3Fath%23er/versions/1.0.0%20b%C3%AAta', {
        status: 200,
        json: fixtures.skillVersion,
      });
      await client().getVersion('ac/me', 'we?ath#er', '1.0.0 bêta');
      expect(hub.requests.map((r) => r.path)).toEqual([
        '/api/v1/skills/ac%2Fme/we%3Fath%23er/versions/1.0.0%20b%C3%AAta',
      ]);
      expect(hub.requests[0]!.query.toString()).toBe('');
    });

    it.each(['..', '.', ''])(
      'refuses %p as a segment before sending anything (URL parsing would resolve it away)',
      async (name) => {
        await expect(client().getSkill('acme', name)).rejects.toBeInstanceOf(HubRequestError);
        await expect(client().downloadBundle(name, 'x', '1.0.0')).rejects.toThrow(/cannot be a path segment/);
        expect(() => client().badgeUrl('acme', name)).toThrow(HubRequestError);
        expect(hub.requests).toHaveLength(0);
      },
    );

    it('keeps `..` inside a longer segment, escaped as part of the name', async () => {
      hub.on('GET', '/api/v1/skills/acme/..%2F..%2Fadmin', { status: 200, json: fixtures.skill });
      await client().getSkill('acme', '../../admin');
      expect(hub.requests.map((r) => r.path)).toEqual(['/api/v1/skills/acme/..%2F..%2Fadmin']);
    });

    it('sends Authorization only when a token is set, and always a User-Agent', async () => {
      hub.on('GET', '/api/v1/health', { status: 200, json: { status: 'ok', version: '1' } });
      await client().health();
      await client({ token: undefined }).health();
      await client({ userAgent: 'skillhub-cli/1.2.3' }).health();
      expect(hub.requests.map((r) => r.headers.authorization)).toEqual([
        `Bearer ${TOKEN}`,
        undefined,
        `Bearer ${TOKEN}`,
      ]);
      expect(hub.requests.map((r) => r.headers['user-agent'])).toEqual([
        'skillhub-hub-client',
        'skillhub-hub-client',
        'skillhub-cli/1.2.3',
      ]);
    });

    it('keeps a path prefix of the base URL', async () => {
      hub.on('GET', '/hub/api/v1/health', { status: 200, json: { status: 'ok', version: '1' } });
      const prefixed = client({ baseUrl: `${hub.url}/hub/` });
      await expect(prefixed.health()).resolves.toMatchObject({ status: 'ok' });
      expect(prefixed.baseUrl).toBe(`${hub.url}/hub`);
    });

    it('badgeUrl builds the SVG badge URL without a request', () => {
      const c = client({ baseUrl: 'https://hub.example.com/' });
      expect(c.badgeUrl('acme', 'weather')).toBe('https://hub.example.com/api/v1/skills/acme/weather/badge.svg');
      expect(c.badgeUrl('acme', 'we/ather', { style: 'for-the-badge', label: 'skill hub', version: '1.0.0' })).toBe(
        'https://hub.example.com/api/v1/skills/acme/we%2Father/badge.svg?style=for-the-badge&label=skill+hub&version=1.0.0',
      );
    });

    it.each([
      ['not a url', /not an absolute URL/],
      ['ftp://hub.example.com', /http or https/],
      ['https://user:pw@hub.example.com', /must not carry credentials/],
      ['https://hub.example.com/?x=1', /query or a fragment/],
    ])('refuses the base URL %p', (baseUrl, message) => {
      expect(() => new HubClient({ baseUrl })).toThrow(message);
    });

    it('refuses maxAttempts below 1, and a user agent a header cannot carry', () => {
      expect(() => new HubClient({ baseUrl: 'http://127.0.0.1:1', maxAttempts: 0 })).toThrow(HubRequestError);
      expect(() => new HubClient({ baseUrl: 'http://127.0.0.1:1', userAgent: 'cli\r\nX: 1' })).toThrow(HubRequestError);
    });

    it('sends through an injected fetch (a proxy-aware one, say)', async () => {
      hub.on('GET', '/api/v1/health', { status: 200, json: { status: 'ok', version: '1' } });
      const seen: string[] = [];
      const viaProxy: typeof fetch = (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      };
      await client({ fetch: viaProxy }).health();
      expect(seen).toEqual([`${hub.url}/api/v1/health`]);
    });
  });
});
