/**
 * Serves the gateway over Streamable HTTP at `/mcp`.
 *
 * A client that sends `initialize` gets a session: an `Mcp-Session-Id` of 122 random bits,
 * and its own MCP server and transport, kept until it sends DELETE, stays idle (no request and
 * no open event stream) for SESSION_IDLE_MS, or the gateway closes. Later requests pay no
 * setup, and a call that needs approval can ask by elicitation on that call's SSE stream. An
 * unknown or ended session id gets 404, so the client initializes again (as the specification
 * says). At most MAX_SESSIONS live at once: a new one evicts the session whose last request is
 * oldest among those with no request in flight (an open event stream alone does not keep a
 * slot), or gets 503 when every session is mid-request.
 *
 * A request without a session id that is not `initialize` is served statelessly, by a fresh
 * server and transport for that request alone, for clients that keep no session.
 *
 * Who may call: only requests whose Host (and Origin, when sent) name the gateway (its loopback
 * names, its configured host, and `allowedHosts`), so a web page cannot reach it by DNS
 * rebinding; and every request must carry the gateway's token as a bearer token (compared in
 * constant time), so no other local process (a skill's sandbox included) can call its tools.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
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
/** Addresses that accept connections on every interface, loopback included. */
const WILDCARDS = new Set(['0.0.0.0', '::', '']);

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
  /** POST/DELETE requests not yet answered: such a session is never evicted or swept. */
  inFlight: number;
  /** Open event streams (GET): they keep a session from being swept, not from being evicted. */
  streams: number;
}

export interface GatewayHttpOptions {
  idleMs?: number;
  maxSessions?: number;
  /** Every request must send `Authorization: Bearer <token>`. */
  token: string;
  /** More `host:port` values clients may send as Host (a name the gateway is reached by). */
  allowedHosts?: readonly string[];
}

export interface GatewayHttpServer {
  url: string;
  /** Live sessions. */
  sessionCount(): number;
  /** Ends every session, then stops listening. */
  close(): Promise<void>;
}

class BodyTooLargeError extends Error {}

export async function serveGatewayHttp(
  gateway: Gateway,
  host: string,
  port: number,
  options: GatewayHttpOptions,
): Promise<GatewayHttpServer> {
  const idleMs = options.idleMs ?? SESSION_IDLE_MS;
  const maxSessions = options.maxSessions ?? MAX_SESSIONS;
  if (options.token.length < 16) throw new Error('the gateway token must be 16 characters or more');
  const tokenDigest = sha256(options.token);
  const sessions = new Map<string, Session>();
  let opening = 0;
  let allowedHosts = new Set<string>(); // filled once the port is known
  const end = async (id: string): Promise<void> => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await session.transport.close();
    await session.server.close();
  };
  const track = (session: Session, req: IncomingMessage, res: ServerResponse): void => {
    if (res.closed) return;
    const counter = req.method === 'GET' ? 'streams' : 'inFlight';
    session[counter]++;
    session.lastSeen = Date.now();
    res.once('close', () => {
      session[counter]--;
      if (counter === 'inFlight') session.lastSeen = Date.now();
    });
  };

  const refusal = (req: IncomingMessage): [number, string] | null => {
    if (!allowedHosts.has(req.headers.host ?? '')) return [403, 'Host not allowed'];
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedHosts.has(hostOf(origin))) return [403, 'Origin not allowed'];
    if (!bearerMatches(req.headers.authorization, tokenDigest)) return [401, 'A bearer token is required'];
    return null;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.url?.split('?')[0] !== '/mcp') return void res.writeHead(404).end();
    const refused = refusal(req);
    if (refused) return rpcError(res, refused[0], -32000, refused[1]);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) return rpcError(res, 404, -32001, 'Session not found: initialize again');
      track(session, req, res);
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
    // Counted before any await, so racing initializes cannot pass the cap together.
    opening++;
    try {
      if (sessions.size + opening > maxSessions && !(await evictIdle())) {
        return rpcError(res, 503, -32000, 'Every session is busy: try again later');
      }
      const server = gateway.createServer();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          const session: Session = { transport, server, lastSeen: Date.now(), inFlight: 0, streams: 0 };
          sessions.set(id, session);
          track(session, req, res);
        },
        onsessionclosed: (id) => end(id),
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      opening--;
    }
  };

  /** Ends the session with no request in flight whose last request is oldest; false when none. */
  const evictIdle = async (): Promise<boolean> => {
    let oldest: [string, Session] | undefined;
    for (const entry of sessions) {
      if (entry[1].inFlight === 0 && (!oldest || entry[1].lastSeen < oldest[1].lastSeen)) oldest = entry;
    }
    if (!oldest) return false;
    await end(oldest[0]);
    return true;
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      if (res.headersSent) return void res.end();
      if (err instanceof BodyTooLargeError) return rpcError(res, 413, -32600, err.message);
      if (err instanceof SyntaxError) return rpcError(res, 400, -32700, `Parse error: ${err.message}`);
      rpcError(res, 500, -32603, 'Internal error');
    });
  });
  const sweep = setInterval(
    () => {
      const idleSince = Date.now() - idleMs;
      for (const [id, session] of sessions) {
        const idle = session.inFlight === 0 && session.streams === 0 && session.lastSeen < idleSince;
        if (idle) end(id).catch(() => undefined);
      }
    },
    Math.min(SWEEP_MS, idleMs),
  );
  sweep.unref();

  await new Promise<void>((resolve) => http.listen(port, host, resolve));
  const address = http.address() as AddressInfo;
  const names = ['127.0.0.1', 'localhost', '[::1]', ...(WILDCARDS.has(host) ? [] : [bracketed(host)])];
  allowedHosts = new Set([...names.map((h) => `${h}:${address.port}`), ...(options.allowedHosts ?? [])]);
  return {
    url: `http://${WILDCARDS.has(host) ? '127.0.0.1' : bracketed(host)}:${address.port}/mcp`,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.keys()].map(end));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

const bracketed = (host: string): string => (host.includes(':') ? `[${host}]` : host);

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Compares digests, so neither the token's length nor its bytes leak through timing. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer (.+)$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(sha256(match[1]!), expected);
}

/** `host:port` of an Origin URL, or '' when it is not one. */
function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return '';
  }
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
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError(`Request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}
