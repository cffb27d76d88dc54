/** Publish → read back → download, for every format, over HTTP against real PostgreSQL and Redis. */
import { createHash } from 'node:crypto';
import { readBundle, writeBundle } from '@skillhub/bundle';
import {
  agentSkillBundle,
  kazmaBundle,
  kazmaManifest,
  swarmkitBundle,
  swarmkitSkill,
  uniqueName,
} from '@skillhub/testing';
import { stringify } from 'yaml';
import { binaryBody } from './support/binary-body';
import { startTestHub, type TestHub } from './support/test-hub';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('publish and read back', () => {
  let hub: TestHub;
  let token: string;
  const ns = uniqueName('acme');

  beforeAll(async () => {
    hub = await startTestHub();
    token = await hub.token(ns);
  });
  afterAll(() => hub.close());

  const publish = (bytes: Buffer, query = '', bearer = token) =>
    hub.http
      .post(`/api/v1/skills${query}`)
      .set('authorization', `Bearer ${bearer}`)
      .set('content-type', 'application/gzip')
      .send(bytes);

  const cases: Array<[string, () => { bytes: Buffer; name: string; query: string }]> = [
    [
      'kazma',
      () => {
        const name = uniqueName('weather');
        return { bytes: kazmaBundle({ name, author: ns }), name, query: '' };
      },
    ],
    [
      'swarmkit',
      () => {
        const name = uniqueName('search');
        return { bytes: swarmkitBundle({ id: name }), name, query: '' };
      },
    ],
    [
      'agent-skill',
      () => {
        const name = uniqueName('pdf');
        return { bytes: agentSkillBundle({ name }), name, query: '?version=2.1.0' };
      },
    ],
  ];

  it.each(cases)('%s: publish gives 201, info and download give the same bytes back', async (format, make) => {
    const { bytes, name, query } = make();
    const res = await publish(bytes, query);
    expect(res.status).toBe(201);
    const version = format === 'agent-skill' ? '2.1.0' : '1.0.0';
    expect(res.body).toEqual({
      id: `kazma-hub://${ns}/${name}@${version}`,
      author: ns,
      name,
      version,
      format,
      bundle_sha256: sha256(bytes),
      certification: { status: 'pending', level: 'none' },
    });

    const info = await hub.http.get(`/api/v1/skills/${ns}/${name}`).expect(200);
    expect(info.body.versions.map((v: { version: string }) => v.version)).toEqual([version]);
    expect(info.body.latest).toMatchObject({ name, author: ns, version, format, certified: false, downloads: 0 });

    const download = await hub.http
      .get(`/api/v1/skills/${ns}/${name}/versions/${version}/bundle`)
      .buffer(true)
      .parse(binaryBody);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.headers.etag).toBe(`"${sha256(bytes)}"`);
    expect(Buffer.compare(download.body as Buffer, bytes)).toBe(0);

    const again = await hub.http
      .get(`/api/v1/skills/${ns}/${name}/versions/${version}/bundle`)
      .set('if-none-match', download.headers.etag);
    expect(again.status).toBe(304);

    const kazmaInfo = await hub.http.get(`/api/v1/skills/kazma-hub://${ns}/${name}@${version}`).expect(200);
    expect(kazmaInfo.body).toMatchObject({ id: `kazma-hub://${ns}/${name}@${version}`, name, author: ns, version });
    const kazmaDownload = await hub.http
      .get(`/api/v1/skills/kazma-hub://${ns}/${name}@${version}/download`)
      .buffer(true)
      .parse(binaryBody);
    expect(Buffer.compare(kazmaDownload.body as Buffer, bytes)).toBe(0);
  });

  it("publishes a SwarmKit workspace in SwarmKit's own layout: every skill its own version, all or none", async () => {
    const [hello, recap] = [uniqueName('say-hello'), uniqueName('recap')];
    const workspace = {
      apiVersion: 'swarmkit/v1',
      kind: 'Workspace',
      metadata: { id: 'hello-swarm', name: 'Hello Swarm' },
      mcp_servers: [{ id: 'search', transport: 'stdio', command: ['uv', 'run', 'python', 'hello_world_server.py'] }],
    };
    const files = [
      { path: 'workspace.yaml', content: stringify(workspace) },
      { path: 'hello_world_server.py', content: 'print("hello")\n' },
      { path: `skills/${hello}.yaml`, content: stringify(swarmkitSkill({ id: hello })) },
      { path: `skills/team/${recap}.yaml`, content: stringify(swarmkitSkill({ id: recap, version: '2.0.0' })) },
    ];

    const res = await publish(writeBundle(files, { rootFolder: 'hello-swarm' }));
    expect(res.status).toBe(201);
    const published = res.body.workspace as { name: string; version: string; bundle_sha256: string }[];
    expect(published.map(({ name, version }) => `${name}@${version}`).sort()).toEqual(
      [`${hello}@1.0.0`, `${recap}@2.0.0`].sort(),
    );
    expect(res.body).toMatchObject({ name: published[0]?.name, author: ns, format: 'swarmkit' });
    for (const skill of published) {
      const download = await hub.http
        .get(`/api/v1/skills/${ns}/${skill.name}/versions/${skill.version}/bundle`)
        .buffer(true)
        .parse(binaryBody);
      expect(download.status).toBe(200);
      expect(sha256(download.body as Buffer)).toBe(skill.bundle_sha256);
      // Each version's bundle: its skill at the root, beside the shared workspace and its files.
      const paths = readBundle(download.body as Buffer).files.map((file) => file.path);
      expect(paths).toEqual(expect.arrayContaining([`${skill.name}.yaml`, 'workspace.yaml', 'hello_world_server.py']));
      expect(paths).not.toContain(`skills/${skill.name}.yaml`);
    }

    // One broken skill refuses the whole workspace, naming it, and writes nothing.
    const before = await hub.counts();
    const broken = await publish(
      writeBundle(
        [
          ...files.map((file) => ({ ...file, content: file.content.replace(hello, uniqueName('other')) })),
          { path: 'skills/broken.yaml', content: stringify({ ...swarmkitSkill(), metadata: { id: 'Not An Id!' } }) },
        ],
        { rootFolder: 'hello-swarm' },
      ),
    );
    expect(broken.status).toBe(422);
    expect(JSON.stringify(broken.body.errors)).toContain('skills/broken.yaml');
    expect(await hub.counts()).toEqual(before);
  });

  it('never serves a stored bundle whose bytes were changed in the database: 500 problem, counted for alerting', async () => {
    const name = uniqueName('tampered');
    const bytes = kazmaBundle({ name, author: ns });
    expect((await publish(bytes)).status).toBe(201);
    const tampered = Buffer.from(bytes);
    tampered[tampered.length - 1] ^= 0xff;
    await hub.dataSource.query('UPDATE "blobs" SET "content" = $1 WHERE "sha256" = $2', [tampered, sha256(bytes)]);

    const res = await hub.http.get(`/api/v1/skills/${ns}/${name}/versions/1.0.0/bundle`);
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 500, code: 'BUNDLE.CORRUPT' });
    const metrics = await hub.http.get('/metrics').set('authorization', `Bearer ${hub.adminToken}`).expect(200);
    expect(metrics.text).toMatch(/^skillhub_blob_digest_mismatches_total [1-9]/m);
  });

  it('accepts the bundle as a multipart field too', async () => {
    const name = uniqueName('multi');
    const bytes = kazmaBundle({ name, author: ns });
    const res = await hub.http
      .post('/api/v1/skills')
      .set('authorization', `Bearer ${token}`)
      .attach('bundle', bytes, { filename: 'skill.tar.gz', contentType: 'application/gzip' });
    expect(res.status).toBe(201);
    expect(res.body.bundle_sha256).toBe(sha256(bytes));
  });

  it('slugifies the manifest author into the namespace', async () => {
    const slugToken = await hub.token('kazma-team-' + ns.slice(-8));
    const name = uniqueName('slug');
    const res = await publish(kazmaBundle({ name, author: `Kazma Team ${ns.slice(-8)}` }), '', slugToken);
    expect(res.status).toBe(201);
    expect(res.body.author).toBe(`kazma-team-${ns.slice(-8)}`);
  });

  it('is idempotent for identical bytes and refuses other bytes for a published version', async () => {
    const name = uniqueName('immutable');
    const first = kazmaBundle({ name, author: ns });
    expect((await publish(first)).status).toBe(201);
    const before = await hub.counts();
    const same = await publish(first);
    expect(same.status).toBe(200);
    expect(same.body.bundle_sha256).toBe(sha256(first));
    const other = await publish(kazmaBundle({ name, author: ns, code: 'print("changed")\n' }));
    expect(other.status).toBe(409);
    expect(other.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(other.body).toMatchObject({
      status: 409,
      code: 'SKILL.VERSION_EXISTS',
      existing_bundle_sha256: sha256(first),
    });
    expect(await hub.counts()).toEqual(before);
  });

  it('20 concurrent publishes of one new version with different bytes: one 201, nineteen 409, no orphan rows', async () => {
    const name = uniqueName('race');
    const bundles = Array.from({ length: 20 }, (_, i) => kazmaBundle({ name, author: ns, code: `print(${i})\n` }));
    const before = await hub.counts();
    const statuses = (await Promise.all(bundles.map((b) => publish(b)))).map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(409)]);
    const after = await hub.counts();
    expect(after.skill_versions - before.skill_versions).toBe(1);
    expect(after.blobs - before.blobs).toBe(1);
    expect(after.certifications - before.certifications).toBe(1);
    expect(after.outbox - before.outbox).toBe(1);
    expect(after.skills - before.skills).toBe(1);
  });

  it("refuses another owner's namespace with 403, and an unclaimed one without the claim scope", async () => {
    const other = uniqueName('other');
    await hub.token(other);
    const before = await hub.counts();
    const res = await publish(kazmaBundle({ author: other }));
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain(other);

    const unclaimed = await publish(kazmaBundle({ author: uniqueName('nobody') }));
    expect(unclaimed.status).toBe(403);
    expect(unclaimed.body.detail).toMatch(/claim/);
    expect(await hub.counts()).toEqual(before);
  });

  it('claims an unclaimed namespace at first publish when the token may claim', async () => {
    const publisher = uniqueName('pub');
    const created = await hub.http
      .post('/api/v1/tokens')
      .set('authorization', `Bearer ${hub.adminToken}`)
      .send({ publisher, scopes: ['publish', 'claim'] })
      .expect(201);
    const fresh = uniqueName('fresh');
    expect((await publish(kazmaBundle({ author: fresh }), '', created.body.token)).status).toBe(201);
    // The namespace is now theirs: a token of another publisher is refused there.
    const intruder = await hub.http
      .post('/api/v1/tokens')
      .set('authorization', `Bearer ${hub.adminToken}`)
      .send({ publisher: uniqueName('intruder'), scopes: ['publish', 'claim'] })
      .expect(201);
    expect((await publish(kazmaBundle({ author: fresh }), '', intruder.body.token)).status).toBe(403);
  });

  it('validate runs the checks and stores nothing', async () => {
    const before = await hub.counts();
    const bytes = kazmaBundle({ author: ns });
    const res = await hub.http
      .post('/api/v1/skills/validate')
      .set('authorization', `Bearer ${token}`)
      .set('content-type', 'application/gzip')
      .send(bytes);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      valid: true,
      format: 'kazma',
      author: ns,
      bundle_sha256: sha256(bytes),
      publishable: true,
    });
    expect(res.body.files.map((f: { path: string }) => f.path)).toEqual(['skill_manifest.yaml', 'weather_skill.py']);
    const bad = await hub.http
      .post('/api/v1/skills/validate')
      .set('content-type', 'application/gzip')
      .send(kazmaBundle({ manifest: { version: '1.0', license: '' } }));
    expect(bad.status).toBe(422);
    const paths = bad.body.errors.map((e: { path: string }) => e.path).join(' ');
    expect(paths).toMatch(/version/);
    expect(paths).toMatch(/license/);
    expect(await hub.counts()).toEqual(before);
  });

  it('owners deprecate and yank versions; bytes stay downloadable; others are refused', async () => {
    const name = uniqueName('life');
    await publish(kazmaBundle({ name, author: ns, version: '1.0.0' })).expect(201);
    await publish(kazmaBundle({ name, author: ns, version: '1.1.0' })).expect(201);
    const patch = (version: string, body: object, bearer = token) =>
      hub.http
        .patch(`/api/v1/skills/${ns}/${name}/versions/${version}`)
        .set('authorization', `Bearer ${bearer}`)
        .send(body);

    const yanked = await patch('1.1.0', { status: 'yanked', message: 'leaks the API key' });
    expect(yanked.status).toBe(200);
    expect(yanked.body).toMatchObject({ status: 'yanked', status_message: 'leaks the API key' });
    const info = await hub.http.get(`/api/v1/skills/${ns}/${name}`).expect(200);
    expect(info.body.versions.map((v: { version: string; status: string }) => [v.version, v.status])).toEqual([
      ['1.1.0', 'yanked'],
      ['1.0.0', 'active'],
    ]);
    expect(info.body.latest.version).toBe('1.0.0');
    await hub.http.get(`/api/v1/skills/${ns}/${name}/versions/1.1.0/bundle`).expect(200);

    expect((await patch('1.0.0', { status: 'deprecated', message: 'use 2.x' })).body.status).toBe('deprecated');
    expect((await patch('1.0.0', { status: 'gone' })).status).toBe(400);
    const stranger = await hub.token(uniqueName('stranger'));
    expect((await patch('1.0.0', { status: 'yanked' }, stranger)).status).toBe(403);
  });

  it('tokens: stored hashed, listed without secrets, refused once revoked', async () => {
    const created = await hub.http
      .post('/api/v1/tokens')
      .set('authorization', `Bearer ${hub.adminToken}`)
      .send({ namespace: ns, scopes: ['publish'], name: 'ci' })
      .expect(201);
    const secret: string = created.body.token;
    expect(secret).toMatch(/^shp_[A-Za-z0-9_-]{43}$/);
    const rows = await hub.dataSource.query('SELECT token_hash FROM publisher_tokens WHERE id = $1', [created.body.id]);
    expect(rows[0].token_hash).toBe(sha256(Buffer.from(secret)));

    const list = await hub.http.get('/api/v1/tokens').set('authorization', `Bearer ${secret}`).expect(200);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(list.body.find((t: { id: string }) => t.id === created.body.id)).toMatchObject({
      name: 'ci',
      prefix: secret.slice(0, 12),
    });

    await hub.http.delete(`/api/v1/tokens/${created.body.id}`).set('authorization', `Bearer ${secret}`).expect(200);
    const after = await publish(kazmaBundle({ author: ns }), '', secret);
    expect(after.status).toBe(401);
    expect(after.body.detail).toMatch(/revoked/);
    expect((await publish(kazmaBundle({ author: ns }), '', 'shp_not-a-token')).status).toBe(401);
    expect(
      (await hub.http.post('/api/v1/skills').set('content-type', 'application/gzip').send(kazmaBundle())).status,
    ).toBe(401);
    expect(
      (await hub.http.post('/api/v1/tokens').set('authorization', `Bearer ${token}`).send({ namespace: ns })).status,
    ).toBe(403);
  });

  it('health, readiness and the OpenAPI document answer', async () => {
    const health = await hub.http.get('/api/v1/health').expect(200);
    expect(health.body).toEqual({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    const ready = await hub.http.get('/api/v1/health/ready').expect(200);
    expect(ready.body).toMatchObject({
      status: 'ready',
      mode: 'postgres',
      database: { status: 'up' },
      redis: { status: 'up' },
    });
    const doc = await hub.http.get('/docs-json').expect(200);
    for (const path of [
      '/api/v1/skills',
      '/api/v1/skills/validate',
      '/api/v1/skills/submit',
      '/api/v1/tokens',
      '/api/v1/skills/{author}/{name}/versions/{version}/bundle',
    ]) {
      expect(Object.keys(doc.body.paths)).toContain(path);
    }
  });

  it('answers Kazma submit without auth, keeps it quarantined, and lets the owner claim it', async () => {
    const manifest = kazmaManifest({ author: ns, manifest: { entry_point: undefined } });
    delete manifest.entry_point;
    const submitted = await hub.http
      .post('/api/v1/skills/submit')
      .send({ manifest, source_url: 'https://github.com/acme/weather', submitter_id: 'someone' });
    expect(submitted.status).toBe(201);
    expect(submitted.body).toMatchObject({
      submission_id: expect.any(String),
      skill_id: `kazma-hub://${ns}/${manifest.name}@1.0.0`,
      status: 'quarantined',
      message: expect.stringContaining('quarantined'),
    });
    await hub.http.get(`/api/v1/skills/${ns}/${manifest.name}`).expect(404);

    const claimed = await hub.http
      .post(`/api/v1/submissions/${submitted.body.submission_id}/claim`)
      .set('authorization', `Bearer ${token}`);
    expect(claimed.status).toBe(201);
    expect(claimed.body).toMatchObject({
      id: `kazma-hub://${ns}/${manifest.name}@1.0.0`,
      certification: { status: 'pending' },
    });
    await hub.http.get(`/api/v1/skills/${ns}/${manifest.name}`).expect(200);
    const again = await hub.http.get(`/api/v1/submissions/${submitted.body.submission_id}`).expect(200);
    expect(again.body.status).toBe('claimed');
  });

  it('refuses an invalid Kazma submit with 422 naming the fields', async () => {
    const res = await hub.http.post('/api/v1/skills/submit').send({ manifest: { name: 'Bad Name', version: 'one' } });
    expect(res.status).toBe(422);
    const paths = res.body.errors.map((e: { path: string }) => e.path).join(' ');
    for (const field of ['name', 'version', 'description', 'author', 'license']) expect(paths).toContain(field);
  });

  it('gives every response a request id, echoes a sane incoming one, and puts it in problem bodies', async () => {
    const fresh = await hub.http.get('/api/v1/health').expect(200);
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await hub.http.get('/api/v1/health').set('x-request-id', 'trace-1234abcd');
    expect(echoed.headers['x-request-id']).toBe('trace-1234abcd');
    const insane = await hub.http.get('/api/v1/health').set('x-request-id', '<script>');
    expect(insane.headers['x-request-id']).not.toBe('<script>');
    const problem = await hub.http.get('/api/v1/skills/nobody/nothing').set('x-request-id', 'trace-5678efgh');
    expect(problem.status).toBe(404);
    expect(problem.body.request_id).toBe('trace-5678efgh');
  });

  it('serves Prometheus metrics to the operator only', async () => {
    await hub.http.get('/api/v1/health').expect(200);
    await hub.http.get('/metrics').expect(401);
    await hub.http.get('/metrics').set('authorization', `Bearer ${token}`).expect(403);
    const res = await hub.http.get('/metrics').set('authorization', `Bearer ${hub.adminToken}`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/skillhub_http_request_duration_seconds_bucket\{[^}]*route="\/api\/v1\/health"/);
    expect(res.text).toMatch(/skillhub_certifications\{status="pending",level="none"\} \d+/);
    expect(res.text).toMatch(/skillhub_certification_queue_jobs\{state="waiting"\} \d+/);
    expect(res.text).toContain('skillhub_outbox_pending');
  });

  it('opens the queue board to the operator only (bearer, or Basic for a browser)', async () => {
    const anonymous = await hub.http.get('/admin/queues');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic/);
    await hub.http.get('/admin/queues').set('authorization', `Bearer ${token}`).expect(401);
    const basic = Buffer.from(`operator:${hub.adminToken}`).toString('base64');
    const page = await hub.http.get('/admin/queues').set('authorization', `Basic ${basic}`).expect(200);
    expect(page.text).toMatch(/<html/i);
    const api = await hub.http
      .get('/admin/queues/api/queues')
      .set('authorization', `Bearer ${hub.adminToken}`)
      .expect(200);
    expect(JSON.stringify(api.body)).toContain('certification');
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
  });

  it("refuses a cross-origin write that rides on the browser's cached Basic credentials", async () => {
    const basic = `Basic ${Buffer.from(`operator:${hub.adminToken}`).toString('base64')}`;
    const add = '/admin/queues/api/queues/certification/add';
    const jobs = async () => (await hub.http.get('/admin/queues/api/queues').set('authorization', basic)).text;
    const before = await jobs();
    // What a page on another site gets when it posts a form to the board.
    const forged = await hub.http
      .post(add)
      .set('authorization', basic)
      .set('origin', 'https://attacker.example')
      .type('form')
      .send({ name: 'certify', data: '{}' });
    expect(forged.status).toBe(403);
    const fromAnotherSite = await hub.http
      .post(add)
      .set('authorization', basic)
      .set('sec-fetch-site', 'cross-site')
      .send({ name: 'certify', data: {} });
    expect(fromAnotherSite.status).toBe(403);
    const noOrigin = await hub.http.post(add).set('authorization', basic).send({ name: 'certify', data: {} });
    expect(noOrigin.status).toBe(403);
    expect(await jobs()).toBe(before);
    // The board's own page (same origin) and a bearer are not refused by this check.
    const host = new URL(hub.baseUrl).host;
    const own = await hub.http
      .put('/admin/queues/api/queues/certification/resume')
      .set('authorization', basic)
      .set('origin', `http://${host}`);
    expect(own.status).not.toBe(403);
    const bearer = await hub.http
      .put('/admin/queues/api/queues/certification/resume')
      .set('authorization', `Bearer ${hub.adminToken}`);
    expect(bearer.status).not.toBe(403);
  });
});
