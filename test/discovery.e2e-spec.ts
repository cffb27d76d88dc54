/** Lists, filters, paging, stats and Kazma's discovery routes, over HTTP. */
import { DOMParser } from '@xmldom/xmldom';
import { stringify } from 'yaml';
import { writeBundle } from '@skillhub/bundle';
import { DEFAULT_PAGE_SIZE, UNPAGED_LIST_CAP } from '@skillhub/search';
import { agentSkillBundle, uniqueName } from '@skillhub/testing';
import { waitFor } from './support/private-redis';
import { startTestHub, type TestHub } from './support/test-hub';

interface Item {
  id: string;
  name: string;
  author: string;
  version: string;
  tags: string[];
  capabilities: string[];
  certified: boolean;
  downloads: number;
  format: string;
  category: string | null;
}

const bundle = (author: string, name: string, version: string, extra: Record<string, unknown> = {}) =>
  writeBundle(
    [
      {
        path: 'skill_manifest.yaml',
        content: stringify({
          name,
          version,
          description: `The ${name} skill, for discovery tests.`,
          author,
          license: 'MIT',
          entry_point: 'main.py',
          ...extra,
        }),
      },
      { path: 'main.py', content: `print("${name} ${version}")\n` },
    ],
    { rootFolder: name },
  );

describe('discovery', () => {
  let hub: TestHub;
  const ns = uniqueName('disc');
  const other = uniqueName('other');
  let token: string;

  const publish = async (bytes: Buffer, bearer = token, query = '') => {
    const res = await hub.http
      .post(`/api/v1/skills${query}`)
      .set('authorization', `Bearer ${bearer}`)
      .set('content-type', 'application/gzip')
      .send(bytes);
    expect(res.status).toBe(201);
  };
  const list = async (query: string) => {
    const res = await hub.http.get(`/api/v1/skills?${query}`);
    expect(res.status).toBe(200);
    return res.body as { items: Item[]; total: number; page?: number; per_page?: number; next_cursor?: string | null };
  };

  beforeAll(async () => {
    hub = await startTestHub();
    token = await hub.token(ns);
    const otherToken = await hub.token(other);
    await publish(
      bundle(ns, 'alpha-maps', '1.0.0', { category: 'maps', tags: ['maps', 'geo'], capabilities: ['geocode'] }),
    );
    await publish(
      bundle(ns, 'alpha-maps', '1.2.0', {
        category: 'maps',
        tags: ['maps', 'geo'],
        capabilities: ['geocode', 'route'],
      }),
    );
    await publish(bundle(ns, 'beta-mail', '0.9.0', { category: 'email', tags: ['email'], capabilities: ['send'] }));
    await publish(bundle(ns, 'gamma-yanked', '1.0.0', { category: 'misc' }));
    await publish(bundle(other, 'delta-docs', '2.0.0', { category: 'docs', tags: ['docs', 'geo'] }), otherToken);
    await publish(agentSkillBundle({ name: 'epsilon-pdf' }), token, '?version=1.0.0');
    await hub.http
      .patch(`/api/v1/skills/${ns}/gamma-yanked/versions/1.0.0`)
      .set('authorization', `Bearer ${token}`)
      .send({ status: 'yanked', message: 'broken' })
      .expect(200);
  });
  afterAll(() => hub.close());

  it("lists one item per skill (its latest version not yanked) in Kazma's shape", async () => {
    const body = await list('per_page=100');
    const names = body.items.map((i) => i.name);
    expect(names).toEqual(['alpha-maps', 'beta-mail', 'delta-docs', 'epsilon-pdf']);
    expect(body).toMatchObject({ total: 4, page: 1, per_page: 100 });
    const alpha = body.items[0]!;
    expect(alpha).toMatchObject({
      id: `kazma-hub://${ns}/alpha-maps@1.2.0`,
      author: ns,
      version: '1.2.0',
      category: 'maps',
      certified: false,
      downloads: 0,
      format: 'kazma',
      certification_level: 'none',
    });
    for (const key of [
      'id',
      'name',
      'author',
      'description',
      'version',
      'category',
      'tags',
      'certified',
      'downloads',
      'updated_at',
    ]) {
      expect(alpha).toHaveProperty(key);
    }
  });

  it('all_versions=true lists every version, yanked ones included', async () => {
    const body = await list(`all_versions=true&author=${ns}&per_page=100`);
    expect(body.items.map((i) => `${i.name}@${i.version}`).sort()).toEqual([
      'alpha-maps@1.0.0',
      'alpha-maps@1.2.0',
      'beta-mail@0.9.0',
      'epsilon-pdf@1.0.0',
      'gamma-yanked@1.0.0',
    ]);
  });

  it('filters by author, category, format, tags (any) and capabilities (all)', async () => {
    expect((await list(`author=${other}`)).items.map((i) => i.name)).toEqual(['delta-docs']);
    expect((await list('category=email')).items.map((i) => i.name)).toEqual(['beta-mail']);
    expect((await list('format=agent-skill')).items.map((i) => i.name)).toEqual(['epsilon-pdf']);
    expect((await list('tags=geo,email')).items.map((i) => i.name)).toEqual(['alpha-maps', 'beta-mail', 'delta-docs']);
    expect((await list('capabilities=geocode,route')).items.map((i) => i.name)).toEqual(['alpha-maps']);
    expect((await list('capabilities=geocode,send')).items).toEqual([]);
    expect((await list('certified=true')).total).toBe(0);
    expect((await list('certified=false')).total).toBe(4);
  });

  it('pages with page/per_page and with limit/cursor, seeing every item once', async () => {
    const p1 = await list('per_page=3&page=1');
    const p2 = await list('per_page=3&page=2');
    expect([...p1.items, ...p2.items].map((i) => i.name)).toEqual([
      'alpha-maps',
      'beta-mail',
      'delta-docs',
      'epsilon-pdf',
    ]);
    for (const sort of ['name', 'updated', 'downloads', 'version']) {
      const seen: string[] = [];
      let cursor: string | null | undefined;
      let pages = 0;
      do {
        const body = await list(`sort=${sort}&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...body.items.map((i) => i.name));
        cursor = body.next_cursor;
        pages++;
      } while (cursor && pages < 10);
      expect(seen.sort()).toEqual(['alpha-maps', 'beta-mail', 'delta-docs', 'epsilon-pdf']);
    }
  });

  it('refuses bad paging and filters with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['per_page=0', 'per_page'],
      ['per_page=101', 'per_page'],
      ['page=1&cursor=abc', 'cursor'],
      ['cursor=not-a-cursor', 'cursor'],
      ['sort=stars', 'sort'],
      ['certified=yes', 'certified'],
      ['format=zip', 'format'],
      ['sort=relevance', 'sort'],
      [`q=${'x'.repeat(201)}`, 'q'],
    ]) {
      const res = await hub.http.get(`/api/v1/skills?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(field);
    }
  });

  it("answers Kazma's certified list, search and stats with the fields its CLI reads", async () => {
    const certified = await hub.http.get('/api/v1/skills?certified=true').expect(200);
    expect(certified.body).toEqual({ items: [], total: 0, page: 1, per_page: UNPAGED_LIST_CAP });

    const search = await hub.http.get('/api/v1/skills/search?q=maps').expect(200);
    expect(search.body.query).toBe('maps');
    expect(search.body.items[0]).toMatchObject({ name: 'alpha-maps', author: ns, version: '1.2.0', certified: false });

    const stats = await hub.http.get('/api/v1/stats').expect(200);
    expect(stats.body).toEqual({
      total_skills: 4,
      certified_count: 0,
      by_category: { docs: 1, email: 1, maps: 1, uncategorized: 1 },
    });
  });
});

describe('badges, certification status and download counts', () => {
  let hub: TestHub;
  const ns = uniqueName('badge');
  let token: string;

  beforeAll(async () => {
    hub = await startTestHub();
    token = await hub.token(ns);
    const evil = '<script>alert(1)</script>&"\'';
    await hub.http
      .post('/api/v1/skills')
      .set('authorization', `Bearer ${token}`)
      .set('content-type', 'application/gzip')
      .send(bundle(ns, 'shiny', '1.0.0', { description: `Escapes ${evil} everywhere it is shown.` }))
      .expect(201);
  });
  afterAll(() => hub.close());

  const parseXml = (svg: string) => {
    // A strict parse: a stray `<` or `&` from unescaped input is reported as an error.
    const errors: string[] = [];
    const doc = new DOMParser({
      onError: (level: string, msg: string) => errors.push(`${level}: ${msg}`),
    }).parseFromString(svg, 'image/svg+xml');
    return { doc, errors };
  };

  it('renders a pending badge with cache headers, an ETag, a strict CSP and 304 on revalidation', async () => {
    const res = await hub.http.get(`/api/v1/skills/${ns}/shiny/badge.svg`).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600, stale-if-error=86400');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    const svg = res.body.toString();
    expect(svg).toContain('pending');
    expect(svg).toContain('skill hub');
    const again = await hub.http.get(`/api/v1/skills/${ns}/shiny/badge.svg`).set('if-none-match', res.headers.etag);
    expect(again.status).toBe(304);
  });

  it.each(['flat', 'flat-square', 'for-the-badge', 'plastic', 'social'])(
    'style %s renders valid XML',
    async (style) => {
      const res = await hub.http.get(`/api/v1/skills/${ns}/shiny/badge.svg?style=${style}`).buffer(true);
      expect(res.status).toBe(200);
      expect(parseXml(res.body.toString()).errors).toEqual([]);
    },
  );

  it('escapes a hostile label and caps its length; the SVG still parses as XML', async () => {
    const label = `<script>alert("x")</script> & 'quotes' ${'x'.repeat(100)}`;
    const res = await hub.http.get(`/api/v1/skills/${ns}/shiny/badge.svg`).query({ label }).buffer(true);
    const svg = res.body.toString();
    const { doc, errors } = parseXml(svg);
    expect(errors).toEqual([]);
    expect(svg).not.toContain('<script');
    expect(doc.getElementsByTagName('script').length).toBe(0);
    expect(doc.getElementsByTagName('title')[0]!.textContent).toContain('<script>alert("x")</script> & \'quotes\'');
    expect(doc.getElementsByTagName('title')[0]!.textContent!.length).toBeLessThanOrEqual(40 + ': pending'.length);
  });

  it('answers an unknown skill with a grey "not found" badge, status 200 and a header saying so', async () => {
    const res = await hub.http.get(`/api/v1/skills/${ns}/nope/badge.svg`).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['x-skill-hub-badge']).toBe('not-found');
    expect(res.body.toString()).toContain('not found');
    const json = await hub.http.get(`/api/v1/skills/${ns}/nope/badge.json`).expect(200);
    expect(json.body).toEqual({ schemaVersion: 1, label: 'skill hub', message: 'not found', color: 'lightgrey' });
  });

  it('serves the shields.io endpoint JSON', async () => {
    const json = await hub.http.get(`/api/v1/skills/${ns}/shiny/badge.json?label=trust`).expect(200);
    expect(json.body).toEqual({ schemaVersion: 1, label: 'trust', message: 'pending', color: 'yellow' });
  });

  it("answers Kazma's certification routes in every id form", async () => {
    const expected = {
      skill_id: `kazma-hub://${ns}/shiny@1.0.0`,
      level: 'none',
      issued_at: null,
      expires_at: null,
      requirements_met: {},
      status: 'pending',
    };
    for (const path of [
      `/api/v1/skills/kazma-hub://${ns}/shiny/certification`,
      `/api/v1/skills/kazma-hub://${ns}/shiny@1.0.0/certification`,
      `/api/v1/skills/${ns}/shiny/certification`,
      `/api/v1/skills/${ns}/shiny/versions/1.0.0/certification`,
    ]) {
      const res = await hub.http.get(path);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject(expected);
    }
    await hub.http.get(`/api/v1/skills/kazma-hub://${ns}/nope/certification`).expect(404);
  });

  it('counts downloads in batches and shows them in lists', async () => {
    for (let i = 0; i < 3; i++) await hub.http.get(`/api/v1/skills/${ns}/shiny/versions/1.0.0/bundle`).expect(200);
    let downloads = 0;
    for (let i = 0; i < 50 && downloads < 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      downloads = (await hub.http.get(`/api/v1/skills?author=${ns}`)).body.items[0].downloads;
    }
    expect(downloads).toBe(3);
    const version = await hub.http.get(`/api/v1/skills/${ns}/shiny/versions/1.0.0`).expect(200);
    expect(version.body.downloads).toBe(3);
  });
});

describe("Kazma's certified list, which does not page", () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startTestHub({ worker: true, env: { PUBLISH_RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(() => hub?.close());

  it('answers every certified skill at once, while every paged list answers one page of the same size', async () => {
    const ns = uniqueName('many');
    const token = await hub.token(ns);
    const count = DEFAULT_PAGE_SIZE + 5;
    for (let i = 0; i < count; i++) {
      const res = await hub.http
        .post('/api/v1/skills?version=1.0.0')
        .set('authorization', `Bearer ${token}`)
        .set('content-type', 'application/gzip')
        .send(agentSkillBundle({ name: `skill-${String(i).padStart(2, '0')}` }));
      expect(res.status).toBe(201);
    }
    await waitFor(
      async () => (await hub.http.get('/api/v1/skills?certified=true&per_page=1')).body.total === count,
      120_000,
      'every skill certified',
    );

    const kazma = await hub.http.get('/api/v1/skills?certified=true').expect(200);
    expect(kazma.body.items).toHaveLength(count);
    expect(kazma.body).toMatchObject({ total: count, page: 1, per_page: UNPAGED_LIST_CAP });
    const search = await hub.http.get('/api/v1/skills/search?q=skill').expect(200);
    expect(search.body.items).toHaveLength(count);

    // A list that pages answers one default page, whichever route: the skills and the MCP registry's.
    expect((await hub.http.get('/api/v1/skills').expect(200)).body.items).toHaveLength(DEFAULT_PAGE_SIZE);
    expect((await hub.http.get('/api/v1/skills?q=skill').expect(200)).body.items).toHaveLength(DEFAULT_PAGE_SIZE);
    const paged = await hub.http.get('/api/v1/skills?certified=true&page=2').expect(200);
    expect(paged.body.items).toHaveLength(count - DEFAULT_PAGE_SIZE);
  });
});
