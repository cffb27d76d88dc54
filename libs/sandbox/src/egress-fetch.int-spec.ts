/**
 * An MCP client reaching a remote server over HTTPS through the egress proxy: listed and called when
 * the proxy lets its address through and its certificate is trusted; refused, with the proxy's
 * reason, when its address is not public; refused by TLS when its CA is not trusted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { privateCa, type RemoteMcpServer, startRemoteMcpServer } from '@skillhub/testing';
import { egressFetch, type EgressFetch } from './egress-fetch';
import { EgressProxy, type EgressEvent } from './egress-proxy';

describe('egressFetch', () => {
  let dir: string;
  let remote: RemoteMcpServer;
  const proxies: EgressProxy[] = [];
  const events: EgressEvent[] = [];

  const proxy = async (allowAddresses: string[]): Promise<string> => {
    const started = await EgressProxy.start({
      name: 'remote',
      socketPath: join(dir, `egress-${proxies.length}.sock`),
      allowAddresses,
      onEvent: (event) => events.push(event),
    });
    proxies.push(started);
    return started.socketPath;
  };

  const connect = async (proxySocket: string, extraCa: string | null): Promise<Client> => {
    const client = new Client({ name: 'spec', version: '1.0.0' });
    const fetch = egressFetch({ proxySocket, extraCa });
    await client.connect(new StreamableHTTPClientTransport(new URL(remote.url), { fetch }));
    return client;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'egress-fetch-spec-'));
    remote = await startRemoteMcpServer([
      { name: 'search', description: 'Searches the docs.', inputSchema: { type: 'object' } },
    ]);
  });
  afterAll(async () => {
    await Promise.all(proxies.map((p) => p.close()));
    await remote.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lists and calls the tools of a server the proxy lets through, over TLS to a trusted CA', async () => {
    const client = await connect(await proxy([remote.address]), remote.caPem);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search']);
      const answer = await client.callTool({ name: 'search', arguments: { q: 'tls' } });
      expect(answer.content).toEqual([{ type: 'text', text: 'search {"q":"tls"}' }]);
    } finally {
      await client.close();
    }
    expect(events.filter((e) => e.verdict === 'allowed').map((e) => `${e.method} ${e.address}:${e.port}`)).toContain(
      `CONNECT ${remote.address}`,
    );
  });

  it("is refused with the proxy's reason when the server's address is not public", async () => {
    await expect(connect(await proxy([]), remote.caPem)).rejects.toThrow(
      /Refused by the sandbox's proxy: .*127\.0\.0\.1/,
    );
    expect(events.at(-1)).toMatchObject({ verdict: 'refused', host: '127.0.0.1' });
  });

  it('is refused by TLS when the certificate is signed by a CA it does not trust', async () => {
    await expect(connect(await proxy([remote.address]), null)).rejects.toThrow(
      /self[- ]signed|unable to verify|issuer/i,
    );
  });

  /** A plain HTTPS server of its own CA, reached through a proxy that lets it through. */
  const withServer = async (
    handler: (req: IncomingMessage, res: ServerResponse) => void,
    run: (fetch: EgressFetch, base: string) => Promise<void>,
  ): Promise<void> => {
    const ca = privateCa(await mkdtemp(join(dir, 'site-')));
    const server = createHttpsServer({ key: ca.leafKey, cert: ca.chain }, handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = `127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      await run(egressFetch({ proxySocket: await proxy([address]), extraCa: ca.chain }), `https://${address}`);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  };

  it('keeps an answer streaming however long it stays quiet (an event stream)', async () => {
    await withServer(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
        setTimeout(() => res.end('data: after a quiet spell\n\n'), 3_000);
      },
      async (fetch, base) => {
        const answer = await fetch(`${base}/events`);
        expect(await answer.text()).toBe('data: first\n\ndata: after a quiet spell\n\n');
      },
    );
  });

  it('rejects, and does not crash, on a status no fetch answer can carry', async () => {
    await withServer(
      (_req, res) => res.writeHead(999).end('go away'),
      async (fetch, base) => {
        await expect(fetch(`${base}/mcp`)).rejects.toThrow('answered status 999');
      },
    );
  });

  it('fetches https only', async () => {
    const fetch = egressFetch({ proxySocket: await proxy([remote.address]) });
    await expect(fetch('http://127.0.0.1:1/mcp')).rejects.toThrow('https only');
  });
});
