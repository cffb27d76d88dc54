/**
 * Serves the gateway over Streamable HTTP at `/mcp`.
 *
 * A client that sends `initialize` gets a session: an `Mcp-Session-Id` of 122 random bits,
 * and its own MCP server and transport, kept until it sends DELETE, stays idle for
 * SESSION_IDLE_MS, or the gateway closes. Later requests pay no setup, and a call that needs
 * approval can ask by elicitation on that call's SSE stream. An unknown or ended session id
 * gets 404, so the client initializes again (as the specification says). At most
 * MAX_SESSIONS live at once; a new one beyond that gets 503.
 *
 * A request without a session id that is not `initialize` is served statelessly, by a fresh
 * server and transport for that request alone, for clients that keep no session.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Gateway } from './gateway';

/** Requests larger than this are refused before parsing. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
export const MAX_SESSIONS = 64;
export const SESSION_IDLE_MS = 15 * 60_000;
const SWEEP_MS = 60_000;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
}

export interface GatewayHttpServer {
  url: string;
  /** Live sessions. */
  sessionCount(): number;
  /** Ends every session, then stops listening. */
  close(): Promise<void>;
}

export async function serveGatewayHttp(
  gateway: Gateway,
  host: string,
  port: number,
  options: { idleMs?: number; maxSessions?: number } = {},
): Promise<GatewayHttpServer> {
  const idleMs = options.idleMs ?? SESSION_IDLE_MS;
  const maxSessions = options.maxSessions ?? MAX_SESSIONS;
  const sessions = new Map<string, Session>();
  const end = async (id: string): Promise<void> => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await session.transport.close();
    await session.server.close();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.url?.split('?')[0] !== '/mcp') return void res.writeHead(404).end();
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) return rpcError(res, 404, -32001, 'Session not found: initialize again');
      session.lastSeen = Date.now();
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const body = await readJson(req);
    if (isInitializeRequest(body)) return openSession(req, res, body);
    // Stateless: this request alone.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = gateway.createServer();
    res.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const openSession = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    if (sessions.size >= maxSessions) return rpcError(res, 503, -32000, 'Too many sessions: try again later');
    const server = gateway.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, server, lastSeen: Date.now() }),
      onsessionclosed: (id) => end(id),
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (res.headersSent) return void res.end();
      rpcError(res, 400, -32700, err.message);
    });
  });
  const sweep = setInterval(
    () => {
      const idleSince = Date.now() - idleMs;
      for (const [id, session] of sessions) if (session.lastSeen < idleSince) void end(id);
    },
    Math.min(SWEEP_MS, idleMs),
  );
  sweep.unref();

  await new Promise<void>((resolve) => http.listen(port, host, resolve));
  const address = http.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}/mcp`,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.keys()].map(end));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
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
