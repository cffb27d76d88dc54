/**
 * The hub's HTTP API for the agent runtime and the CLI: one method per route, typed by the types
 * generated from the hub's OpenAPI document, answers checked against that document's schemas,
 * refusals as HubApiError with the problem document. This file keeps what no document says: the
 * transport (retrying-request.ts), redaction of the token, and the guards on path segments.
 */
import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type {
  BadgeOptions,
  CertificateResponse,
  CertificationStatusResponse,
  Checkpoint,
  CreatedTokenResponse,
  CreateTokenRequest,
  DsseEnvelope,
  HealthResponse,
  IterateSkillsQuery,
  KazmaSearchOptions,
  KazmaSearchResponse,
  KeysResponse,
  ListSkillsQuery,
  LogEntry,
  ProblemDocument,
  Proof,
  PublisherKey,
  PublisherKeysResponse,
  PublishOptions,
  PublishResponse,
  ReadinessResponse,
  SkillListItem,
  SkillListResponse,
  SkillResponse,
  SkillVersionResponse,
  StatsResponse,
  SubmitOptions,
  SubmitSkillResponse,
  TokenResponse,
  ValidateSkillResponse,
  VersionStatusChange,
  WhoamiResponse,
} from './hub-api';
import type { paths } from './hub-api.openapi';
import { checkAnswer, isProblem } from './hub-api.validator';
import {
  HUB_BUNDLE_DIGEST_MISMATCH,
  HUB_MALFORMED_RESPONSE,
  HubApiError,
  HubRequestError,
  HubResponseError,
} from './hub-client.errors';
import {
  type HttpMethod,
  type HubRequest,
  type HubResponse,
  isAnswer,
  sendWithRetries,
  type TransportOptions,
} from './retrying-request';

export interface HubClientOptions {
  /** The hub's root URL (KAZMA_HUB_URL); a path prefix is kept: `https://example.com/hub`. */
  baseUrl: string;
  /** A publisher token (shp_…) or the operator token; sent as `Authorization: Bearer` only when set. */
  token?: string;
  /** Per attempt, headers and body together. */
  timeoutMs?: number;
  /** Attempts in all, the first included. */
  maxAttempts?: number;
  baseDelayMs?: number;
  /** The longest wait between attempts; a `Retry-After` beyond it ends the retries. */
  maxDelayMs?: number;
  /** Cap on a JSON answer (an error's body included). */
  maxJsonBytes?: number;
  /** Cap on a downloaded bundle. */
  maxBundleBytes?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** In [0, 1): draws the jitter. */
  random?: () => number;
  /** Reads `Retry-After` dates against this clock. */
  now?: () => number;
  userAgent?: string;
}

export const HUB_CLIENT_DEFAULTS = {
  timeoutMs: 10_000,
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 10_000,
  maxJsonBytes: 5 * 1024 * 1024,
  maxBundleBytes: 50 * 1024 * 1024,
  userAgent: 'skillhub-hub-client',
} as const;

/** `publish`: 201 when the version was created, 200 when the same bytes were already published. */
export interface PublishResult {
  created: boolean;
  result: PublishResponse;
}

export interface DownloadBundleOptions {
  /** A digest the caller already trusts (a lock file, `bundle_sha256` of a verified version): checked too. */
  expectedSha256?: string;
}

export interface DownloadedBundle {
  bytes: Buffer;
  /** Lowercase hex SHA-256 of `bytes`, checked against what the hub declared. */
  sha256: string;
}

/** The hub's largest cursor page: `iterateSkills` asks for it unless told otherwise. */
const MAX_PAGE_SIZE = 100;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** What a token may hold: visible ASCII (RFC 9110 field-vchar), which a header carries as is. */
const HEADER_TOKEN = /^[\x21-\x7e]+$/;
/** A User-Agent may hold spaces too. */
const HEADER_TEXT = /^[\x20-\x7e]+$/;
const REDACTED = '[redacted]';

// ---- The document's routes, as types ----

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Route = keyof paths;
/** The routes that have an operation for `M`. */
type RouteFor<M extends Method> = { [R in Route]: paths[R][M] extends undefined ? never : R }[Route];
type Operation<M extends Method, R extends Route> = NonNullable<paths[R][M]>;
type PathParams<O> = O extends { parameters: { path: infer P } } ? P : never;
type QueryParams<O> = O extends { parameters: { query?: infer Q } } ? Q : never;
type JsonBody<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
/** What the route answers as JSON, whatever the status (readiness answers its report with 503 too). */
type JsonAnswer<O> = O extends { responses: infer R }
  ? { [S in keyof R]: R[S] extends { content: { 'application/json': infer B } } ? B : never }[keyof R]
  : never;

type CallSpec<O> = ([PathParams<O>] extends [never] ? { path?: never } : { path: PathParams<O> }) & {
  query?: QueryParams<O>;
  json?: JsonBody<O>;
  bundle?: Buffer;
  /** Statuses besides 2xx that are answers, not refusals. */
  answerStatuses?: readonly number[];
};

type QueryValue = string | number | boolean | readonly string[] | undefined;

/**
 * One escaped path segment. `.`, `..` and `''` are refused: URL parsing would resolve them away
 * (percent-encoding does not stop it: `%2e%2e` is a dot segment too), sending the request to
 * another route. `/` and `?` inside a name are escaped like everything else.
 */
function segment(value: string | number | undefined): string {
  const text = String(value);
  if (value === undefined || text === '' || text === '.' || text === '..') {
    throw new HubRequestError(`Refused to send: ${JSON.stringify(value ?? '')} cannot be a path segment.`);
  }
  try {
    return encodeURIComponent(text);
  } catch {
    throw new HubRequestError('Refused to send: a path segment holds a lone surrogate, which has no UTF-8 form.');
  }
}

/** The document's path template with each `{name}` an escaped segment: `/api/v1/skills/acme/weather`. */
function fill(route: Route, params: Record<string, string | number> = {}): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) => segment(params[name]));
}

/** Query parameters, leaving out the unset ones; lists go as the comma lists the hub reads. */
function queryOf(params: object = {}): URLSearchParams {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params) as Array<[string, QueryValue]>) {
    if (value === undefined) continue;
    query.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  return query;
}

/** The digest a strong ETag names (`"<sha256>"`); a weak or other ETag says nothing about the bytes. */
function etagDigest(etag: string | null): string | null {
  const match = /^"([0-9a-fA-F]{64})"$/.exec(etag?.trim() ?? '');
  return match ? match[1]!.toLowerCase() : null;
}

interface SendSpec {
  query?: URLSearchParams;
  json?: unknown;
  bundle?: Buffer;
  accept?: string;
  maxResponseBytes?: number;
  answerStatuses?: readonly number[];
}

/** Every call is `async`, so that a refused argument rejects like any other failure instead of throwing. */
export class HubClient {
  /** The hub's root as used: origin and path prefix, without a trailing slash. */
  readonly baseUrl: string;
  /** A #private field: util.inspect and JSON.stringify of the client never show it. */
  readonly #token: string | undefined;
  private readonly userAgent: string;
  private readonly maxJsonBytes: number;
  private readonly maxBundleBytes: number;
  private readonly transport: TransportOptions;

  constructor(options: HubClientOptions) {
    const url = HubClient.parseBaseUrl(options.baseUrl);
    this.baseUrl = url.origin + url.pathname.replace(/\/+$/, '');
    if (options.token !== undefined && !HEADER_TOKEN.test(options.token)) {
      // Said without the value: fetch's own error would quote the header, token and all.
      throw new HubRequestError('The token holds characters an Authorization header cannot carry.');
    }
    this.#token = options.token;
    this.userAgent = options.userAgent ?? HUB_CLIENT_DEFAULTS.userAgent;
    // Checked here: fetch would reject it on every attempt, which would read as a network error.
    if (!HEADER_TEXT.test(this.userAgent)) throw new HubRequestError('The user agent must be printable ASCII.');
    this.maxJsonBytes = options.maxJsonBytes ?? HUB_CLIENT_DEFAULTS.maxJsonBytes;
    this.maxBundleBytes = options.maxBundleBytes ?? HUB_CLIENT_DEFAULTS.maxBundleBytes;
    const maxAttempts = options.maxAttempts ?? HUB_CLIENT_DEFAULTS.maxAttempts;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
      throw new HubRequestError(`maxAttempts must be a whole number of at least 1, not ${maxAttempts}.`);
    }
    this.transport = {
      base: this.baseUrl,
      origin: url.origin,
      timeoutMs: options.timeoutMs ?? HUB_CLIENT_DEFAULTS.timeoutMs,
      maxAttempts,
      baseDelayMs: options.baseDelayMs ?? HUB_CLIENT_DEFAULTS.baseDelayMs,
      maxDelayMs: options.maxDelayMs ?? HUB_CLIENT_DEFAULTS.maxDelayMs,
      fetch: options.fetch ?? fetch,
      sleep: options.sleep,
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
    };
  }

  // ---- Health ----

  async health(): Promise<HealthResponse> {
    return this.call('get', '/api/v1/health', {});
  }

  /** The readiness report, whether the hub is ready (200) or not (503). */
  async ready(): Promise<ReadinessResponse> {
    return this.call('get', '/api/v1/health/ready', { answerStatuses: [503] });
  }

  // ---- Discovery ----

  async listSkills(query: ListSkillsQuery = {}): Promise<SkillListResponse> {
    return this.call('get', '/api/v1/skills', { query });
  }

  /** Every matching skill, page after page by cursor. */
  async *iterateSkills(query: IterateSkillsQuery = {}): AsyncGenerator<SkillListItem, void, undefined> {
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      // `limit` is always sent: without it (and without a cursor) the hub pages by number and returns no cursor.
      const page = await this.call('get', '/api/v1/skills', {
        query: { ...query, limit: query.limit ?? MAX_PAGE_SIZE, cursor },
      });
      const malformed = (reason: string) =>
        new HubResponseError({
          method: 'GET',
          path: '/api/v1/skills',
          status: 200,
          code: HUB_MALFORMED_RESPONSE,
          reason,
        });
      // Optional in the document (page paging has none); a cursor page must say where the next starts.
      if (page.next_cursor === undefined)
        throw malformed('the body does not fit: next_cursor: a cursor page must have it');
      yield* page.items;
      cursor = page.next_cursor ?? undefined;
      if (cursor !== undefined && seen.has(cursor)) {
        throw malformed('the hub returned a cursor it had already returned (the listing would never end)');
      }
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
  }

  /** Kazma's search route: at most 100 items. */
  async kazmaSearch(q: string, options: KazmaSearchOptions = {}): Promise<KazmaSearchResponse> {
    return this.call('get', '/api/v1/skills/search', {
      query: { q, category: options.category, certified: options.certified },
    });
  }

  async stats(): Promise<StatsResponse> {
    return this.call('get', '/api/v1/stats', {});
  }

  // ---- Skills ----

  async getSkill(author: string, name: string): Promise<SkillResponse> {
    return this.call('get', '/api/v1/skills/{author}/{name}', { path: { author, name } });
  }

  async getVersion(author: string, name: string, version: string): Promise<SkillVersionResponse> {
    return this.call('get', '/api/v1/skills/{author}/{name}/versions/{version}', { path: { author, name, version } });
  }

  /**
   * The bundle, byte for byte. Its SHA-256 must equal every digest declared for it (the ETag,
   * X-Content-SHA256, and `expectedSha256` when given), and at least one must be declared:
   * bytes that cannot be checked are not handed over. A mismatch is not retried; it means a
   * corrupting proxy or cache, which a second request would likely meet again.
   */
  async downloadBundle(
    author: string,
    name: string,
    version: string,
    options: DownloadBundleOptions = {},
  ): Promise<DownloadedBundle> {
    const path = fill('/api/v1/skills/{author}/{name}/versions/{version}/bundle', { author, name, version });
    const response = await this.send('GET', path, {
      accept: 'application/gzip',
      maxResponseBytes: this.maxBundleBytes,
    });
    const sha256 = createHash('sha256').update(response.body).digest('hex');
    const declared: Array<[string, string | null]> = [
      ['the ETag', etagDigest(response.headers.get('etag'))],
      ['X-Content-SHA256', response.headers.get('x-content-sha256')?.trim().toLowerCase() ?? null],
      ['the expected digest', options.expectedSha256?.trim().toLowerCase() ?? null],
    ];
    const claims = declared.filter((claim): claim is [string, string] => claim[1] !== null);
    const fail = (reason: string): never => {
      throw new HubResponseError({
        method: 'GET',
        path,
        status: response.status,
        code: HUB_BUNDLE_DIGEST_MISMATCH,
        reason,
      });
    };
    if (claims.length === 0) fail('it declared no SHA-256 (ETag or X-Content-SHA256) to check the bundle against');
    for (const [source, digest] of claims) {
      if (!SHA256_HEX.test(digest)) fail(`${source} is not a SHA-256 digest`);
      if (digest !== sha256) fail(`the bundle's SHA-256 is ${sha256}, and ${source} says ${digest}`);
    }
    return { bytes: response.body, sha256 };
  }

  /** 201 (`created`) for a new version, 200 when the same bytes were already published. */
  async publish(bundle: Buffer, options: PublishOptions = {}): Promise<PublishResult> {
    const { status, body } = await this.exchange('post', '/api/v1/skills', { bundle, query: options });
    return { created: status === 201, result: body };
  }

  /** The publish checks without storing anything; with a token, also whether it may publish this. */
  async validate(bundle: Buffer, options: PublishOptions = {}): Promise<ValidateSkillResponse> {
    return this.call('post', '/api/v1/skills/validate', { bundle, query: options });
  }

  /** Deprecate, yank or restore (`active`) a version. */
  async setVersionStatus(
    author: string,
    name: string,
    version: string,
    change: VersionStatusChange,
  ): Promise<SkillVersionResponse> {
    return this.call('patch', '/api/v1/skills/{author}/{name}/versions/{version}', {
      path: { author, name, version },
      json: change,
    });
  }

  // ---- Certification ----

  /** The version's certification, or the listed version's when `version` is omitted. */
  async certification(author: string, name: string, version?: string): Promise<CertificationStatusResponse> {
    return version === undefined
      ? this.call('get', '/api/v1/skills/{author}/{name}/certification', { path: { author, name } })
      : this.call('get', '/api/v1/skills/{author}/{name}/versions/{version}/certification', {
          path: { author, name, version },
        });
  }

  async submissionCertification(submissionId: string): Promise<CertificationStatusResponse> {
    return this.call('get', '/api/v1/submissions/{id}/certification', { path: { id: submissionId } });
  }

  // ---- Trust ----

  /** The signed certificate, its log index and an inclusion proof in the current checkpoint. */
  async certificate(author: string, name: string, version: string): Promise<CertificateResponse> {
    return this.call('get', '/api/v1/skills/{author}/{name}/versions/{version}/certificate', {
      path: { author, name, version },
    });
  }

  /** The hub's public keys, retired ones included. */
  async keys(): Promise<KeysResponse> {
    return this.call('get', '/.well-known/skillhub/keys.json', {});
  }

  /** The signed revocation list as sent: verify the envelope before reading its payload. */
  async revocations(): Promise<DsseEnvelope> {
    return this.call('get', '/.well-known/skillhub/revocations.json', {});
  }

  async logCheckpoint(): Promise<Checkpoint> {
    return this.call('get', '/api/v1/log/checkpoint', {});
  }

  async logEntry(index: number): Promise<LogEntry> {
    return this.call('get', '/api/v1/log/entries/{index}', { path: { index } });
  }

  async inclusionProof(index: number, treeSize: number): Promise<Proof> {
    return this.call('get', '/api/v1/log/proof/inclusion', { query: { index, tree_size: treeSize } });
  }

  async consistencyProof(first: number, second: number): Promise<Proof> {
    return this.call('get', '/api/v1/log/proof/consistency', { query: { first, second } });
  }

  /** Revokes a version's certification; the reason goes into the transparency log. */
  async revoke(author: string, name: string, version: string, reason: string): Promise<LogEntry> {
    return this.call('post', '/api/v1/skills/{author}/{name}/versions/{version}/revoke', {
      path: { author, name, version },
      json: { reason },
    });
  }

  /** Retires the signing key and starts a new one (operator). */
  async rotateSigningKeys(): Promise<KeysResponse> {
    return this.call('post', '/api/v1/admin/signing-keys/rotate', {});
  }

  /** Registers the namespace's Kazma HMAC secret (the hub stores it sealed and never returns it). */
  async setKazmaSecret(slug: string, secret: string): Promise<void> {
    await this.send('PUT', fill('/api/v1/namespaces/{slug}/kazma-secret', { slug }), { json: { secret } });
  }

  async deleteKazmaSecret(slug: string): Promise<void> {
    await this.send('DELETE', fill('/api/v1/namespaces/{slug}/kazma-secret', { slug }));
  }

  /** The namespace's publisher keys (C14), removed ones included; no token needed. */
  async publisherKeys(slug: string): Promise<PublisherKeysResponse> {
    return this.call('get', '/api/v1/namespaces/{slug}/publisher-keys', { path: { slug } });
  }

  /** Registers an Ed25519 public key (SPKI PEM): from then on, the namespace's versions must be signed by an active key. */
  async registerPublisherKey(slug: string, publicKeyPem: string, name?: string): Promise<PublisherKey> {
    return this.call('post', '/api/v1/namespaces/{slug}/publisher-keys', {
      path: { slug },
      json: { public_key: publicKeyPem, name },
    });
  }

  async removePublisherKey(slug: string, keyId: string): Promise<PublisherKey> {
    return this.call('delete', '/api/v1/namespaces/{slug}/publisher-keys/{keyId}', { path: { slug, keyId } });
  }

  // ---- Submissions ----

  /** Kazma's unauthenticated `hub submit`: quarantined until the namespace's owner claims it. */
  async submit(manifest: Record<string, unknown>, options: SubmitOptions = {}): Promise<SubmitSkillResponse> {
    return this.call('post', '/api/v1/skills/submit', { json: { manifest, ...options } });
  }

  async getSubmission(submissionId: string): Promise<SubmitSkillResponse> {
    return this.call('get', '/api/v1/submissions/{id}', { path: { id: submissionId } });
  }

  /** Claims a submission for the token's namespace: with its bundle, or none when the manifest names no code. */
  async claimSubmission(submissionId: string, bundle?: Buffer): Promise<PublishResponse> {
    return this.call('post', '/api/v1/submissions/{id}/claim', { path: { id: submissionId }, bundle });
  }

  // ---- Tokens ----

  /** The secret is in the answer's `token`, once. */
  async createToken(request: CreateTokenRequest = {}): Promise<CreatedTokenResponse> {
    return this.call('post', '/api/v1/tokens', { json: request });
  }

  async listTokens(): Promise<TokenResponse[]> {
    return this.call('get', '/api/v1/tokens', {});
  }

  async revokeToken(id: string): Promise<TokenResponse> {
    return this.call('delete', '/api/v1/tokens/{id}', { path: { id } });
  }

  /** Who the token is: its publisher, scopes, namespaces (with whether each registered a Kazma secret), expiry. */
  async whoami(): Promise<WhoamiResponse> {
    return this.call('get', '/api/v1/whoami', {});
  }

  // ---- Badges ----

  /** The SVG badge's URL, to embed in a README; no request is made. */
  badgeUrl(author: string, name: string, options: BadgeOptions = {}): string {
    const query = queryOf({ style: options.style, label: options.label, version: options.version }).toString();
    return `${this.baseUrl}${fill('/api/v1/skills/{author}/{name}/badge.svg', { author, name })}${query ? `?${query}` : ''}`;
  }

  // ---- Plumbing ----

  /** A JSON route of the document, its answer checked against the document's schema. */
  private async call<M extends Method, R extends RouteFor<M>>(
    method: M,
    route: R,
    spec: CallSpec<Operation<M, R>>,
  ): Promise<JsonAnswer<Operation<M, R>>> {
    return (await this.exchange(method, route, spec)).body;
  }

  private async exchange<M extends Method, R extends RouteFor<M>>(
    method: M,
    route: R,
    spec: CallSpec<Operation<M, R>>,
  ): Promise<{ status: number; body: JsonAnswer<Operation<M, R>> }> {
    const verb = method.toUpperCase() as HttpMethod;
    const path = fill(route, spec.path as Record<string, string | number> | undefined);
    const response = await this.send(verb, path, {
      query: queryOf(spec.query ?? {}),
      json: spec.json,
      bundle: spec.bundle,
      answerStatuses: spec.answerStatuses,
    });
    const body = this.decode(route, verb, path, response) as JsonAnswer<Operation<M, R>>;
    return { status: response.status, body };
  }

  /** The response when it is an answer; a HubApiError when the hub refused. */
  private async send(method: HttpMethod, path: string, spec: SendSpec = {}): Promise<HubResponse> {
    const headers: Record<string, string> = {
      accept: spec.accept ?? 'application/json',
      'user-agent': this.userAgent,
    };
    if (this.#token !== undefined) headers.authorization = `Bearer ${this.#token}`;
    let body: Uint8Array | string | undefined;
    if (spec.bundle !== undefined) {
      headers['content-type'] = 'application/gzip';
      body = spec.bundle;
    } else if (spec.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(spec.json);
    }
    const request: HubRequest = {
      method,
      path,
      query: spec.query,
      headers,
      body,
      maxResponseBytes: spec.maxResponseBytes ?? this.maxJsonBytes,
      answerStatuses: spec.answerStatuses,
    };
    const response = await sendWithRetries(this.transport, request);
    if (!isAnswer(request, response.status)) {
      throw new HubApiError({
        method,
        path,
        status: response.status,
        problem: this.problemOf(response),
        retryAfterMs: response.retryAfterMs,
      });
    }
    return response;
  }

  /** The body as JSON that fits the document's schema for `route`; members it does not know are dropped. */
  private decode(route: Route, method: HttpMethod, path: string, response: HubResponse): unknown {
    const malformed = (reason: string): HubResponseError =>
      new HubResponseError({ method, path, status: response.status, code: HUB_MALFORMED_RESPONSE, reason });
    let value: unknown;
    try {
      value = JSON.parse(response.body.toString('utf8'));
    } catch {
      const type = response.headers.get('content-type');
      throw malformed(`the body is not JSON${type ? ` (${type})` : ''}`);
    }
    const checked = checkAnswer(route, method, response.status, value);
    if (!checked.ok) throw malformed(this.redact(`the body does not fit: ${checked.reason}`));
    return value;
  }

  /** The hub's problem document, or one made from the status when the body is not one (a proxy's page). */
  private problemOf(response: HubResponse): ProblemDocument {
    const { status } = response;
    try {
      const value = this.redactDeep(JSON.parse(response.body.toString('utf8')));
      if (isProblem(value)) return value as ProblemDocument;
    } catch {
      // Not JSON: described below from the status.
    }
    const reason = STATUS_CODES[status] ?? 'Error';
    const location = response.headers.get('location');
    const type = response.headers.get('content-type');
    const detail =
      status >= 300 && status < 400
        ? `${reason}: redirected to ${this.redact(location ?? '(no Location)')}; redirects are not followed, so point the client at the final URL`
        : `${reason} (${type ? `a ${type} body` : 'no body'}, not a problem document)`;
    return { type: 'about:blank', title: reason, status, detail, code: `HTTP.${status}` };
  }

  /** Whatever the hub sends back could quote the token (an echoing proxy); no error repeats it. */
  private redact(text: string): string {
    return this.#token === undefined ? text : text.split(this.#token).join(REDACTED);
  }

  /** `redact` over every key and string of a parsed body (its JSON text may escape the token). */
  private redactDeep(value: unknown): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (Array.isArray(value)) return value.map((item) => this.redactDeep(item));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.redact(key), this.redactDeep(item)]));
  }

  private static parseBaseUrl(baseUrl: string): URL {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new HubRequestError('The hub URL (KAZMA_HUB_URL) is not an absolute URL.');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new HubRequestError(`The hub URL must be http or https, not ${url.protocol}`);
    }
    // fetch refuses such URLs anyway; and credentials belong in `token`, which no error repeats.
    if (url.username || url.password)
      throw new HubRequestError('The hub URL must not carry credentials; pass a token.');
    if (url.search || url.hash) throw new HubRequestError('The hub URL must not carry a query or a fragment.');
    return url;
  }
}
