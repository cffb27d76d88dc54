/**
 * Kazma's `kazma hub` CLI against this hub: exactly the requests of docs/kazma.md,
 * and every field the CLI reads, with the type it expects.
 */
import { request as httpRequest } from 'node:http';
import { kazmaManifest, uniqueName } from '@skillhub/testing';
import { startTestHub, type TestHub } from './support/test-hub';

const CERTIFICATION_FIELDS = (body: Record<string, unknown>) => {
  expect(typeof body.skill_id).toBe('string');
  expect(typeof body.level).toBe('string');
  expect(['none', 'basic', 'standard']).toContain(body.level);
  expect(body.issued_at === null || typeof body.issued_at === 'string').toBe(true);
  expect(body.expires_at === null || typeof body.expires_at === 'string').toBe(true);
  expect(typeof body.requirements_met).toBe('object');
  expect(Array.isArray(body.requirements_met)).toBe(false);
  for (const v of Object.values(body.requirements_met as object)) expect(typeof v).toBe('boolean');
};

describe("Kazma's hub CLI contract", () => {
  let hub: TestHub;
  const author = uniqueName('kazma');
  let submissionId: string;

  beforeAll(async () => {
    hub = await startTestHub();
  });
  afterAll(() => hub.close());

  it('submit: POST /api/v1/skills/submit {manifest, source_url, submitter_id} → submission_id, skill_id, status, message', async () => {
    const manifest = kazmaManifest({ name: 'contract-skill', author });
    delete manifest.entry_point;
    const res = await hub.http
      .post('/api/v1/skills/submit')
      .set('content-type', 'application/json')
      .send({ manifest, source_url: 'https://github.com/example/contract-skill', submitter_id: 'cli-user' });
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
    for (const field of ['submission_id', 'skill_id', 'status', 'message'])
      expect(typeof res.body[field]).toBe('string');
    expect(res.body.skill_id).toBe(`kazma-hub://${author}/contract-skill@1.0.0`);
    submissionId = res.body.submission_id;
  });

  it('status: GET /api/v1/skills/{submission_id}/certification → skill_id, level, issued_at, expires_at, requirements_met', async () => {
    const res = await hub.http.get(`/api/v1/skills/${submissionId}/certification`);
    expect(res.status).toBe(200);
    CERTIFICATION_FIELDS(res.body);
    expect(res.body).toMatchObject({ skill_id: `kazma-hub://${author}/contract-skill@1.0.0`, level: 'none' });
  });

  it('status of an unknown submission is a 404 (the CLI prints an error and exits 1)', async () => {
    const res = await hub.http.get('/api/v1/skills/00000000-0000-4000-8000-000000000000/certification');
    expect(res.status).toBe(404);
  });

  it('badge: GET /api/v1/skills/kazma-hub://<author>/<name>/certification → the same fields', async () => {
    const token = await hub.token(author);
    await hub.http
      .post(`/api/v1/submissions/${submissionId}/claim`)
      .set('authorization', `Bearer ${token}`)
      .expect(201);
    const res = await hub.http.get(`/api/v1/skills/kazma-hub://${author}/contract-skill/certification`);
    expect(res.status).toBe(200);
    CERTIFICATION_FIELDS(res.body);
    const byStatus = await hub.http.get(`/api/v1/skills/${submissionId}/certification`).expect(200);
    expect(byStatus.body.skill_id).toBe(res.body.skill_id);
    await hub.http.get(`/api/v1/skills/kazma-hub://${author}/missing/certification`).expect(404);
  });

  it('certified: GET /api/v1/skills?certified=true → items[] with name, author, version, certified', async () => {
    const res = await hub.http.get('/api/v1/skills?certified=true');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.items)).toBe(true);
    for (const item of res.body.items) {
      expect(typeof item.name).toBe('string');
      expect(typeof item.author).toBe('string');
      expect(typeof item.version).toBe('string');
      expect(item.certified).toBe(true);
    }
    const all = await hub.http.get('/api/v1/skills?page=1&per_page=100&sort=name').expect(200);
    expect(all.body).toMatchObject({ total: 1, page: 1, per_page: 100 });
    expect(all.body.items[0]).toMatchObject({ name: 'contract-skill', author, version: '1.0.0', certified: false });
    const byVersion = await hub.http.get('/api/v1/skills?sort=version').expect(200);
    expect(byVersion.body.items).toHaveLength(1);
  });

  it('stats: GET /api/v1/stats → total_skills, certified_count, by_category {category: count}', async () => {
    const res = await hub.http.get('/api/v1/stats');
    expect(res.status).toBe(200);
    expect(Number.isInteger(res.body.total_skills)).toBe(true);
    expect(Number.isInteger(res.body.certified_count)).toBe(true);
    expect(res.body).toEqual({ total_skills: 1, certified_count: 0, by_category: { utilities: 1 } });
  });

  it('health and the old hub routes: /api/v1/health, /api/v1/skills/search, /api/v1/skills/{id}, …/download', async () => {
    expect((await hub.http.get('/api/v1/health').expect(200)).body.status).toBe('ok');
    const search = await hub.http
      .get('/api/v1/skills/search?q=contract&category=utilities&certified=false')
      .expect(200);
    expect(search.body).toMatchObject({ total: 1, query: 'contract' });
    expect(search.body.items[0].id).toBe(`kazma-hub://${author}/contract-skill@1.0.0`);
    const info = await hub.http.get(`/api/v1/skills/kazma-hub://${author}/contract-skill@1.0.0`).expect(200);
    for (const field of [
      'id',
      'name',
      'author',
      'description',
      'version',
      'category',
      'tags',
      'certified',
      'downloads',
    ]) {
      expect(info.body).toHaveProperty(field);
    }
    const download = await hub.http.get(`/api/v1/skills/kazma-hub://${author}/contract-skill@1.0.0/download`);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
  });
});

/**
 * `json.dumps` as httpx calls it for `json=` (Python's default separators, non-ASCII escaped),
 * so the bodies below are the bytes Kazma's CLI puts on the wire.
 */
function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonJson(k)}: ${pythonJson(v)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

interface KazmaAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * One request of Kazma's CLI: `f"{hub_url}/api/v1/…"` with the request target exactly as httpx
 * writes it (no client here re-encodes or normalises the path), httpx's headers, and no
 * credentials (the CLI sends none).
 */
function kazmaSends(
  hubUrl: string,
  method: 'GET' | 'POST',
  pathAfterBase: string,
  body?: unknown,
): Promise<KazmaAnswer> {
  const base = new URL(hubUrl);
  const target = `${base.pathname === '/' && hubUrl.endsWith('/') ? '/' : ''}${pathAfterBase}`;
  const payload = body === undefined ? undefined : Buffer.from(pythonJson(body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method,
        path: target,
        headers: {
          accept: '*/*',
          'accept-encoding': 'gzip, deflate',
          'user-agent': 'python-httpx/0.28.1',
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe("Kazma's CLI, unmodified (the bytes httpx sends)", () => {
  let hub: TestHub;
  // A manifest as Kazma's CLI reads it with yaml.safe_load: the raw author, no entry point.
  const manifest = (name: string) => ({
    name,
    version: '1.0.0',
    description: 'Reads and writes the team calendar for agents.',
    author: 'Kazma Team',
    license: 'MIT',
    category: 'productivity',
    capabilities: ['calendar'],
  });

  beforeAll(async () => {
    hub = await startTestHub();
  });
  afterAll(() => hub.close());

  it('kazma hub submit without --source-url sends "source_url": "" and is accepted, with no source stored', async () => {
    const res = await kazmaSends(hub.baseUrl, 'POST', '/api/v1/skills/submit', {
      manifest: manifest('calendar'),
      source_url: '',
      submitter_id: 'cli-user',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ skill_id: 'kazma-hub://kazma-team/calendar@1.0.0', status: 'quarantined' });
    const [row] = await hub.dataSource.query('SELECT source_url FROM submissions WHERE id = $1', [
      res.body.submission_id,
    ]);
    expect(row.source_url).toBeNull();
  });

  it.each([
    'git@github.com:kazma-team/agenda.git',
    'https://github.com/kazma-team/agenda',
    'ssh://git@github.com/kazma-team/agenda.git',
  ])('kazma hub submit --source-url %s is accepted and stored as given', async (sourceUrl) => {
    const res = await kazmaSends(hub.baseUrl, 'POST', '/api/v1/skills/submit', {
      manifest: manifest('agenda'),
      source_url: sourceUrl,
      submitter_id: 'cli-user',
    });
    expect(res.status).toBe(201);
    const [row] = await hub.dataSource.query('SELECT source_url FROM submissions WHERE id = $1', [
      res.body.submission_id,
    ]);
    expect(row.source_url).toBe(sourceUrl);
  });

  it('kazma hub badge "Kazma Team/calendar" before any claim: the submission, quarantined at level none', async () => {
    // Kazma's f"{hub_url}/api/v1/skills/kazma-hub://{skill_ref}/certification", as httpx encodes it.
    const res = await kazmaSends(hub.baseUrl, 'GET', '/api/v1/skills/kazma-hub://Kazma%20Team/calendar/certification');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      skill_id: 'kazma-hub://kazma-team/calendar@1.0.0',
      level: 'none',
      status: 'quarantined',
    });
  });

  it('kazma hub badge "Kazma Team/calendar" once namespace kazma-team claimed it: the published version', async () => {
    const submit = await kazmaSends(hub.baseUrl, 'POST', '/api/v1/skills/submit', {
      manifest: manifest('calendar'),
      source_url: '',
      submitter_id: 'cli-user',
    });
    const token = await hub.token('kazma-team');
    await hub.http
      .post(`/api/v1/submissions/${String(submit.body.submission_id)}/claim`)
      .set('authorization', `Bearer ${token}`)
      .expect(201);
    const res = await kazmaSends(hub.baseUrl, 'GET', '/api/v1/skills/kazma-hub://Kazma%20Team/calendar/certification');
    expect(res.status).toBe(200);
    expect(res.body.skill_id).toBe('kazma-hub://kazma-team/calendar@1.0.0');
    expect(res.body.status).not.toBe('quarantined');
    const versioned = await kazmaSends(
      hub.baseUrl,
      'GET',
      '/api/v1/skills/kazma-hub://Kazma%20Team/calendar@1.0.0/certification',
    );
    expect(versioned).toEqual(res);
  });

  it('a KAZMA_HUB_URL with a trailing slash (every path starting //) gets the same answers', async () => {
    const slash = `${hub.baseUrl}/`;
    const submitted = await kazmaSends(slash, 'POST', '/api/v1/skills/submit', {
      manifest: manifest('planner'),
      source_url: '',
      submitter_id: 'cli-user',
    });
    expect(submitted.status).toBe(201);
    expect(submitted.body.skill_id).toBe('kazma-hub://kazma-team/planner@1.0.0');
    for (const path of [
      `/api/v1/skills/${String(submitted.body.submission_id)}/certification`,
      '/api/v1/skills/kazma-hub://Kazma%20Team/calendar/certification',
      '/api/v1/skills?certified=true',
      '/api/v1/stats',
      '/api/v1/health',
    ]) {
      const [withSlash, without] = await Promise.all([
        kazmaSends(slash, 'GET', path),
        kazmaSends(hub.baseUrl, 'GET', path),
      ]);
      expect({ path, status: withSlash.status }).toEqual({ path, status: 200 });
      expect(withSlash.body).toEqual(without.body);
    }
  });

  it('a namespace nobody has is still a 404 (the CLI prints "No badge found")', async () => {
    const res = await kazmaSends(hub.baseUrl, 'GET', '/api/v1/skills/kazma-hub://Nobody%20Here/calendar/certification');
    expect(res.status).toBe(404);
  });
});
