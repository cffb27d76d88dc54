import { HubClient, type HubClientOptions } from './hub-client';
import { HubApiError, HubResponseError, HubUnreachableError } from './hub-client.errors';
import { FakeHub, problem } from './testing/fake-hub.server';
import { keys, published } from './testing/hub-fixtures';

describe('HubClient retries and timeouts (against a local server)', () => {
  let hub: FakeHub;
  let sleeps: number[];
  const NOW = Date.parse('2025-10-21T07:28:00Z');
  const client = (options: Partial<HubClientOptions> = {}) =>
    new HubClient({
      baseUrl: hub.url,
      token: 'shp_retry_token_0123456789',
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
      now: () => NOW,
      ...options,
    });
  const keysOk = { status: 200, json: keys };

  beforeEach(async () => {
    hub = await FakeHub.start();
    sleeps = [];
  });
  afterEach(() => hub.stop());

  it('waits what Retry-After says (seconds) after a 429, then succeeds', async () => {
    hub.on('GET', '/.well-known/skillhub/keys.json', { status: 429, headers: { 'retry-after': '2' } }, keysOk);
    await expect(client().keys()).resolves.toEqual(keys);
    expect(sleeps).toEqual([2_000]);
    expect(hub.requests).toHaveLength(2);
  });

  it('reads Retry-After as an HTTP date too', async () => {
    const at = new Date(NOW + 3_000).toUTCString();
    hub.on('GET', '/.well-known/skillhub/keys.json', { status: 503, headers: { 'retry-after': at } }, keysOk);
    await expect(client().keys()).resolves.toEqual(keys);
    expect(sleeps).toEqual([3_000]);
  });

  it('gives up at once when Retry-After asks for more than maxDelayMs, and says how long to wait', async () => {
    hub.on('GET', '/.well-known/skillhub/keys.json', {
      ...problem(429, 'REQUEST.RATE_LIMITED', 'Too many requests; try again in 42 s.', { retry_after: 42 }),
      headers: { 'content-type': 'application/problem+json', 'retry-after': '42' },
    });
    const error = await client({ maxDelayMs: 10_000 })
      .keys()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubApiError);
    expect(error).toMatchObject({ status: 429, code: 'REQUEST.RATE_LIMITED', retryAfterMs: 42_000 });
    expect((error as HubApiError).details).toEqual({ retry_after: 42 });
    expect(sleeps).toEqual([]);
    expect(hub.requests).toHaveLength(1);
  });

  it('retries a GET after 503 twice with exponential backoff and full jitter, then succeeds', async () => {
    const unavailable = problem(503, 'HTTP.503', 'Busy.');
    hub.on('GET', '/.well-known/skillhub/keys.json', unavailable, unavailable, keysOk);
    await expect(client({ baseDelayMs: 100 }).keys()).resolves.toEqual(keys);
    // random() = 0.5 of base · 2^0 and base · 2^1.
    expect(sleeps).toEqual([50, 100]);
    expect(hub.requests).toHaveLength(3);
  });

  it('retries 502 and 504 on GET, PUT and DELETE', async () => {
    hub.on('PUT', '/api/v1/namespaces/acme/kazma-secret', { status: 502 }, { status: 204 });
    hub.on('DELETE', '/api/v1/namespaces/acme/kazma-secret', { status: 504 }, { status: 204 });
    const c = client();
    await c.setKazmaSecret('acme', 'a-secret-of-16-chars');
    await c.deleteKazmaSecret('acme');
    expect(hub.requests.map((r) => r.method)).toEqual(['PUT', 'PUT', 'DELETE', 'DELETE']);
  });

  it('gives up after maxAttempts with the last answer as a HubApiError', async () => {
    hub.on('GET', '/.well-known/skillhub/keys.json', problem(503, 'HTTP.503', 'Still busy.'));
    await expect(client({ maxAttempts: 3 }).keys()).rejects.toMatchObject({
      status: 503,
      message: 'GET /.well-known/skillhub/keys.json → 503 HTTP.503: Still busy.',
    });
    expect(hub.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it('does not retry a 500: the same request would fail the same way', async () => {
    hub.on('GET', '/.well-known/skillhub/keys.json', problem(500, 'INTERNAL', 'Logged.'), keysOk);
    await expect(client().keys()).rejects.toMatchObject({ status: 500, code: 'INTERNAL' });
    expect(hub.requests).toHaveLength(1);
  });

  it('does not retry a POST on 503 (the hub may have done the work)', async () => {
    hub.on('POST', '/api/v1/skills', problem(503, 'HTTP.503', 'Gateway gave up.'), { status: 201, json: published });
    await expect(client().publish(Buffer.from('bundle'))).rejects.toMatchObject({ status: 503 });
    expect(hub.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry a PATCH on 502 either', async () => {
    hub.on('PATCH', '/api/v1/skills/acme/weather/versions/1.0.0', { status: 502 });
    await expect(
      client().setVersionStatus('acme', 'weather', '1.0.0', { status: 'yanked', message: 'broken' }),
    ).rejects.toMatchObject({ status: 502, code: 'HTTP.502' });
    expect(hub.requests).toHaveLength(1);
  });

  it('retries a POST on 429 (refused before any work) and sends the same body again', async () => {
    hub.on(
      'POST',
      '/api/v1/skills',
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 201, json: published },
    );
    await expect(client().publish(Buffer.from('the bytes'))).resolves.toEqual({ created: true, result: published });
    expect(sleeps).toEqual([1_000]);
    expect(hub.requests.map((r) => r.body.toString())).toEqual(['the bytes', 'the bytes']);
  });

  it('times out each attempt and reports HubUnreachableError after every attempt failed', async () => {
    hub.on('GET', '/api/v1/health', { status: 200, json: { status: 'ok', version: '1' }, delayMs: 2_000 });
    const error = await client({ timeoutMs: 50, maxAttempts: 3 })
      .health()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubUnreachableError);
    expect(error).toMatchObject({
      code: 'HUB.UNREACHABLE',
      attempts: 3,
      message: `GET /api/v1/health: no answer from ${hub.url} after 3 attempts (timed out after 50 ms)`,
    });
    expect((error as Error).cause).toMatchObject({ name: 'TimeoutError' });
    expect(hub.requests).toHaveLength(3);
  });

  it('covers the body with the timeout too', async () => {
    hub.on('GET', '/api/v1/health', {
      status: 200,
      json: { status: 'ok', version: '1' },
      delayMs: 2_000,
      delayBody: true,
    });
    await expect(client({ timeoutMs: 50, maxAttempts: 1 }).health()).rejects.toBeInstanceOf(HubUnreachableError);
  });

  it('tries a timed-out POST once', async () => {
    hub.on('POST', '/api/v1/tokens', { status: 201, delayMs: 2_000 });
    await expect(client({ timeoutMs: 50 }).createToken({ namespace: 'acme' })).rejects.toMatchObject({
      code: 'HUB.UNREACHABLE',
      attempts: 1,
    });
    expect(hub.requests).toHaveLength(1);
  });

  it('retries a dropped connection on GET, and succeeds', async () => {
    hub.on('GET', '/.well-known/skillhub/keys.json', { status: 200, hangUp: true }, keysOk);
    await expect(client().keys()).resolves.toEqual(keys);
    expect(hub.requests).toHaveLength(2);
  });

  it('reports a refused connection as HubUnreachableError with its cause', async () => {
    const closed = await FakeHub.start();
    await closed.stop();
    const error = await client({ baseUrl: closed.url, maxAttempts: 2 })
      .health()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubUnreachableError);
    expect((error as Error).message).toBe(
      `GET /api/v1/health: no answer from ${closed.url} after 2 attempts (connection refused (ECONNREFUSED))`,
    );
    expect((error as Error).cause).toBeDefined();
  });

  it('refuses a JSON answer over maxJsonBytes without retrying', async () => {
    hub.on('GET', '/.well-known/skillhub/keys.json', { status: 200, raw: 'x'.repeat(2_000) });
    await expect(client({ maxJsonBytes: 1_000 }).keys()).rejects.toMatchObject({
      code: 'HUB.RESPONSE_TOO_LARGE',
      message: 'GET /.well-known/skillhub/keys.json → 200, but the body is larger than 1000 bytes',
    });
    expect(hub.requests).toHaveLength(1);
  });

  it('refuses a bundle over maxBundleBytes, even without a Content-Length', async () => {
    hub.on('GET', '/api/v1/skills/acme/weather/versions/1.0.0/bundle', {
      status: 200,
      raw: Buffer.alloc(3 * 1024 * 1024),
      headers: { 'transfer-encoding': 'chunked' },
    });
    const error = await client({ maxBundleBytes: 1024 * 1024 })
      .downloadBundle('acme', 'weather', '1.0.0')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubResponseError);
    expect(error).toMatchObject({ code: 'HUB.RESPONSE_TOO_LARGE' });
    expect((error as Error).message).toMatch(/larger than 1 MiB$/);
  });
});
