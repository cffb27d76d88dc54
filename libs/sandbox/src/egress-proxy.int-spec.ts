/**
 * The egress proxy over real sockets, without a sandbox: a per-server domain allowlist, one name
 * resolution per request (the address checked is the one connected to), and what a client is told.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EgressProxy, type EgressEvent } from './egress-proxy';

describe('the egress proxy', () => {
  let dir: string;
  let site: Server;
  let port: number;
  let proxy: EgressProxy;
  const events: EgressEvent[] = [];
  const lookups: string[] = [];

  /** `CONNECT authority` through the proxy: the status, and the body of a GET through the tunnel when it opened. */
  const tunnel = (authority: string): Promise<{ status: number; body?: string; reason?: string }> =>
    new Promise((resolve, reject) => {
      const req = request({ socketPath: proxy.socketPath, method: 'CONNECT', path: authority });
      req.on('connect', (res, socket, head: Buffer) => {
        const status = res.statusCode ?? 0;
        // What came with the response's head (a refusal's reason, for one) is in `head`.
        let text = status === 200 ? '' : head.toString();
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('end', () => {
          if (status === 200) resolve({ status, body: text.split('\r\n\r\n')[1] });
          else resolve({ status, reason: text.trim() });
        });
        if (status === 200) socket.end('GET / HTTP/1.1\r\nHost: site\r\nConnection: close\r\n\r\n');
      });
      req.on('error', reject);
      req.end();
    });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'egress-proxy-spec-'));
    site = createServer((_req, res) => res.end('the site'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    port = (site.address() as AddressInfo).port;
    proxy = await EgressProxy.start({
      name: 'weather',
      socketPath: join(dir, 'egress.sock'),
      allowDomains: ['api.weather.test', '*.cdn.test'],
      // Every test name stands for the site, which the operator lets through by its exact address.
      allowAddresses: [`127.0.0.1:${port}`],
      onEvent: (event) => events.push(event),
      lookup: async (host) => {
        lookups.push(host);
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise((resolve) => site.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('reaches only the domains the grant names, a wildcard covering subdomains and not the domain itself', async () => {
    expect(await tunnel(`api.weather.test:${port}`)).toEqual({ status: 200, body: 'the site' });
    expect(await tunnel(`img.cdn.test:${port}`)).toEqual({ status: 200, body: 'the site' });
    for (const refused of [`cdn.test:${port}`, `api.weather.test.evil.test:${port}`, `127.0.0.1:${port}`]) {
      const answer = await tunnel(refused);
      expect([refused, answer.status]).toEqual([refused, 403]);
      expect(answer.reason).toContain("is not in this server's domain allowlist");
    }
  });

  it('resolves each name once and connects to the very address it checked', async () => {
    lookups.length = 0;
    events.length = 0;

    await tunnel(`api.weather.test:${port}`);

    expect(lookups).toEqual(['api.weather.test']);
    expect(events).toEqual([
      expect.objectContaining({
        server: 'weather',
        method: 'CONNECT',
        host: 'api.weather.test',
        port,
        address: '127.0.0.1',
        verdict: 'allowed',
      }),
    ]);
  });

  it('answers a malformed request with 400, never a connection', async () => {
    expect((await tunnel('no-port-here')).status).toBe(400);
    expect((await tunnel(`[not-an-ip]:${port}`)).status).toBe(400);
  });
});
