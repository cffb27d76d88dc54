/**
 * Kazma's `kazma hub` CLI against this hub: exactly the requests of docs/kazma.md,
 * and every field the CLI reads, with the type it expects.
 */
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
