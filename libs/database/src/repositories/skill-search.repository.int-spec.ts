/** Search on real PostgreSQL: full text, the typo fallback, filters, "certified now", keyset pages, stats. */
import { CURRENT_POLICY } from './current-certification';
import { SkillSearchRepository, type SkillSearch, type SearchSort } from './skill-search.repository';
import { SkillRepository } from './skill.repository';
import {
  openTestDatabase,
  seedVerdict,
  seedVersion,
  setCertification,
  uniqueSlug,
  type OpenDatabase,
} from '../testing/database-fixtures';

describe('SkillSearchRepository', () => {
  let db: OpenDatabase;
  let search: SkillSearchRepository;
  beforeAll(async () => {
    db = await openTestDatabase();
    search = new SkillSearchRepository(db.ds);
  });
  afterAll(() => db.close());

  const query = (q: Partial<SkillSearch>): SkillSearch => ({
    allVersions: false,
    sort: 'name',
    limit: 50,
    start: { offset: 0 },
    ...q,
  });
  const names = async (q: Partial<SkillSearch>) => (await search.search(query(q))).rows.map((r) => r.name);

  it('finds by name, description and tool text, ranks the name first, and forgives a typo in a name', async () => {
    const author = uniqueSlug();
    await seedVersion(db.ds, { namespace: author, name: 'weather-now', description: 'Current conditions.' });
    await seedVersion(db.ds, {
      namespace: author,
      name: 'forecaster',
      description: 'Tomorrow, from the weather service.',
    });
    await seedVersion(db.ds, {
      namespace: author,
      name: 'city-info',
      description: 'Facts about a city.',
      tools: [{ name: 'get_weather', description: 'Weather of a city' }],
    });
    await seedVersion(db.ds, { namespace: author, name: 'stocks', description: 'Share prices.' });
    expect(await names({ q: 'weather', author, sort: 'relevance' })).toEqual([
      'weather-now',
      'forecaster',
      'city-info',
    ]);
    expect(await names({ q: 'wether', author, sort: 'relevance' })).toEqual(['weather-now']);
    expect(await names({ q: 'stock', author, sort: 'relevance' })).toEqual(['stocks']);
  });

  it('filters by category, tags and capabilities on the listed version, or on every version', async () => {
    const author = uniqueSlug();
    await seedVersion(db.ds, { namespace: author, name: 'alpha', category: 'data', tags: ['csv'] });
    await seedVersion(db.ds, {
      namespace: author,
      name: 'alpha',
      version: '2.0.0',
      category: 'files',
      tags: ['csv', 'xls'],
    });
    await seedVersion(db.ds, { namespace: author, name: 'beta', category: 'data', capabilities: ['net', 'fs'] });
    expect(await names({ author, category: 'data' })).toEqual(['beta']);
    expect(await names({ author, tags: ['xls', 'nothing'] })).toEqual(['alpha']);
    expect(await names({ author, capabilities: ['fs', 'net'] })).toEqual(['beta']);
    expect(await names({ author, capabilities: ['fs', 'gpu'] })).toEqual([]);
    const every = await search.search(query({ author, allVersions: true, category: 'data' }));
    expect(every.rows.map((r) => `${r.name}@${r.version}`)).toEqual(['alpha@1.0.0', 'beta@1.0.0']);
    expect(every.total).toBe(2);
  });

  it('says certified only for a certificate that holds now under the current policy', async () => {
    const author = uniqueSlug();
    const holds = await seedVersion(db.ds, { namespace: author, name: 'holds' });
    const expired = await seedVersion(db.ds, { namespace: author, name: 'expired' });
    const older = await seedVersion(db.ds, { namespace: author, name: 'older-policy' });
    const revoked = await seedVersion(db.ds, { namespace: author, name: 'revoked' });
    await seedVersion(db.ds, { namespace: author, name: 'pending' });
    await seedVerdict(db.ds, holds.versionId, {
      level: 'basic',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await setCertification(db.ds, await seedVerdict(db.ds, expired.versionId), {
      expiresAt: new Date(Date.now() - 1000),
    });
    await setCertification(db.ds, await seedVerdict(db.ds, older.versionId), { policyVersion: CURRENT_POLICY - 1 });
    await setCertification(db.ds, await seedVerdict(db.ds, revoked.versionId), { status: 'revoked' });

    const page = await search.search(query({ author }));
    expect(page.rows.map((r) => [r.name, r.certified, r.level])).toEqual([
      ['expired', false, 'standard'],
      ['holds', true, 'basic'],
      ['older-policy', false, null],
      ['pending', false, null],
      ['revoked', false, 'standard'],
    ]);
    expect(await names({ author, certified: true })).toEqual(['holds']);
    expect(await names({ author, certified: false })).toEqual(['expired', 'older-policy', 'pending', 'revoked']);
    expect((await search.search(query({ author, certified: false }))).total).toBe(4);
  });

  it.each<SearchSort>(['updated', 'downloads', 'version'])(
    'pages by keyset in %s order, each row once, as one long page would',
    async (sort) => {
      const author = uniqueSlug();
      const skills = new SkillRepository(db.ds);
      for (let i = 0; i < 7; i++) {
        const v = await seedVersion(db.ds, { namespace: author, name: `s${i}`, version: `1.${i % 3}.${i}` });
        await skills.addDownloads(new Map([[v.versionId, i % 2]]), new Map([[v.skillId, i % 2]]));
      }
      const whole = (await search.search(query({ author, sort }))).rows.map((r) => r.name);
      const paged: string[] = [];
      let start: SkillSearch['start'] = { offset: 0 };
      for (;;) {
        const page = await search.search(query({ author, sort, limit: 3, start }));
        paged.push(...page.rows.map((r) => r.name));
        if (!page.more) break;
        start = { after: page.rows.at(-1)!.position! };
      }
      expect(whole).toHaveLength(7);
      expect(paged).toEqual(whole);
    },
  );

  it('pages by offset in name order, and counts every match', async () => {
    const author = uniqueSlug();
    for (const name of ['c', 'a', 'b']) await seedVersion(db.ds, { namespace: author, name });
    const second = await search.search(query({ author, limit: 2, start: { offset: 2 } }));
    expect([second.rows.map((r) => r.name), second.more, second.total, second.rows[0]!.position]).toEqual([
      ['c'],
      false,
      3,
      null,
    ]);
  });

  it('counts listed skills by category with those certified now, and lists the newest certificates first', async () => {
    const before = await search.stats();
    const category = uniqueSlug('cat');
    const first = await seedVersion(db.ds, { category });
    const second = await seedVersion(db.ds, { category });
    await seedVersion(db.ds, { category });
    await seedVerdict(db.ds, first.versionId, {
      issuedAt: new Date(Date.now() - 5000).toISOString(),
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    await seedVerdict(db.ds, second.versionId, {
      issuedAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const after = await search.stats();
    expect(after.find((c) => c.category === category)).toEqual({ category, total: 3, certified: 2 });
    expect(after.reduce((n, c) => n + c.total, 0)).toBe(before.reduce((n, c) => n + c.total, 0) + 3);

    const recent = await search.recentlyCertified(2);
    expect(recent.map((r) => r.name)).toEqual([second.name, first.name]);
    expect(recent[0]).toMatchObject({ author: second.namespace, version: '1.0.0', level: 'standard' });
  });
});
