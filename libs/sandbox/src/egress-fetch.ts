/**
 * `fetch` for the hub's and the runtime's own connections to remote MCP servers, through an egress
 * proxy (egress-proxy.ts) rather than straight from the process: the proxy resolves the name, refuses
 * any address that is not public (unless its operator let that exact `address:port` through) and
 * connects to the address it checked, so a remote server is held to the same rule as a sandboxed
 * one, DNS rebinding included, and every connection is on the audit trail.
 *
 * `https` only: a `CONNECT` tunnel per request, TLS to the server's name inside it (verified against
 * the system's roots, plus `extraCa` when given), HTTP/1.1 over that. The answer's body streams, so
 * a server's event stream (SSE, streamable HTTP) reads as it arrives.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { connect as tlsConnect, rootCertificates } from 'node:tls';

export interface EgressFetchOptions {
  /** The proxy's Unix socket. */
  proxySocket: string;
  /** PEM certificates trusted besides the system's roots (a private CA). */
  extraCa?: string | null;
  /** How long the proxy may take to open the tunnel. Default 10 s. After that, the caller's signal is the deadline. */
  connectTimeoutMs?: number;
}

export type EgressFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** A refusal by the proxy, or a tunnel it could not open, with what it said. */
export class EgressRefusedError extends Error {}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const NO_BODY = new Set([101, 204, 205, 304]);

export function egressFetch(options: EgressFetchOptions): EgressFetch {
  // Given `ca`, Node trusts nothing else: the system's roots and the operator's NODE_EXTRA_CA_CERTS stay trusted.
  const ca = options.extraCa ? [...rootCertificates, ...operatorExtraCa(), options.extraCa] : undefined;
  const timeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  return async (input, init = {}) => {
    const url = new URL(String(input));
    if (url.protocol !== 'https:') throw new EgressRefusedError(`${url.protocol}// is not fetched: https only`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || 443);
    const signal = init.signal ?? undefined;
    const body = await requestBody(init.body);
    const raw = await tunnel(options.proxySocket, host, port, timeoutMs, signal);
    const secure = tlsConnect({
      socket: raw,
      // The name (or address) the certificate must be for.
      host,
      servername: isIP(host) ? undefined : host,
      ca,
      ALPNProtocols: ['http/1.1'],
    });
    return new Promise<Response>((resolve, reject) => {
      const req = httpsRequest(url, {
        method: init.method ?? 'GET',
        headers: { ...Object.fromEntries(new Headers(init.headers).entries()), host: url.host },
        // No agent: the request goes over this one TLS connection, inside the tunnel.
        createConnection: () => secure,
        // No idle deadline: an event stream may stay quiet for long; the caller's signal ends a request.
        signal,
      });
      req.once('error', reject);
      req.once('response', (res) => {
        // Whatever the server sends (a status Response refuses, a header it cannot hold) is this
        // request's failure, never an exception thrown out of the listener.
        try {
          const status = res.statusCode ?? 0;
          if (status < 200 || status > 599) throw new EgressRefusedError(`${url.host} answered status ${status}`);
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
              headers.append(name, one);
          }
          const stream = NO_BODY.has(status) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          if (!stream) res.resume();
          resolve(new Response(stream, { status, statusText: res.statusMessage ?? '', headers }));
        } catch (error) {
          res.destroy();
          reject(error instanceof Error ? error : new EgressRefusedError(String(error)));
        }
      });
      req.end(body);
    });
  };
}

/** A `CONNECT host:port` tunnel through the proxy's socket. */
function tunnel(
  proxySocket: string,
  host: string,
  port: number,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<Socket> {
  const authority = `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      socketPath: proxySocket,
      method: 'CONNECT',
      path: authority,
      headers: { host: authority },
      signal,
      timeout: timeoutMs,
    });
    req.once('timeout', () =>
      req.destroy(new EgressRefusedError(`the egress proxy opened no tunnel to ${authority} within ${timeoutMs} ms`)),
    );
    req.once('error', reject);
    req.once('connect', (res, socket, head: Buffer) => {
      if (res.statusCode === 200) {
        req.setTimeout(0);
        resolve(socket);
        return;
      }
      // The proxy's reason, on what it sent after its status line.
      const chunks: Buffer[] = [head];
      socket.once('error', reject);
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.once('close', () => {
        const reason = Buffer.concat(chunks).toString('utf8').trim().slice(0, 500);
        reject(new EgressRefusedError(reason || `the egress proxy answered ${res.statusCode} to ${authority}`));
      });
      socket.resume();
    });
    req.end();
  });
}

const operatorExtraCa = (): string[] => {
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (!file) return [];
  try {
    return [readFileSync(file, 'utf8')];
  } catch {
    return [];
  }
};

const requestBody = async (body: RequestInit['body']): Promise<Buffer | undefined> => {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  return Buffer.from(await new Response(body).arrayBuffer());
};
