/**
 * Serves the gateway over Streamable HTTP, stateless: each POST gets a fresh MCP
 * server and transport (no session to hijack or leak between clients).
 */
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Gateway } from './gateway';

/** Requests larger than this are refused before parsing. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export async function serveGatewayHttp(
  gateway: Gateway,
  host: string,
  port: number,
): Promise<HttpServer & { url: string }> {
  const server = createServer((req, res) => {
    if (req.url?.split('?')[0] !== '/mcp') return void res.writeHead(404).end();
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    void readJson(req)
      .then(async (body) => {
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        const mcp = gateway.createServer();
        res.on('close', () => void transport.close().then(() => mcp.close()));
        await mcp.connect(transport);
        await transport.handleRequest(req, res, body);
      })
      .catch((err: Error) => {
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: err.message }, id: null }));
      });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  return Object.assign(server, { url: `http://${host}:${address.port}/mcp` });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}
