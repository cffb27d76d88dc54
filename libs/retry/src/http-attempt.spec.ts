import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AttemptTimeout } from './attempt-timeout';
import { describeFailure, parseRetryAfterMs } from './http-attempt';

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2025-10-21T07:28:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfterMs('120', now)).toBe(120_000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date, and a past one as 0', () => {
    expect(parseRetryAfterMs('Tue, 21 Oct 2025 07:28:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterMs('Tue, 21 Oct 2025 07:00:00 GMT', now)).toBe(0);
  });

  it.each([null, '', '-5', '1.5', 'soon'])('ignores %p', (header) => {
    expect(parseRetryAfterMs(header, now)).toBeNull();
  });
});

describe('describeFailure', () => {
  const SECRET = 'shp_secret_token_0123456789';
  let server: Server;
  let port: number;

  beforeAll(async () => {
    // Hangs up on every request before answering.
    server = createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const failureOf = async (url: string, init?: RequestInit): Promise<string> => {
    try {
      await fetch(url, init);
    } catch (error) {
      return describeFailure({ error });
    }
    throw new Error(`${url} answered`);
  };

  it('names a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    expect(await failureOf(`http://127.0.0.1:${closedPort}/`)).toBe('connection refused (ECONNREFUSED)');
  });

  it('names a failed DNS lookup', async () => {
    expect(await failureOf('http://skillhub-retry-spec.invalid/')).toMatch(
      /^DNS lookup failed \((ENOTFOUND|EAI_AGAIN)\)$/,
    );
  });

  it('names a TLS failure (TLS spoken to a plain HTTP server)', async () => {
    expect(await failureOf(`https://127.0.0.1:${port}/`)).toMatch(/^TLS failed \([A-Z_]+\)$/);
  });

  it('names a connection the server closed', async () => {
    expect(await failureOf(`http://127.0.0.1:${port}/`)).toBe('connection closed before the answer (UND_ERR_SOCKET)');
  });

  it('tells its own timeouts, other timeouts and cancellation apart', () => {
    expect(describeFailure({ error: new AttemptTimeout(10_000, false) })).toBe('timed out after 10 s');
    expect(describeFailure({ error: new AttemptTimeout(42, true) })).toBe('timed out after 42 ms (the deadline)');
    expect(describeFailure({ error: new DOMException('The operation timed out.', 'TimeoutError') })).toBe('timed out');
    const controller = new AbortController();
    controller.abort();
    expect(describeFailure({ error: controller.signal.reason })).toBe('cancelled');
  });

  it('names an HTTP status', () => {
    expect(describeFailure({ status: 503 })).toBe('HTTP 503');
  });

  it('never quotes a URL or a header, where tokens travel', async () => {
    const inUrl = await failureOf(`http://user:${SECRET}@127.0.0.1:${port}/`);
    const inHeader = await failureOf(`http://127.0.0.1:${port}/`, {
      headers: { authorization: `Bearer ${SECRET}\r\nX-Injected: 1` },
    });
    const odd = describeFailure({ error: Object.assign(new Error(`GET /?token=${SECRET}`), { code: SECRET }) });

    expect([inUrl, inHeader, odd]).toEqual(['network error', 'network error', 'network error']);
  });
});
