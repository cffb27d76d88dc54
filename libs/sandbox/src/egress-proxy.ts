/**
 * The only way out of a sandbox granted network: an HTTP proxy (CONNECT tunnels and plain absolute-form
 * HTTP requests) listening on a Unix socket that is bound into that one sandbox. The sandbox has a
 * network namespace of its own with nothing in it but its loopback, where a bridge (network-bridge.ts)
 * forwards `HTTP(S)_PROXY=http://127.0.0.1:3128` to this socket; a program that ignores the proxy has
 * no route anywhere.
 *
 * For each request the proxy resolves the name itself, refuses it when any address it resolves to is
 * not public (address-policy.ts) unless the operator allowed that exact `address:port`, honours the
 * domain allowlist when one is given, then connects to the very address it checked (so a name that
 * answers differently the second time, DNS rebinding, gains nothing). Every decision is reported
 * through `onEvent`, allowed or refused, for the audit trail.
 */
import { promises as dns } from 'node:dns';
import { chmod, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { refusedAddress } from './address-policy';

export interface EgressEvent {
  at: string;
  /** Whose sandbox asked (the proxy's `name`). */
  server: string;
  /** `CONNECT`, or the method of a plain HTTP request. */
  method: string;
  host: string;
  port: number;
  /** The address connected to (allowed) or the one that was refused. */
  address?: string;
  verdict: 'allowed' | 'refused';
  reason?: string;
}

export type HostLookup = (host: string) => Promise<Array<{ address: string; family: number }>>;

export interface EgressProxyOptions {
  /** Whose sandbox this proxy serves, as events name it. */
  name: string;
  /** Where to listen (absolute); replaced if it exists. */
  socketPath: string;
  /** Only these names may be reached (`example.com`, `*.example.com` for its subdomains); null: any public host. */
  allowDomains?: readonly string[] | null;
  /** Exact `address:port` destinations the operator lets through although they are not public (`[::1]:8080` for IPv6). */
  allowAddresses?: readonly string[];
  onEvent?: (event: EgressEvent) => void;
  /** Name resolution; the system's (getaddrinfo, every address) by default. */
  lookup?: HostLookup;
  /** How long a connection to the destination may take to open. Default 10 s. */
  connectTimeoutMs?: number;
  /** Tunnels and requests open at once. Default 256. */
  maxConnections?: number;
}

/** The port the bridge inside a sandbox listens on, which `HTTP(S)_PROXY` names. */
export const SANDBOX_PROXY_PORT = 3128;

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_CONNECTIONS = 256;
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
/** Request headers meant for the proxy, never passed on. */
const HOP_HEADERS = ['proxy-authorization', 'proxy-connection', 'connection', 'keep-alive', 'te', 'upgrade'];

type Target = { host: string; port: number };
type Decision = { ok: true; address: string } | { ok: false; reason: string; address?: string };

const systemLookup: HostLookup = (host) => dns.lookup(host, { all: true, verbatim: true });

export class EgressProxy {
  private readonly server = createServer();
  private readonly open = new Set<Duplex>();
  private readonly allowAddresses: ReadonlySet<string>;
  private readonly allowDomains: readonly string[] | null;

  private constructor(private readonly options: EgressProxyOptions) {
    this.allowAddresses = new Set((options.allowAddresses ?? []).map((entry) => entry.toLowerCase()));
    this.allowDomains = options.allowDomains?.map((domain) => domain.toLowerCase().replace(/\.$/, '')) ?? null;
    this.server.on(
      'connect',
      (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.tunnel(req, socket, head),
    );
    this.server.on('request', (req: IncomingMessage, res: ServerResponse) => void this.forward(req, res));
    this.server.on('clientError', (_error, socket: Duplex) => socket.destroy());
    this.server.headersTimeout = 30_000;
    this.server.requestTimeout = 0;
  }

  /** Listens on `options.socketPath`, mode 0600 (the launcher hands it to the sandbox's own user). */
  static async start(options: EgressProxyOptions): Promise<EgressProxy> {
    const proxy = new EgressProxy(options);
    await rm(options.socketPath, { force: true });
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(options.socketPath, () => {
        proxy.server.off('error', reject);
        resolve();
      });
    });
    await chmod(options.socketPath, 0o600);
    return proxy;
  }

  get socketPath(): string {
    return this.options.socketPath;
  }

  /** Stops listening and cuts every tunnel. */
  async close(): Promise<void> {
    for (const socket of this.open) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await rm(this.options.socketPath, { force: true });
  }

  /** `CONNECT host:port`: a tunnel to the checked address, or 403 with the reason. */
  private async tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const target = parseAuthority(req.url ?? '');
    if (!target) return void client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    if (!this.admit(client)) return void client.end('HTTP/1.1 503 Service Unavailable\r\n\r\n');
    const decision = await this.decide('CONNECT', target);
    if (!decision.ok) return void client.end(refusalResponse(decision.reason));
    const upstream = await this.dial(decision.address, target.port).catch((error: Error) => {
      client.end(`HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\n\r\n${error.message}\n`);
      return null;
    });
    if (!upstream) return;
    this.track(upstream);
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  }

  /** A plain `GET http://host/path` request: sent on to the checked address with its Host header. */
  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return void res.writeHead(400, { 'content-type': 'text/plain' }).end('absolute-form http:// URLs only\n');
    }
    if (url.protocol !== 'http:') {
      return void res.writeHead(400, { 'content-type': 'text/plain' }).end('use CONNECT for https\n');
    }
    const target = parseAuthority(`${url.hostname}:${url.port || '80'}`);
    if (!target) return void res.writeHead(400).end();
    if (!this.admit(req.socket)) return void res.writeHead(503).end();
    const decision = await this.decide(req.method ?? 'GET', target);
    if (!decision.ok) {
      return void res.writeHead(403, { 'content-type': 'text/plain' }).end(`${decision.reason}\n`);
    }
    const headers = { ...req.headers };
    for (const name of HOP_HEADERS) delete headers[name];
    const upstream = httpRequest({
      host: decision.address,
      port: target.port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, host: url.host },
      timeout: this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('the destination did not answer in time')));
    upstream.on('error', (error) => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { 'content-type': 'text/plain' }).end(`${error.message}\n`);
    });
    req.pipe(upstream);
  }

  /** Counts the connection, or false when the proxy is full. */
  private admit(socket: Duplex): boolean {
    if (this.open.size >= (this.options.maxConnections ?? DEFAULT_MAX_CONNECTIONS)) return false;
    this.track(socket);
    return true;
  }

  private track(socket: Duplex): void {
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
  }

  /** Resolves the host, checks every address, and reports the decision. */
  private async decide(method: string, target: Target): Promise<Decision> {
    const decision = await this.check(target);
    this.options.onEvent?.({
      at: new Date().toISOString(),
      server: this.options.name,
      method,
      host: target.host,
      port: target.port,
      ...(decision.address !== undefined && { address: decision.address }),
      verdict: decision.ok ? 'allowed' : 'refused',
      ...(!decision.ok && { reason: decision.reason }),
    });
    return decision;
  }

  private async check({ host, port }: Target): Promise<Decision> {
    const literal = isIP(host) !== 0;
    if (this.allowDomains && (literal || !this.allowDomains.some((pattern) => matchesDomain(host, pattern)))) {
      return { ok: false, reason: `${host} is not in this server's domain allowlist` };
    }
    let addresses: string[];
    try {
      addresses = literal ? [host] : (await (this.options.lookup ?? systemLookup)(host)).map((a) => a.address);
    } catch (error) {
      return { ok: false, reason: `${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
    }
    if (addresses.length === 0) return { ok: false, reason: `${host} does not resolve` };
    // Every address must pass, not just the first: the proxy never picks a public one out of a mixed answer.
    for (const address of addresses) {
      if (this.allowAddresses.has(authority(address, port))) continue;
      const why = refusedAddress(address);
      if (why !== null) {
        const resolved = literal ? '' : ` (${host} resolves to it)`;
        return { ok: false, address, reason: `${address} is ${why}${resolved}: only public addresses are reachable` };
      }
    }
    return { ok: true, address: addresses[0]! };
  }

  private dial(address: string, port: number): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: address, port });
      const timer = setTimeout(
        () => socket.destroy(new Error(`${authority(address, port)} did not answer in time`)),
        this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      );
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(socket);
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }
}

/** `host:port` or `[v6]:port`, the host lower-cased without a trailing dot; null when malformed. */
export const parseAuthority = (text: string): Target | null => {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]/@\s]+)):(\d{1,5})$/.exec(text);
  if (!match) return null;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return null;
  if (match[1] !== undefined) return isIP(match[1]) === 6 ? { host: match[1].toLowerCase(), port } : null;
  const host = match[2]!.toLowerCase().replace(/\.$/, '');
  return isIP(host) === 4 || HOSTNAME.test(host) ? { host, port } : null;
};

/** `example.com` matches itself only; `*.example.com` matches its subdomains, not itself. */
export const matchesDomain = (host: string, pattern: string): boolean =>
  pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : host === pattern;

const authority = (address: string, port: number): string =>
  `${isIP(address) === 6 ? `[${address.toLowerCase()}]` : address}:${port}`;

const refusalResponse = (reason: string): string =>
  `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nRefused by the sandbox's proxy: ${reason.replace(/[\r\n]/g, ' ')}\n`;
