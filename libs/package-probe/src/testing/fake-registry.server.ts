/**
 * A local npm and a local PyPI for tests: real HTTP servers on 127.0.0.1 answering from fixtures
 * like the real registries do, with scripted failures per path (429 with `Retry-After`, 5xx,
 * slow or malformed answers, redirects), ETag / 304 support, a log of every request and the most
 * requests ever in flight at once, and answers held until the test releases them (to make requests
 * overlap without guessing a delay). The npm side also serves tarballs (see packed-packages.ts), so
 * `npm install --registry=<fake>` works against it; the PyPI side serves a simple index and wheels
 * (see python-wheels.ts), so `pip install --index-url <fake>/simple/` does.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { REGISTRY_FIXTURES, type NpmPackument, type PypiProject, type RegistryFixtures } from './registry-fixtures';

export type FakeRegistryKind = 'npm' | 'pypi';

/** One scripted answer: the fixture answer, or an explicit one. */
export type FakeStep =
  | { fixture: true; delayMs?: number }
  | {
      status: number;
      /** Sent as JSON. */
      json?: unknown;
      /** Sent as is (malformed JSON, say). */
      raw?: string;
      headers?: Record<string, string>;
      /** Wait this long before the headers (or, with `delayBody`, between headers and body). */
      delayMs?: number;
      delayBody?: boolean;
      /** Send no Content-Length (chunked), as registries do for compressed answers: the size shows only while reading. */
      chunked?: boolean;
    };

/** Answer from the fixtures, as if nothing was scripted. */
export const FROM_FIXTURES: FakeStep = { fixture: true };

export interface FakeRequest {
  method: string;
  /** The raw path and query, as sent: `/@scope%2fname/1.2.3`. */
  path: string;
  ifNoneMatch: string | null;
}

interface Answer {
  status: number;
  body: string | Buffer;
  headers: Record<string, string>;
  chunked?: boolean;
}

const json = (status: number, value: unknown): Answer => ({
  status,
  body: JSON.stringify(value),
  headers: { 'content-type': 'application/json' },
});

/**
 * A JSON answer whose path-only `dist.tarball` values point at `baseUrl`, as a registry names its own
 * tarballs (the fixtures cannot know the port).
 */
const npmJson = (status: number, value: unknown, baseUrl: string): Answer => ({
  status,
  body: JSON.stringify(value, (key, field: unknown) =>
    key === 'tarball' && typeof field === 'string' && field.startsWith('/') ? `${baseUrl}${field}` : field,
  ),
  headers: { 'content-type': 'application/json' },
});

/**
 * An npm-like registry: `GET /<name>` (scoped `@scope%2fname`), `GET /<name>/<version-or-tag>`, and the
 * tarballs at the paths the fixtures name.
 */
function npmAnswer(
  packuments: ReadonlyMap<string, NpmPackument>,
  tarballs: Readonly<Record<string, Buffer>>,
  baseUrl: () => string,
  path: string,
): Answer {
  const tarball = Object.hasOwn(tarballs, path) ? tarballs[path] : undefined;
  if (tarball) return { status: 200, body: tarball, headers: { 'content-type': 'application/octet-stream' } };
  const segments = path.slice(1).split('/');
  if (segments.length > 2) return json(404, { error: 'Not found' });
  let name: string;
  let version: string | undefined;
  try {
    [name, version] = segments.map(decodeURIComponent) as [string, string | undefined];
  } catch {
    return json(400, { error: 'Invalid URI' });
  }
  const packument = packuments.get(name);
  if (!packument) return json(404, { error: 'Not found' });
  if (version === undefined) return npmJson(200, packument, baseUrl());
  const resolved = packument['dist-tags']?.[version] ?? version;
  const document =
    packument.versions && Object.hasOwn(packument.versions, resolved) ? packument.versions[resolved] : null;
  return document ? npmJson(200, document, baseUrl()) : json(404, `version not found: ${version}`);
}

/**
 * A PyPI-like JSON API: `GET /pypi/<name>/json` and `GET /pypi/<name>/<version>/json`, normalized
 * names only; and, for pip, the simple index (`GET /simple/<name>/`: every file of every release
 * with its sha256) and the files the fixtures carry (`wheels`, by path).
 */
function pypiAnswer(
  projects: ReadonlyMap<string, PypiProject>,
  wheels: Readonly<Record<string, Buffer>>,
  path: string,
): Answer {
  const wheel = Object.hasOwn(wheels, path) ? wheels[path] : undefined;
  if (wheel) return { status: 200, body: wheel, headers: { 'content-type': 'application/octet-stream' } };
  const simple = /^\/simple\/([^/]+)\/$/.exec(path);
  if (simple) {
    const listed = projects.get(decodeURIComponent(simple[1] as string));
    if (!listed) return { status: 404, body: 'Not Found', headers: { 'content-type': 'text/plain' } };
    const links = Object.values(listed.releases)
      .flatMap((release) => release.urls)
      .map((file) => `<a href="${file.url}#sha256=${file.digests.sha256}">${file.filename}</a><br/>`);
    const body = `<!DOCTYPE html><html><body>${links.join('\n')}</body></html>`;
    return { status: 200, body, headers: { 'content-type': 'text/html' } };
  }
  const match = /^\/pypi\/([^/]+)\/(?:([^/]+)\/)?json$/.exec(path);
  const project = match ? projects.get(decodeURIComponent(match[1] as string)) : undefined;
  if (!match || !project) return json(404, { message: 'Not Found' });
  const common = { last_serial: project.lastSerial, vulnerabilities: [] };
  const version = match[2] === undefined ? project.latest : decodeURIComponent(match[2]);
  const release = Object.hasOwn(project.releases, version) ? project.releases[version] : undefined;
  if (!release) return json(404, { message: 'Not Found' });
  if (match[2] !== undefined) return json(200, { info: release.info, ...common, urls: release.urls });
  const releases = Object.fromEntries(Object.entries(project.releases).map(([v, r]) => [v, r.urls]));
  return json(200, { info: release.info, ...common, releases, urls: release.urls });
}

export class FakeRegistryServer {
  readonly requests: FakeRequest[] = [];
  private readonly scripts = new Map<string, FakeStep[]>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private inFlight = 0;
  private mostInFlight = 0;
  /** Answers kept back while `holdAnswers()` is on, in arrival order. */
  private held: Array<() => void> | null = null;

  private constructor(
    private readonly server: Server,
    private readonly answer: (path: string) => Answer,
  ) {}

  /** With `tls`, it answers over HTTPS with that key and certificate (as a registry behind a company's proxy). */
  static async start(
    kind: FakeRegistryKind,
    fixtures: RegistryFixtures = REGISTRY_FIXTURES,
    tls?: { key: string; cert: string },
  ): Promise<FakeRegistryServer> {
    const server = tls ? createHttpsServer(tls) : createServer();
    const packuments = new Map(fixtures.npm.map((packument) => [packument.name, packument]));
    const projects = new Map(fixtures.pypi.map((project) => [project.name, project]));
    const answer = (path: string): Answer =>
      kind === 'npm'
        ? npmAnswer(packuments, fixtures.tarballs ?? {}, () => fake.baseUrl, path)
        : pypiAnswer(projects, fixtures.wheels ?? {}, path);
    const fake = new FakeRegistryServer(server, answer);
    server.on('request', (request, response) => fake.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get baseUrl(): string {
    const scheme = this.server instanceof HttpsServer ? 'https' : 'http';
    return `${scheme}://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The paths requested, in order. */
  get paths(): string[] {
    return this.requests.map((request) => request.path);
  }

  /** The most requests this server has had in flight at once. */
  get maxInFlight(): number {
    return this.mostInFlight;
  }

  /** Answers the next requests for `path` with `steps`, in order; the last step then repeats. */
  script(path: string, steps: FakeStep[]): void {
    if (steps.length === 0) throw new Error('a script needs at least one step');
    this.scripts.set(path, [...steps]);
  }

  /**
   * Keeps every answer back until the test releases it, so requests overlap however slow the
   * machine is (no delay to guess): `whenInFlight(n)` resolves once n requests are waiting,
   * `releaseOne()` sends the oldest answer, `releaseAll()` sends them all and stops holding.
   */
  holdAnswers(): void {
    this.held ??= [];
  }

  async whenInFlight(n: number): Promise<void> {
    while ((this.held?.length ?? this.inFlight) < n) await new Promise((resolve) => setImmediate(resolve));
  }

  releaseOne(): void {
    this.held?.shift()?.();
  }

  releaseAll(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const send of held) send();
  }

  /** Forgets the log, the scripts and the in-flight peak, and sends what it held. */
  reset(): void {
    this.releaseAll();
    this.requests.length = 0;
    this.scripts.clear();
    this.mostInFlight = 0;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const path = request.url ?? '/';
    const ifNoneMatch = request.headers['if-none-match'] ?? null;
    this.requests.push({ method: request.method ?? 'GET', path, ifNoneMatch });
    this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
    response.on('close', () => this.inFlight--);

    const step = this.nextStep(path);
    const delayMs = step.delayMs ?? 0;
    const answer =
      'fixture' in step ? this.withEtag(this.answer(path.split('?')[0] as string), ifNoneMatch) : scripted(step);
    const delayBody = !('fixture' in step) && step.delayBody === true;
    const send = (): void =>
      this.later(delayBody ? 0 : delayMs, () => {
        // The client may have timed out and hung up while the answer was delayed.
        if (response.destroyed) return;
        const length = answer.chunked ? {} : { 'content-length': Buffer.byteLength(answer.body) };
        response.writeHead(answer.status, { ...answer.headers, ...length });
        if (delayBody) response.flushHeaders();
        this.later(delayBody ? delayMs : 0, () => response.end(answer.body));
      });
    if (this.held) this.held.push(send);
    else send();
  }

  private nextStep(path: string): FakeStep {
    const steps = this.scripts.get(path);
    if (!steps) return FROM_FIXTURES;
    return (steps.length > 1 ? steps.shift() : steps[0]) as FakeStep;
  }

  /** Registries tag each answer with an ETag and answer a matching `If-None-Match` with 304. */
  private withEtag(answer: Answer, ifNoneMatch: string | null): Answer {
    if (answer.status !== 200) return answer;
    const etag = `"${createHash('sha1').update(answer.body).digest('hex')}"`;
    if (ifNoneMatch === etag) return { status: 304, body: '', headers: { etag } };
    return { ...answer, headers: { ...answer.headers, etag } };
  }

  private later(ms: number, run: () => void): void {
    if (ms <= 0) return run();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }
}

function scripted(step: Extract<FakeStep, { status: number }>): Answer {
  const body = step.raw ?? (step.json === undefined ? '' : JSON.stringify(step.json));
  return {
    status: step.status,
    body,
    headers: { 'content-type': 'application/json', ...step.headers },
    chunked: step.chunked,
  };
}

/** A local npm and a local PyPI, with the prober options that point at them. */
export class FakeRegistries {
  private constructor(
    readonly npm: FakeRegistryServer,
    readonly pypi: FakeRegistryServer,
  ) {}

  static async start(fixtures: RegistryFixtures = REGISTRY_FIXTURES): Promise<FakeRegistries> {
    const [npm, pypi] = await Promise.all([
      FakeRegistryServer.start('npm', fixtures),
      FakeRegistryServer.start('pypi', fixtures),
    ]);
    return new FakeRegistries(npm, pypi);
  }

  get baseUrls(): { npmBaseUrl: string; pypiBaseUrl: string } {
    return { npmBaseUrl: this.npm.baseUrl, pypiBaseUrl: this.pypi.baseUrl };
  }

  reset(): void {
    this.npm.reset();
    this.pypi.reset();
  }

  async close(): Promise<void> {
    await Promise.all([this.npm.close(), this.pypi.close()]);
  }
}
