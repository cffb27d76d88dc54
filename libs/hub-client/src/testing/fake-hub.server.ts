/**
 * A scripted hub for the client's tests: a real HTTP server on 127.0.0.1 that answers each
 * `METHOD /raw/path` with the answers given, in turn (the last one repeats), and records every
 * request as it arrived: raw path and query, headers, body.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** The path as sent, still escaped. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface FakeAnswer {
  status: number;
  /** Sent as `application/json` (or with the content-type in `headers`). */
  json?: unknown;
  /** Sent as is: malformed JSON, an HTML page, bundle bytes. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  /** Wait this long before answering (to outlast the client's timeout). */
  delayMs?: number;
  /** With `delayMs`: send the headers at once and wait before the body. */
  delayBody?: boolean;
  /** Drop the connection instead of answering (a network error). */
  hangUp?: boolean;
}

export type FakeResponder = FakeAnswer | ((request: RecordedRequest) => FakeAnswer);

export const problem = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}) => ({
  status,
  headers: { 'content-type': 'application/problem+json' },
  json: { type: 'about:blank', title: 'Error', status, detail, code, instance: '/', ...extra },
});

export class FakeHub {
  readonly requests: RecordedRequest[] = [];
  private readonly routes = new Map<string, FakeResponder[]>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeHub> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const hub = new FakeHub(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = req.url ?? '/';
        const q = url.indexOf('?');
        const request: RecordedRequest = {
          method: req.method ?? 'GET',
          path: q === -1 ? url : url.slice(0, q),
          query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)),
          headers: req.headers,
          body: Buffer.concat(chunks),
        };
        hub.requests.push(request);
        const responder = hub.next(`${request.method} ${request.path}`);
        const answer = typeof responder === 'function' ? responder(request) : responder;
        const headers = { ...answer.headers };
        let body: string | Buffer = answer.raw ?? '';
        if (answer.json !== undefined) {
          headers['content-type'] ??= 'application/json';
          body = JSON.stringify(answer.json);
        }
        const finish = () => {
          if (res.destroyed) return;
          if (answer.hangUp) return void req.socket.destroy();
          if (!res.headersSent) res.writeHead(answer.status, headers);
          res.end(body);
        };
        if (!answer.delayMs) return finish();
        if (answer.delayBody) res.writeHead(answer.status, headers).flushHeaders();
        const timer = setTimeout(() => {
          hub.timers.delete(timer);
          finish();
        }, answer.delayMs);
        hub.timers.add(timer);
      });
    });
    return hub;
  }

  /** Scripts `METHOD /raw/path`: these answers in turn, then the last one again. */
  on(method: string, path: string, ...answers: FakeResponder[]): this {
    this.routes.set(`${method} ${path}`, answers);
    return this;
  }

  /** The requests that reached `METHOD /raw/path`. */
  requestsTo(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private next(key: string): FakeResponder {
    const answers = this.routes.get(key);
    if (!answers?.length) return problem(404, 'TEST.NOT_SCRIPTED', `${key} is not scripted.`);
    return answers.length > 1 ? answers.shift()! : answers[0]!;
  }
}
