/**
 * Every route of the hub's OpenAPI document, driven with hostile input by fast-check: strings with
 * a NUL or an unpaired surrogate, 1 MB strings, numbers out of every range, 10,000 levels of JSON
 * nesting, wrong types, encoded slashes and NULs, broken percent-encoding, hostile bundles. Over
 * 10,000 requests no answer is a 5xx, every 4xx is a problem document, and every 400 and 422 names
 * the field it refuses; afterwards no write left a half-written row.
 */
import { generateKeyPairSync } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { writeBundle } from '@skillhub/bundle';
import { encodeCursor } from '@skillhub/search';
import { stringify } from 'yaml';
import { agentSkillBundle, kazmaBundle, kazmaManifest, uniqueName } from '@skillhub/testing';
import { startTestHub, type TestHub } from './support/test-hub';

const REQUESTS = 10_000;
/** Requests in flight: fast-check runs each lane's requests one after the other. */
const LANES = 4;
const MB = 'x'.repeat(1 << 20);
const DEEP = 10_000;

interface Schema {
  type?: string;
  $ref?: string;
  properties?: Record<string, Schema>;
  enum?: unknown[];
}

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  schema?: Schema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  json: Schema | null;
  bundle: boolean;
}

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: LANES });

/** node:http sends the path byte for byte (supertest and fetch would normalise `..` and encodings). */
function send(baseUrl: string, sent: Sent): Promise<Answer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: sent.method, path: sent.path, headers: sent.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(sent.body);
  });
}

// --- what the document says ---

function operations(
  doc: { paths: Record<string, Record<string, Record<string, unknown>>> },
  schemas: Record<string, Schema>,
): Operation[] {
  const resolve = (s: Schema | undefined): Schema | undefined =>
    s?.$ref ? schemas[s.$ref.replace('#/components/schemas/', '')] : s;
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const content = (op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)?.content ?? {};
      return {
        method: method.toUpperCase(),
        path,
        parameters: ((op.parameters as Parameter[] | undefined) ?? []).map((p) => ({
          ...p,
          schema: resolve(p.schema),
        })),
        json: content['application/json'] ? (resolve(content['application/json'].schema) ?? {}) : null,
        bundle: Boolean(content['application/gzip']),
      };
    }),
  );
}

// --- hostile values ---

const numbers = fc.oneof(
  fc.constantFrom(3_000_000_000, 2 ** 53 + 2, 1e300, -1, -0, 0.5, 2 ** 63, -(2 ** 31) - 1, 0),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Strings every part of a request can carry (lone surrogates only in JSON: URLs cannot encode them). */
const texts = fc.oneof(
  fc.constantFrom(
    'a\u0000b',
    '\u0000',
    MB,
    'a/b',
    '%2F',
    '%00',
    '..',
    '.',
    '',
    ' ',
    '-1',
    '0',
    '3000000000',
    '9007199254740993',
    '99999999999999999999',
    '1e300',
    '0.5',
    'NaN',
    'Infinity',
    '3000000000.0.0',
    '9007199254740993.0.0',
    '1.0.0',
    'abc',
    'true',
    'null',
    '\u202e\u200b',
    "' OR 1=1 --",
    'kazma-hub://a/b@1.0.0',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

const jsonTexts = fc.oneof(
  texts,
  fc.constantFrom('\uD800', 'x\uDFFFy', '\uDBFF'),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Any JSON value, shallow, of any type: the wrong type for most fields. */
const anyJson = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    jsonTexts,
    numbers,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), jsonTexts), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** A value for a field of `schema`: sometimes right (or right but for one field), usually hostile. */
function valueFor(schema: Schema | undefined, right: readonly unknown[]): fc.Arbitrary<unknown> {
  const objects = right.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null);
  const nearlyRight = objects.length
    ? fc
        .tuple(fc.constantFrom(...objects), fc.oneof(jsonTexts, anyJson))
        .chain(([object, value]) =>
          fc.constantFrom(...Object.keys(object), 'extra').map((key) => ({ ...object, [key]: value })),
        )
    : anyJson;
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom(...right) },
    { weight: 1, arbitrary: schema?.enum ? fc.constantFrom(...schema.enum) : nearlyRight },
    { weight: 3, arbitrary: schema?.type === 'number' || schema?.type === 'integer' ? numbers : jsonTexts },
    { weight: 1, arbitrary: anyJson },
  );
}

const deepJson = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** A JSON body for `schema`: its fields filled with hostile values, or hostile as a whole. */
function jsonBody(schema: Schema, right: Readonly<Record<string, readonly unknown[]>>): fc.Arbitrary<string> {
  const fields = Object.entries(schema.properties ?? {});
  const object = fc
    .tuple(
      fc.record(Object.fromEntries(fields.map(([name, s]) => [name, valueFor(s, right[name] ?? ['x'])])), {
        requiredKeys: [],
      }),
      fc.dictionary(jsonTexts, anyJson, { maxKeys: 2 }),
    )
    .map(([own, extra]) => JSON.stringify({ ...extra, ...own }));
  return fc.oneof(
    { weight: 6, arbitrary: object },
    { weight: 1, arbitrary: anyJson.map((v) => JSON.stringify(v) ?? 'null') },
    // Nesting is built as text: JSON.stringify itself recurses.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...(fields.length ? fields.map(([n]) => n) : ['x'])), fc.constantFrom(65, 1_000, DEEP))
        .map(([field, depth]) => `{${JSON.stringify(field)}:${deepJson(depth)}}`),
    },
    { weight: 1, arbitrary: fc.constantFrom('{"a":', '{"a":1}}', '', 'nul', `"${MB}"`, '\u0000') },
  );
}

/** A bundle body: garbage, a valid skill, or a valid skill with one manifest field made hostile. */
function bundles(namespace: string): fc.Arbitrary<Buffer> {
  // Written here, not with kazmaBundle: a hostile name cannot also be the bundle's folder name.
  const kazma = (fields: Record<string, unknown>) =>
    writeBundle(
      [
        { path: 'skill_manifest.yaml', content: stringify(kazmaManifest({ author: namespace, manifest: fields })) },
        { path: 'weather_skill.py', content: 'class WeatherSkill:\n    pass\n' },
      ],
      { rootFolder: 'hostile-skill' },
    );
  const tools = Object.fromEntries(Array.from({ length: 9_000 }, (_, i) => [`t${i}`, { description: 'x' }]));
  const fixed = [
    kazma({}),
    agentSkillBundle(),
    kazma({ tools }),
    kazma({ version: '3000000000.0.0' }),
    kazma({ version: '9007199254740993.0.0' }),
    kazma({ description: MB }),
    writeBundle([{ path: 'skill_manifest.yaml', content: `name: deep\nconfig_schema: ${deepJson(DEEP)}\n` }]),
    writeBundle([{ path: 'skill_manifest.yaml', content: Buffer.from([0x00, 0xff, 0xfe]) }]),
    Buffer.alloc(0),
  ];
  const field = fc.constantFrom(
    'name',
    'version',
    'description',
    'author',
    'license',
    'entry_point',
    'category',
    'tags',
    'tools',
    'mcp_servers',
    'permissions',
    'capabilities',
    'homepage',
    'config_schema',
  );
  return fc.oneof(
    fc.constantFrom(...fixed),
    fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b)),
    fc.tuple(field, anyJson).map(([name, value]) => kazma({ [name]: value })),
    fc.tuple(field, jsonTexts).map(([name, value]) => kazma({ [name]: value })),
  );
}

const MULTIPART = 'hostile-boundary';
const multipart = (field: string, bytes: Buffer): Buffer =>
  Buffer.concat([
    Buffer.from(
      `--${MULTIPART}\r\nContent-Disposition: form-data; name="${field}"; filename="b.tgz"\r\n` +
        'Content-Type: application/gzip\r\n\r\n',
    ),
    bytes,
    Buffer.from(`\r\n--${MULTIPART}--\r\n`),
  ]);

/** A path segment or query value as a URL carries it: percent-encoded, or raw bytes a URL may not hold. */
const urlText = fc.oneof(
  { weight: 5, arbitrary: texts.map((t) => encodeURIComponent(t)) },
  { weight: 1, arbitrary: fc.constantFrom('%ZZ', '%', '%ED%A0%80', '%FF', '%2F', '%00', '..', '%2e%2e', 'a%2Fb%00c') },
);

describe('hostile input on every route of the OpenAPI document', () => {
  let hub: TestHub;
  let ops: Operation[];
  const ns = uniqueName('hostile');
  const tokens: string[] = [];
  /** Values each parameter or field may rightly take (a draw picks one of them sometimes). */
  const right: Record<string, unknown[]> = {};

  beforeAll(async () => {
    hub = await startTestHub({
      env: {
        VALIDATE_RATE_LIMIT_PER_MINUTE: '1000000',
        PUBLISH_RATE_LIMIT_PER_MINUTE: '1000000',
        SUBMIT_RATE_LIMIT_PER_HOUR: '1000000',
      },
    });
    tokens.push(hub.adminToken, await hub.token(ns, ['publish', 'manage', 'claim']));
    const published = await hub.http
      .post('/api/v1/skills')
      .set('authorization', `Bearer ${tokens[1]}`)
      .set('content-type', 'application/gzip')
      .send(kazmaBundle({ name: 'weather', author: ns }));
    expect(published.status).toBe(201);
    const submitted = await hub.http
      .post('/api/v1/skills/submit')
      .send({ manifest: { name: 'rain', version: '1.0.0', description: 'Rain.', author: ns, license: 'MIT' } });
    expect(submitted.status).toBe(201);
    const uuid = '0b5c1f8e-2d7a-4c3b-9e41-7f0a9d2c6b13';
    Object.assign(right, {
      author: [ns],
      slug: [ns],
      namespace: [ns],
      name: ['weather'],
      version: ['1.0.0', '2.0.0'],
      id: [submitted.body.submission_id, uuid],
      index: ['0'],
      q: ['weather', '"weather report" -rain', 'wea'],
      sort: ['name', 'updated', 'downloads', 'version', 'relevance'],
      limit: ['1', '100'],
      // Well-formed cursors holding values their columns cannot take.
      cursor: [
        encodeCursor('name', [20]),
        encodeCursor('name', [1e300]),
        encodeCursor('updated', ['abc', 'abc']),
        encodeCursor('updated', ['2026-02-31 10:00:00+00', uuid]),
        encodeCursor('downloads', ['99999999999999999999', uuid]),
        encodeCursor('version', [3_000_000_000, 0, 0, uuid]),
        encodeCursor('version', [1, 0, 0, `${uuid}\u0000`]),
      ],
      reason: ['found a problem'],
      status: ['deprecated', 'yanked', 'active'],
      scopes: [['publish'], ['publish', 'manage', 'claim', 'tokens']],
      manifest: [kazmaManifest({ author: ns, name: 'rain' })],
      public_key: [generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' })],
      secret: ['0123456789abcdef0123'],
    });
    const doc = await hub.http.get('/docs-json');
    ops = operations(doc.body, doc.body.components.schemas);
  });
  afterAll(async () => {
    agent.destroy();
    await hub?.close();
  });

  it(`answers ${REQUESTS} hostile requests without a 5xx, each refusal a problem naming its field`, async () => {
    expect(ops.length).toBeGreaterThan(30);
    const sentTo = new Map<string, number>();
    const bundleArb = bundles(ns);
    const rightInUrl = (name: string) =>
      fc.constantFrom(...(right[name] ?? ['1']).map((v) => encodeURIComponent(String(v))));
    const requestArb = fc.constantFrom(...ops).chain((op) => {
      const path = fc.tuple(
        ...op.parameters
          .filter((p) => p.in === 'path')
          .map((p) => fc.oneof(rightInUrl(p.name), urlText).map((v) => [p.name, v] as const)),
      );
      const query = fc.array(
        fc
          .oneof(
            fc.constantFrom(...op.parameters.filter((p) => p.in === 'query').map((p) => p.name), 'unknown', 'q[a]'),
            fc.constant('capabilities'),
          )
          .chain((name) => fc.tuple(fc.constant(name), fc.oneof(rightInUrl(name), urlText))),
        { maxLength: 4 },
      );
      const auth = fc.oneof(
        fc.constantFrom(...tokens).map((t) => `Bearer ${t}`),
        fc.constantFrom('', 'Bearer ', 'Bearer shp_0000', 'Basic YTpi', `Bearer ${'a'.repeat(300)}`, 'Bearer \t x'),
      );
      const body: fc.Arbitrary<{ type: string; bytes: Buffer } | null> = op.json
        ? fc
            .tuple(
              jsonBody(op.json, right),
              fc.constantFrom('application/json', 'application/json', 'application/gzip', 'text/plain'),
            )
            .map(([text, type]) => ({ type, bytes: Buffer.from(text) }))
        : op.bundle
          ? fc.oneof(
              { weight: 4, arbitrary: bundleArb.map((bytes) => ({ type: 'application/gzip', bytes })) },
              {
                weight: 1,
                arbitrary: fc.tuple(bundleArb, fc.constantFrom('bundle', 'other')).map(([bytes, field]) => ({
                  type: `multipart/form-data; boundary=${MULTIPART}`,
                  bytes: multipart(field, bytes),
                })),
              },
              { weight: 1, arbitrary: fc.constantFrom(null, { type: 'text/plain', bytes: Buffer.from('x') }) },
            )
          : fc.constant(null);
      const etag = fc.constantFrom('', '"x"', 'W/"a"', '*', 'a'.repeat(2000));
      return fc.record({ op: fc.constant(op), path, query, auth, body, etag });
    });

    let sent = 0;
    const lane = (seed: number) =>
      fc.assert(
        fc.asyncProperty(requestArb, async ({ op, path, query, auth, body, etag }) => {
          let url = op.path;
          for (const [name, value] of path) url = url.replace(`{${name}}`, value);
          if (query.length) url += `?${query.map(([n, v]) => `${encodeURIComponent(n)}=${v}`).join('&')}`;
          const headers: Record<string, string> = {};
          if (auth) headers.authorization = auth;
          if (etag) headers['if-none-match'] = etag;
          if (body) headers['content-type'] = body.type;
          const answer = await send(hub.baseUrl, { method: op.method, path: url, headers, body: body?.bytes });
          sent++;
          sentTo.set(`${op.method} ${op.path}`, (sentTo.get(`${op.method} ${op.path}`) ?? 0) + 1);
          const where = `${op.method} ${url.slice(0, 300)} → ${answer.status} ${answer.body.slice(0, 500)}`;
          if (answer.status >= 500) throw new Error(`a 5xx: ${where}`);
          if (answer.status < 400) return;
          if (!answer.contentType.startsWith('application/problem+json')) throw new Error(`not a problem: ${where}`);
          const problem = JSON.parse(answer.body) as {
            status?: unknown;
            title?: unknown;
            detail?: unknown;
            errors?: unknown;
          };
          if (
            problem.status !== answer.status ||
            typeof problem.title !== 'string' ||
            typeof problem.detail !== 'string'
          ) {
            throw new Error(`a malformed problem: ${where}`);
          }
          if (answer.status !== 400 && answer.status !== 422) return;
          const named = [
            ...op.parameters.map((p) => p.name),
            ...Object.keys(op.json?.properties ?? {}),
            ...query.map(([n]) => n),
            ...jsonKeys(body),
          ];
          if (!namesAField(problem.errors, op.bundle, named)) throw new Error(`a refusal naming no field: ${where}`);
        }),
        // The counterexample holds 1 MB strings and bundles: report the request and answer only.
        { numRuns: REQUESTS / LANES, seed, endOnFailure: true, reporter: failWithCause },
      );
    await Promise.all(Array.from({ length: LANES }, (_, i) => lane((Date.now() + i) | 0)));

    expect(sent).toBeGreaterThanOrEqual(REQUESTS);
    // Every route was driven, not just the ones a uniform draw happened to favour.
    expect(Math.min(...ops.map((op) => sentTo.get(`${op.method} ${op.path}`) ?? 0))).toBeGreaterThan(50);
    expect((await hub.http.get('/api/v1/health')).status).toBe(200);
  }, 240_000); // ~30 s on a quiet machine, past 60 s on a busy CI one

  it('left no half-written row behind', async () => {
    const [orphans] = await hub.dataSource.query(`SELECT
      (SELECT count(*) FROM "skills" s WHERE NOT EXISTS (SELECT 1 FROM "skill_versions" v WHERE v."skill_id" = s."id"))::int AS skills,
      (SELECT count(*) FROM "skill_versions" v WHERE NOT EXISTS (SELECT 1 FROM "certifications" c WHERE c."skill_version_id" = v."id"))::int AS uncertified,
      (SELECT count(*) FROM "skill_versions" v WHERE NOT EXISTS (SELECT 1 FROM "blobs" b WHERE b."sha256" = v."bundle_sha256"))::int AS unstored,
      (SELECT count(*) FROM "blobs" b WHERE NOT EXISTS (SELECT 1 FROM "skill_versions" v WHERE v."bundle_sha256" = b."sha256"))::int AS blobs`);
    expect(orphans).toEqual({ skills: 0, uncertified: 0, unstored: 0, blobs: 0 });
  });
});

function failWithCause<T>(run: fc.RunDetails<T>): void {
  if (run.failed) throw new Error(`seed ${run.seed}, after ${run.numRuns} requests: ${String(run.errorInstance)}`);
}

/** The top-level keys of a JSON body sent, which a refusal may name. */
function jsonKeys(body: { type: string; bytes: Buffer } | null): string[] {
  if (body?.type !== 'application/json') return [];
  try {
    const value: unknown = JSON.parse(body.bytes.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
  } catch {
    return [];
  }
}

/**
 * A 400 or 422 lists its faults, each naming a part of the request: a parameter or a body field,
 * declared or sent (a key that is not plain text is quoted: `["a\\u0000"]`), the path, the body or one of its
 * headers, or for a bundle or a submitted manifest a file inside it ('' is the archive as a whole).
 */
function namesAField(errors: unknown, bundle: boolean, sent: string[]): boolean {
  if (!Array.isArray(errors) || errors.length === 0) return false;
  const names = [...sent, 'body', 'path', 'content-type', 'content-encoding'];
  return errors.every((e: { path?: unknown }) => {
    if (typeof e.path !== 'string') return false;
    if (bundle) return true;
    const field = e.path;
    // A submitted manifest stands for the file: its problems are named as a bundle's would be.
    if (names.includes('manifest') && field.startsWith('skill_manifest.yaml')) return true;
    return (
      field.startsWith('[') || names.some((n) => field === n || field.startsWith(`${n}.`) || field.startsWith(`${n}[`))
    );
  });
}
