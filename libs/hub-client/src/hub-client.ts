/**
 * A typed client for the hub's HTTP API, for the agent runtime and the CLI: one method per
 * route, answers checked against their shapes, refusals as HubApiError with the problem document.
 */
import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { z } from 'zod';
import * as schemas from './hub-api.schemas';
import type {
  BadgeOptions,
  CertificateResponse,
  CertificationStatusResponse,
  Checkpoint,
  CreatedTokenResponse,
  CreateTokenRequest,
  DownloadBundleOptions,
  DownloadedBundle,
  DsseEnvelope,
  HealthResponse,
  IterateSkillsQuery,
  KazmaSearchOptions,
  KazmaSearchResponse,
  KeysResponse,
  PublisherKey,
  PublisherKeysResponse,
  ListSkillsQuery,
  LogEntry,
  ProblemDocument,
  Proof,
  PublishOptions,
  PublishResponse,
  PublishResult,
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
} from './hub-api.types';
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

/** The hub's largest cursor page: `iterateSkills` asks for it unless told otherwise. */
const MAX_PAGE_SIZE = 100;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** What a token may hold: visible ASCII (RFC 9110 field-vchar), which a header carries as is. */
const HEADER_TOKEN = /^[\x21-\x7e]+$/;
/** A User-Agent may hold spaces too. */
const HEADER_TEXT = /^[\x20-\x7e]+$/;
const REDACTED = '[redacted]';

/**
 * One escaped path segment. `.`, `..` and `''` are refused: URL parsing would resolve them away
 * (percent-encoding does not stop it: `%2e%2e` is a dot segment too), sending the request to
 * another route. `/` and `?` inside a name are escaped like everything else.
 */
function segment(value: string | number): string {
  const text = String(value);
  if (text === '' || text === '.' || text === '..') {
    throw new HubRequestError(`Refused to send: ${JSON.stringify(text)} cannot be a path segment.`);
  }
  try {
    return encodeURIComponent(text);
  } catch {
    throw new HubRequestError('Refused to send: a path segment holds a lone surrogate, which has no UTF-8 form.');
  }
}

/** A path whose interpolated values are escaped segments: route`/api/v1/skills/${author}`. */
function route(literals: TemplateStringsArray, ...values: Array<string | number>): string {
  return literals.reduce((path, literal, i) => path + literal + (i < values.length ? segment(values[i]!) : ''), '');
}

/** Query parameters, leaving out the unset ones; lists go as the comma lists the hub reads. */
function queryOf(params: Record<string, string | number | boolean | readonly string[] | undefined>): URLSearchParams {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
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

interface CallSpec {
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
    return this.json(schemas.healthSchema, 'GET', '/api/v1/health');
  }

  /** The readiness report, whether the hub is ready (200) or not (503). */
  async ready(): Promise<ReadinessResponse> {
    return this.json(schemas.readinessSchema, 'GET', '/api/v1/health/ready', { answerStatuses: [503] });
  }

  // ---- Discovery ----

  async listSkills(query: ListSkillsQuery = {}): Promise<SkillListResponse> {
    return this.json(schemas.skillListSchema, 'GET', '/api/v1/skills', { query: queryOf({ ...query }) });
  }

  /** Every matching skill, page after page by cursor. */
  async *iterateSkills(query: IterateSkillsQuery = {}): AsyncGenerator<SkillListItem, void, undefined> {
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      // `limit` is always sent: without it (and without a cursor) the hub pages by number and returns no cursor.
      const params = queryOf({ ...query, limit: query.limit ?? MAX_PAGE_SIZE, cursor });
      const page = await this.json(schemas.skillCursorPageSchema, 'GET', '/api/v1/skills', { query: params });
      yield* page.items;
      cursor = page.next_cursor ?? undefined;
      if (cursor !== undefined && seen.has(cursor)) {
        throw new HubResponseError({
          method: 'GET',
          path: '/api/v1/skills',
          status: 200,
          code: HUB_MALFORMED_RESPONSE,
          reason: 'the hub returned a cursor it had already returned (the listing would never end)',
        });
      }
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
  }

  /** Kazma's search route: at most 100 items. */
  async kazmaSearch(q: string, options: KazmaSearchOptions = {}): Promise<KazmaSearchResponse> {
    return this.json(schemas.kazmaSearchSchema, 'GET', '/api/v1/skills/search', {
      query: queryOf({ q, category: options.category, certified: options.certified }),
    });
  }

  async stats(): Promise<StatsResponse> {
    return this.json(schemas.statsSchema, 'GET', '/api/v1/stats');
  }

  // ---- Skills ----

  async getSkill(author: string, name: string): Promise<SkillResponse> {
    return this.json(schemas.skillSchema, 'GET', route`/api/v1/skills/${author}/${name}`);
  }

  async getVersion(author: string, name: string, version: string): Promise<SkillVersionResponse> {
    return this.json(schemas.skillVersionSchema, 'GET', route`/api/v1/skills/${author}/${name}/versions/${version}`);
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
    const path = route`/api/v1/skills/${author}/${name}/versions/${version}/bundle`;
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
    const path = '/api/v1/skills';
    const response = await this.send('POST', path, { bundle, query: queryOf({ ...options }) });
    return { created: response.status === 201, result: this.decode(schemas.publishSchema, 'POST', path, response) };
  }

  /** The publish checks without storing anything; with a token, also whether it may publish this. */
  async validate(bundle: Buffer, options: PublishOptions = {}): Promise<ValidateSkillResponse> {
    return this.json(schemas.validateSchema, 'POST', '/api/v1/skills/validate', {
      bundle,
      query: queryOf({ ...options }),
    });
  }

  /** Deprecate, yank or restore (`active`) a version. */
  async setVersionStatus(
    author: string,
    name: string,
    version: string,
    change: VersionStatusChange,
  ): Promise<SkillVersionResponse> {
    return this.json(schemas.skillVersionSchema, 'PATCH', route`/api/v1/skills/${author}/${name}/versions/${version}`, {
      json: change,
    });
  }

  // ---- Certification ----

  /** The version's certification, or the listed version's when `version` is omitted. */
  async certification(author: string, name: string, version?: string): Promise<CertificationStatusResponse> {
    const path =
      version === undefined
        ? route`/api/v1/skills/${author}/${name}/certification`
        : route`/api/v1/skills/${author}/${name}/versions/${version}/certification`;
    return this.json(schemas.certificationStatusSchema, 'GET', path);
  }

  async submissionCertification(submissionId: string): Promise<CertificationStatusResponse> {
    return this.json(
      schemas.certificationStatusSchema,
      'GET',
      route`/api/v1/submissions/${submissionId}/certification`,
    );
  }

  // ---- Trust ----

  /** The signed certificate, its log index and an inclusion proof in the current checkpoint. */
  async certificate(author: string, name: string, version: string): Promise<CertificateResponse> {
    return this.json(
      schemas.certificateSchema,
      'GET',
      route`/api/v1/skills/${author}/${name}/versions/${version}/certificate`,
    );
  }

  /** The hub's public keys, retired ones included. */
  async keys(): Promise<KeysResponse> {
    return this.json(schemas.keysSchema, 'GET', '/.well-known/skillhub/keys.json');
  }

  /** The signed revocation list as sent: verify the envelope before reading its payload. */
  async revocations(): Promise<DsseEnvelope> {
    return this.json(schemas.dsseEnvelopeSchema, 'GET', '/.well-known/skillhub/revocations.json');
  }

  async logCheckpoint(): Promise<Checkpoint> {
    return this.json(schemas.checkpointSchema, 'GET', '/api/v1/log/checkpoint');
  }

  async logEntry(index: number): Promise<LogEntry> {
    return this.json(schemas.logEntrySchema, 'GET', route`/api/v1/log/entries/${index}`);
  }

  async inclusionProof(index: number, treeSize: number): Promise<Proof> {
    return this.json(schemas.proofSchema, 'GET', '/api/v1/log/proof/inclusion', {
      query: queryOf({ index, tree_size: treeSize }),
    });
  }

  async consistencyProof(first: number, second: number): Promise<Proof> {
    return this.json(schemas.proofSchema, 'GET', '/api/v1/log/proof/consistency', {
      query: queryOf({ first, second }),
    });
  }

  /** Revokes a version's certification; the reason goes into the transparency log. */
  async revoke(author: string, name: string, version: string, reason: string): Promise<LogEntry> {
    return this.json(
      schemas.logEntrySchema,
      'POST',
      route`/api/v1/skills/${author}/${name}/versions/${version}/revoke`,
      {
        json: { reason },
      },
    );
  }

  /** Retires the signing key and starts a new one (operator). */
  async rotateSigningKeys(): Promise<KeysResponse> {
    return this.json(schemas.keysSchema, 'POST', '/api/v1/admin/signing-keys/rotate');
  }

  /** Registers the namespace's Kazma HMAC secret (the hub stores it sealed and never returns it). */
  async setKazmaSecret(slug: string, secret: string): Promise<void> {
    await this.send('PUT', route`/api/v1/namespaces/${slug}/kazma-secret`, { json: { secret } });
  }

  async deleteKazmaSecret(slug: string): Promise<void> {
    await this.send('DELETE', route`/api/v1/namespaces/${slug}/kazma-secret`);
  }

  /** The namespace's publisher keys (C14), removed ones included; no token needed. */
  async publisherKeys(slug: string): Promise<PublisherKeysResponse> {
    return this.json(schemas.publisherKeysSchema, 'GET', route`/api/v1/namespaces/${slug}/publisher-keys`);
  }

  /** Registers an Ed25519 public key (SPKI PEM): from then on, the namespace's versions must be signed by an active key. */
  async registerPublisherKey(slug: string, publicKeyPem: string, name?: string): Promise<PublisherKey> {
    return this.json(schemas.publisherKeySchema, 'POST', route`/api/v1/namespaces/${slug}/publisher-keys`, {
      json: { public_key: publicKeyPem, name },
    });
  }

  async removePublisherKey(slug: string, keyId: string): Promise<PublisherKey> {
    return this.json(schemas.publisherKeySchema, 'DELETE', route`/api/v1/namespaces/${slug}/publisher-keys/${keyId}`);
  }

  // ---- Submissions ----

  /** Kazma's unauthenticated `hub submit`: quarantined until the namespace's owner claims it. */
  async submit(manifest: Record<string, unknown>, options: SubmitOptions = {}): Promise<SubmitSkillResponse> {
    return this.json(schemas.submitSchema, 'POST', '/api/v1/skills/submit', { json: { manifest, ...options } });
  }

  async getSubmission(submissionId: string): Promise<SubmitSkillResponse> {
    return this.json(schemas.submitSchema, 'GET', route`/api/v1/submissions/${submissionId}`);
  }

  /** Claims a submission for the token's namespace: with its bundle, or none when the manifest names no code. */
  async claimSubmission(submissionId: string, bundle?: Buffer): Promise<PublishResponse> {
    return this.json(schemas.publishSchema, 'POST', route`/api/v1/submissions/${submissionId}/claim`, { bundle });
  }

  // ---- Tokens ----

  /** The secret is in the answer's `token`, once. */
  async createToken(request: CreateTokenRequest = {}): Promise<CreatedTokenResponse> {
    return this.json(schemas.createdTokenSchema, 'POST', '/api/v1/tokens', { json: request });
  }

  async listTokens(): Promise<TokenResponse[]> {
    return this.json(schemas.tokenListSchema, 'GET', '/api/v1/tokens');
  }

  async revokeToken(id: string): Promise<TokenResponse> {
    return this.json(schemas.tokenSchema, 'DELETE', route`/api/v1/tokens/${id}`);
  }

  // ---- Badges ----

  /** The SVG badge's URL, to embed in a README; no request is made. */
  badgeUrl(author: string, name: string, options: BadgeOptions = {}): string {
    const query = queryOf({ style: options.style, label: options.label, version: options.version }).toString();
    return `${this.baseUrl}${route`/api/v1/skills/${author}/${name}/badge.svg`}${query ? `?${query}` : ''}`;
  }

  // ---- Plumbing ----

  private async json<S extends z.ZodType>(
    schema: S,
    method: HttpMethod,
    path: string,
    spec: CallSpec = {},
  ): Promise<z.output<S>> {
    return this.decode(schema, method, path, await this.send(method, path, spec));
  }

  /** The response when it is an answer; a HubApiError when the hub refused. */
  private async send(method: HttpMethod, path: string, spec: CallSpec = {}): Promise<HubResponse> {
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

  private decode<S extends z.ZodType>(schema: S, method: HttpMethod, path: string, response: HubResponse): z.output<S> {
    const malformed = (reason: string): HubResponseError =>
      new HubResponseError({ method, path, status: response.status, code: HUB_MALFORMED_RESPONSE, reason });
    let value: unknown;
    try {
      value = JSON.parse(response.body.toString('utf8'));
    } catch {
      const type = response.headers.get('content-type');
      throw malformed(`the body is not JSON${type ? ` (${type})` : ''}`);
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const [first, ...rest] = parsed.error.issues;
    const where = first?.path.length ? `${first.path.join('.')}: ` : '';
    const more = rest.length ? ` (+${rest.length} more)` : '';
    throw malformed(this.redact(`the body does not fit: ${where}${first?.message ?? 'invalid'}${more}`));
  }

  /** The hub's problem document, or one made from the status when the body is not one (a proxy's page). */
  private problemOf(response: HubResponse): ProblemDocument {
    const { status } = response;
    try {
      const parsed = schemas.problemDocumentSchema.safeParse(
        this.redactDeep(JSON.parse(response.body.toString('utf8'))),
      );
      if (parsed.success) return parsed.data;
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
