import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import { DomainError } from '@skillhub/errors';
import { HubClient, type HubClientOptions } from './hub-client';
import { HubApiError, HubRequestError, HubResponseError, HubUnreachableError } from './hub-client.errors';
import { FakeHub, problem } from './testing/fake-hub.server';
import { listItem, published } from './testing/hub-fixtures';

/** With a `"`, which JSON escapes: redaction must see through the escaping. */
const TOKEN = 'shp_errors_SECRET_"token"_0123456789';

describe('HubClient errors (against a local server)', () => {
  let hub: FakeHub;
  const client = (options: Partial<HubClientOptions> = {}) =>
    new HubClient({ baseUrl: hub.url, token: TOKEN, sleep: async () => {}, ...options });
  const failure = (promise: Promise<unknown>): Promise<unknown> =>
    promise.then(
      () => {
        throw new Error('expected a failure');
      },
      (error: unknown) => error,
    );

  beforeEach(async () => {
    hub = await FakeHub.start();
  });
  afterEach(() => hub.stop());

  describe('HubApiError', () => {
    it('carries the problem document, the method and the path, in a one-line message', async () => {
      hub.on('POST', '/api/v1/skills', {
        ...problem(409, 'SKILL.VERSION_EXISTS', 'acme/x@1.0.0 is already published with other bytes'),
        json: {
          type: 'https://skillhub.dev/problems/skill-version-exists',
          title: 'Conflict',
          status: 409,
          detail: 'acme/x@1.0.0 is already published with other bytes',
          code: 'SKILL.VERSION_EXISTS',
          instance: '/api/v1/skills',
          bundle_sha256: 'b'.repeat(64),
        },
      });
      const error = await failure(client().publish(Buffer.from('x'), { namespace: 'acme' }));
      expect(error).toBeInstanceOf(HubApiError);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        name: 'HubApiError',
        status: 409,
        code: 'SKILL.VERSION_EXISTS',
        detail: 'acme/x@1.0.0 is already published with other bytes',
        title: 'Conflict',
        type: 'https://skillhub.dev/problems/skill-version-exists',
        instance: '/api/v1/skills',
        method: 'POST',
        path: '/api/v1/skills',
        errors: [],
        details: { bundle_sha256: 'b'.repeat(64) },
        retryAfterMs: null,
      });
      expect((error as Error).message).toBe(
        'POST /api/v1/skills → 409 SKILL.VERSION_EXISTS: acme/x@1.0.0 is already published with other bytes',
      );
    });

    it('lists the errors[] and names the first one in the message', async () => {
      const errors = [
        { path: 'namespace', message: 'namespace must match ^[a-z0-9][a-z0-9-]{0,38}$', severity: 'error' },
        { path: 'version', message: 'version must be shorter', severity: 'error' },
      ];
      hub.on(
        'POST',
        '/api/v1/skills/validate',
        problem(400, 'VALIDATION', 'The request has invalid fields.\nFix them.', { errors }),
      );
      const error = (await failure(client().validate(Buffer.from('x'), { namespace: 'A!' }))) as HubApiError;
      expect(error.errors).toEqual(errors);
      expect(error.problems).toEqual(errors);
      expect(error.message).toBe(
        'POST /api/v1/skills/validate → 400 VALIDATION: The request has invalid fields. Fix them. ' +
          '(namespace: namespace must match ^[a-z0-9][a-z0-9-]{0,38}$; +1 more)',
      );
    });

    it('describes an answer that is not a problem document (a proxy’s HTML page) from its status', async () => {
      hub.on('GET', '/api/v1/stats', {
        status: 502,
        raw: '<html>Bad gateway</html>',
        headers: { 'content-type': 'text/html' },
      });
      const error = (await failure(client({ maxAttempts: 1 }).stats())) as HubApiError;
      expect(error).toMatchObject({ status: 502, code: 'HTTP.502', title: 'Bad Gateway', details: {} });
      expect(error.message).toBe(
        'GET /api/v1/stats → 502 HTTP.502: Bad Gateway (a text/html body, not a problem document)',
      );
    });

    it('reports a redirect instead of following it, so the token never travels to the Location', async () => {
      const elsewhere = await FakeHub.start();
      try {
        hub.on('GET', '/api/v1/tokens', { status: 302, headers: { location: `${elsewhere.url}/api/v1/tokens` } });
        const error = (await failure(client().listTokens())) as HubApiError;
        expect(error).toMatchObject({ status: 302, code: 'HTTP.302' });
        expect(error.message).toContain(`redirected to ${elsewhere.url}/api/v1/tokens`);
        expect(elsewhere.requests).toHaveLength(0);
      } finally {
        await elsewhere.stop();
      }
    });
  });

  describe('HubResponseError', () => {
    it('reports malformed JSON with the content type', async () => {
      hub.on('GET', '/api/v1/stats', {
        status: 200,
        raw: '{"total_skills": 1,',
        headers: { 'content-type': 'application/json' },
      });
      const error = await failure(client().stats());
      expect(error).toBeInstanceOf(HubResponseError);
      expect(error).toMatchObject({
        code: 'HUB.MALFORMED_RESPONSE',
        status: 200,
        message: 'GET /api/v1/stats → 200, but the body is not JSON (application/json)',
      });
    });

    it('names the first field that does not fit the expected shape', async () => {
      hub.on('GET', '/api/v1/skills', {
        status: 200,
        json: { items: [listItem('a'), { ...listItem('b'), downloads: '3' }], total: 2 },
      });
      await expect(client().listSkills()).rejects.toMatchObject({
        code: 'HUB.MALFORMED_RESPONSE',
        message: 'GET /api/v1/skills → 200, but the body does not fit: items.1.downloads: must be integer',
      });
    });

    it('refuses an enum value this client does not know', async () => {
      hub.on('POST', '/api/v1/skills', {
        status: 201,
        json: { ...published, certification: { status: 'certified', level: 'platinum' } },
      });
      await expect(client().publish(Buffer.from('x'))).rejects.toThrow(
        /certification\.level: must be one of none, basic, standard$/,
      );
    });

    describe('downloadBundle digests', () => {
      const path = '/api/v1/skills/acme/weather/versions/1.0.0/bundle';
      const bytes = Buffer.from('the real bytes');
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const other = 'f'.repeat(64);
      const download = (options = {}) => failure(client().downloadBundle('acme', 'weather', '1.0.0', options));

      it('refuses bytes whose SHA-256 is not the ETag’s', async () => {
        hub.on('GET', path, { status: 200, raw: bytes, headers: { etag: `"${other}"` } });
        const error = await download();
        expect(error).toBeInstanceOf(HubResponseError);
        expect(error).toMatchObject({
          code: 'HUB.BUNDLE_DIGEST_MISMATCH',
          message: `GET ${path} → 200, but the bundle's SHA-256 is ${sha256}, and the ETag says ${other}`,
        });
        expect(hub.requests).toHaveLength(1);
      });

      it('refuses when X-Content-SHA256 disagrees, or the caller’s expected digest does', async () => {
        hub.on(
          'GET',
          path,
          { status: 200, raw: bytes, headers: { etag: `"${sha256}"`, 'x-content-sha256': other } },
          { status: 200, raw: bytes, headers: { etag: `"${sha256}"`, 'x-content-sha256': sha256 } },
        );
        await expect(download()).resolves.toMatchObject({ message: expect.stringContaining('X-Content-SHA256 says') });
        await expect(download({ expectedSha256: other })).resolves.toMatchObject({
          message: expect.stringContaining('the expected digest says'),
        });
      });

      it('refuses bytes no digest was declared for; a weak ETag declares none', async () => {
        hub.on('GET', path, { status: 200, raw: bytes, headers: { etag: `W/"${sha256}"` } });
        await expect(download()).resolves.toMatchObject({
          code: 'HUB.BUNDLE_DIGEST_MISMATCH',
          message: expect.stringContaining('declared no SHA-256'),
        });
      });
    });
  });

  describe('the token', () => {
    const forms = [TOKEN, JSON.stringify(TOKEN).slice(1, -1)];
    const leaks = (value: unknown): boolean =>
      [
        (value as Error).message,
        (value as Error).stack,
        inspect(value, { depth: 10, showHidden: true }),
        JSON.stringify(value),
      ].some((text) => forms.some((form) => text?.includes(form)));

    it('is sent, but never appears in an error, even when the hub echoes it back', async () => {
      const echo = (req: { headers: { authorization?: string } }) =>
        problem(401, 'AUTH.INVALID', `The token ${req.headers.authorization} is not known to this hub.`, {
          errors: [{ path: req.headers.authorization, message: 'unknown', severity: 'error' }],
          echoed: req.headers.authorization,
        });
      hub.on('GET', '/api/v1/tokens', echo);
      hub.on('GET', '/api/v1/stats', {
        status: 200,
        json: { total_skills: 1, certified_count: 0, by_category: { [TOKEN]: 'x' } },
      });
      hub.on('GET', '/api/v1/health', { status: 200, raw: 'not json' });
      // Only this one outlasts the client's timeout, which leaves a loaded machine room for the others.
      hub.on('POST', '/api/v1/tokens', { status: 201, delayMs: 4_000 });
      hub.on('GET', '/api/v1/health/ready', { status: 302, headers: { location: `https://evil.example/?t=${TOKEN}` } });
      const c = client({ timeoutMs: 1_500 });
      const closed = await FakeHub.start();
      await closed.stop();
      const errors = await Promise.all([
        failure(c.listTokens()),
        failure(c.stats()),
        failure(c.health()),
        failure(c.createToken()),
        failure(c.ready()),
        failure(client({ baseUrl: closed.url, maxAttempts: 1 }).keys()),
      ]);
      expect(errors.map((e) => (e as Error).constructor.name)).toEqual([
        'HubApiError',
        'HubResponseError',
        'HubResponseError',
        'HubUnreachableError',
        'HubApiError',
        'HubUnreachableError',
      ]);
      expect(hub.requestsTo('GET', '/api/v1/tokens')[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect((errors[0] as HubApiError).detail).toBe('The token Bearer [redacted] is not known to this hub.');
      for (const error of errors) expect(leaks(error)).toBe(false);
      expect(leaks(c)).toBe(false);
    });

    it('is refused, without being quoted, when a header cannot carry it', () => {
      const bad = `${TOKEN}\r\nX-Injected: 1`;
      const error = (() => {
        try {
          new HubClient({ baseUrl: 'http://127.0.0.1:1', token: bad });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(HubRequestError);
      expect(leaks(error)).toBe(false);
    });

    it('is not in a HubUnreachableError’s cause either', async () => {
      hub.on('GET', '/api/v1/health', { status: 200, hangUp: true });
      const error = await failure(client({ maxAttempts: 2 }).health());
      expect(error).toBeInstanceOf(HubUnreachableError);
      expect(inspect((error as Error).cause, { depth: 10 })).not.toContain(TOKEN);
    });
  });
});
