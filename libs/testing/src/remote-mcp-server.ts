/**
 * A remote MCP server for tests: the SDK's streamable HTTP transport (stateless, JSON answers) over
 * HTTPS on 127.0.0.1 with a certificate of a private CA. Its tools can be changed while it runs, as
 * a remote server's owner can change them after certification. Each tool answers its name and
 * arguments. Like server-postgres without its database, it offers resources but cannot list them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { privateCa } from './private-ca';

export interface RemoteTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties?: Record<string, unknown> };
}

export interface RemoteMcpServer {
  /** `https://127.0.0.1:<port>/mcp`. */
  url: string;
  /** `127.0.0.1:<port>`: what a proxy must be told to let through. */
  address: string;
  /** The CA that signed its certificate, PEM. */
  caPem: string;
  /** What `tools/list` answers from now on. */
  tools: RemoteTool[];
  /** Tool calls received, by name. */
  calls: string[];
  close(): Promise<void>;
}

export async function startRemoteMcpServer(tools: RemoteTool[]): Promise<RemoteMcpServer> {
  const dir = mkdtempSync(join(tmpdir(), 'skillhub-remote-mcp-'));
  const ca = privateCa(dir);
  const caPem = readFileSync(ca.caFile, 'utf8');
  const state = { tools, calls: [] as string[] };
  const https: HttpsServer = createServer({ key: ca.leafKey, cert: ca.chain }, (req, res) => {
    const server = new Server(
      { name: 'remote-fixture', version: '1.0.0' },
      {
        capabilities: { tools: {}, resources: {} },
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: state.tools }));
    server.setRequestHandler(ListResourcesRequestSchema, () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432 (its database)');
    });
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      state.calls.push(request.params.name);
      return {
        content: [{ type: 'text', text: `${request.params.name} ${JSON.stringify(request.params.arguments ?? {})}` }],
      };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void server.close());
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  const { port } = https.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/mcp`,
    address: `127.0.0.1:${port}`,
    caPem,
    get tools() {
      return state.tools;
    },
    set tools(next: RemoteTool[]) {
      state.tools = next;
    },
    get calls() {
      return state.calls;
    },
    close: async () => {
      https.closeAllConnections();
      await new Promise<void>((resolve) => https.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
