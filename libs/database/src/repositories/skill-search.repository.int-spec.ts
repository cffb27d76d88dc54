/** Search on real PostgreSQL: full text, the typo fallback, filters, "certified now", keyset pages, totals, stats and the triggers behind them. */
import fc from 'fast-check';
import { parseSearchQuery, phrasePairs, tsqueryConjunctions } from '@skillhub/search';
import { MIGRATIONS } from '../migrations';
import { CURRENT_POLICY } from './current-certification';
import { SkillSearchRepository, TOTAL_CAP, type SkillSearch, type SearchSort } from './skill-search.repository';
import { SkillRepository } from './skill.repository';
import {
  openTestDatabase,
  seedVerdict,
  seedVersion,
  setCertification,
  uniqueSlug,
  type OpenDatabase,
} from '../testing/database-fixtures';

const tomorrow = (): string => new Date(Date.now() + 86_400_000).toISOString();

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

  /**
   * The postings and the lexicon's counts hold what the listed skills' documents say, as the
   * trigger of migration 1796400000000 keeps them: one row per word (of at most 64 characters)
   * with the skill's rounded static score and whether the word is in its name.
   */
  async function expectPostingsFollowSkills(): Promise<void> {
    const expected = `SELECT w."lexeme"::text AS "word", search_posting_score(s."static_score") AS "score", s."id" AS "skill_id",
        'A' = ANY(w."weights") AS "name"
      FROM "skills" s, unnest(s."search_vector") w
     WHERE s."latest_version_id" IS NOT NULL AND length(w."lexeme") <= 64`;
    const actual = `SELECT "word"::text, "score", "skill_id", "name" FROM "search_postings"`;
    const [{ missing, extra }] = await db.ds.query(
      `SELECT (SELECT count(*) FROM (${expected} EXCEPT ${actual}) x)::int AS missing,
              (SELECT count(*) FROM (${actual} EXCEPT ${expected}) x)::int AS extra`,
    );
    const [{ wrong }] = await db.ds.query(
      `SELECT count(*)::int AS wrong FROM (SELECT p."word", count(*) AS n FROM "search_postings" p GROUP BY 1) p
         FULL JOIN (SELECT "word", "documents" FROM "search_words" WHERE "documents" <> 0) w ON w."word" = p."word"
        WHERE p."n" IS DISTINCT FROM w."documents"`,
    );
    expect({ missing, extra, wrong }).toEqual({ missing: 0, extra: 0, wrong: 0 });
  }

  it('finds by name, description and tool text, ranks the name first, and forgives a typo in any of them', async () => {
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
    // The fallback looks the misspelt word up among every indexed word, so it reaches descriptions and tools.
    expect(await names({ q: 'wether', author, sort: 'relevance' })).toEqual(['weather-now', 'forecaster', 'city-info']);
    expect(await names({ q: 'condtions', author, sort: 'relevance' })).toEqual(['weather-now']);
    expect(await names({ q: 'stock', author, sort: 'relevance' })).toEqual(['stocks']);
  });

  it('corrects a misspelling to the nearest words by edit distance, the most held first', async () => {
    const author = uniqueSlug();
    const describe = async (description: string, times = 1) => {
      const names: string[] = [];
      for (let i = 0; i < times; i++) names.push((await seedVersion(db.ds, { namespace: author, description })).name);
      return names;
    };
    // Five rare words as near as the meant one (two letters changed), each spelt before it:
    // trigram distance alone, ties broken by spelling, looked up those five and missed it.
    for (const word of ['quaabgal', 'quaacgal', 'quabcgal', 'quaddgal', 'quaefgal'])
      await describe(`Reads ${word} files.`);
    const common = await describe('Reads quazzgal files.', 3);
    expect(await names({ q: 'quaxxgal', author, sort: 'relevance' })).toEqual(expect.arrayContaining(common));
    // Two letters swapped, where the stemmer parts the spellings (`qualogal` is indexed as
    // `qualog`, too few trigrams shared with `quaolgal` to be found by them).
    const swapped = await describe('Qualogal helper.', 2);
    expect(await names({ q: 'quaolgal', author, sort: 'relevance' })).toEqual(expect.arrayContaining(swapped));
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

  it.each<SearchSort>(['name', 'updated', 'downloads', 'version'])(
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

  it('pages by offset too, and counts every match', async () => {
    const author = uniqueSlug();
    for (const name of ['c', 'a', 'b']) await seedVersion(db.ds, { namespace: author, name });
    const second = await search.search(query({ author, limit: 2, start: { offset: 2 } }));
    expect([second.rows.map((r) => r.name), second.more, second.total, second.totalIsEstimate]).toEqual([
      ['c'],
      false,
      3,
      false,
    ]);
  });

  it('counts exactly up to the cap, and flags the estimate above it', async () => {
    const category = uniqueSlug('cat');
    const author = uniqueSlug();
    const skills = new SkillRepository(db.ds);
    const first = await seedVersion(db.ds, { namespace: author, category, description: 'Lots of kumquats.' });
    // Copies of one skill's rows, as many as the cap and one more, written in one statement.
    await db.ds.query(
      `WITH s AS (INSERT INTO "skills" ("namespace_id", "name")
                  SELECT $1, 'copy-' || g FROM generate_series(1, $3::int) g RETURNING "id")
       INSERT INTO "skill_versions" ("skill_id", "version", "major", "minor", "patch", "format", "author", "description",
              "category", "manifest_path", "manifest", "files", "bundle_sha256", "bundle_size", "published_by")
       SELECT s."id", v."version", v."major", v."minor", v."patch", v."format", v."author", v."description", v."category",
              v."manifest_path", v."manifest", v."files", v."bundle_sha256", v."bundle_size", v."published_by"
         FROM s, "skill_versions" v WHERE v."id" = $2`,
      [first.namespaceId, first.versionId, TOTAL_CAP],
    );
    await db.ds.query(
      `UPDATE "skills" s SET "latest_version_id" = v."id", "search_vector" = to_tsvector('english', v."description")
         FROM "skill_versions" v WHERE v."skill_id" = s."id" AND s."namespace_id" = $1 AND s."name" LIKE 'copy-%'`,
      [first.namespaceId],
    );
    await skills.addDownloads(new Map(), new Map([[first.skillId, 1]]));
    await expectPostingsFollowSkills();
    // One word: its postings are its matches, and the lexicon counts them exactly.
    const word = await search.search(query({ q: 'kumquats', sort: 'relevance', limit: 5 }));
    expect([word.totalIsEstimate, word.total, word.rows[0]!.name]).toEqual([false, TOTAL_CAP + 1, first.name]);
    // A phrase is never walked: the full-text index's bitmap, small, is read whole, so the
    // total is exact past the cap and the best by static score come first.
    const phrase = await search.search(query({ q: '"lots of kumquats"', sort: 'relevance', limit: 5 }));
    expect([phrase.totalIsEstimate, phrase.total, phrase.rows[0]!.name]).toEqual([false, TOTAL_CAP + 1, first.name]);
    // With a filter each posting is checked, and past the cap the total is an estimate.
    const filtered = await search.search(query({ q: 'kumquats', category, sort: 'relevance', limit: 5 }));
    expect([filtered.totalIsEstimate, filtered.total > TOTAL_CAP, filtered.rows[0]!.name]).toEqual([
      true,
      true,
      first.name,
    ]);
    const byAuthor = await search.search(query({ author, limit: 5 }));
    expect(byAuthor.totalIsEstimate).toBe(true);
    // The counters answer a category's list exactly, however many match.
    const byCategory = await search.search(query({ category, limit: 5 }));
    expect([byCategory.total, byCategory.totalIsEstimate]).toEqual([TOTAL_CAP + 1, false]);
  });

  it('keeps the counters, the listed columns and the static score with every write that moves them', async () => {
    const category = uniqueSlug('cat');
    const skills = new SkillRepository(db.ds);
    const count = async () => (await search.stats()).find((c) => c.category === category) ?? null;
    const one = await seedVersion(db.ds, { category, name: uniqueSlug('one') });
    const id = await seedVerdict(db.ds, one.versionId, { level: 'basic', expiresAt: tomorrow() });
    expect(await count()).toEqual({ category, total: 1, certified: 1 });
    const listed = await search.search(query({ q: one.name, sort: 'relevance' }));
    expect(listed.rows.map((r) => [r.name, r.certified, r.level])).toEqual([[one.name, true, 'basic']]);

    await setCertification(db.ds, id, { status: 'revoked' });
    expect(await count()).toEqual({ category, total: 1, certified: 0 });
    expect((await search.search(query({ category, certified: true }))).total).toBe(0);

    // A new version moves the listing to another category, with its own (pending) certification.
    const two = await seedVersion(db.ds, {
      namespace: one.namespace,
      name: one.name,
      version: '2.0.0',
      category: `${category}-b`,
    });
    expect(await count()).toBeNull();
    await seedVerdict(db.ds, two.versionId, { expiresAt: tomorrow() });
    const moved = (await search.stats()).find((c) => c.category === `${category}-b`);
    expect(moved).toEqual({ category: `${category}-b`, total: 1, certified: 1 });

    const before = (await db.ds.query(`SELECT "static_score" FROM "skills" WHERE "id" = $1`, [one.skillId]))[0];
    await skills.addDownloads(new Map([[two.versionId, 1000]]), new Map([[one.skillId, 1000]]));
    const after = (await db.ds.query(`SELECT "static_score" FROM "skills" WHERE "id" = $1`, [one.skillId]))[0];
    expect(after.static_score).toBeGreaterThan(before.static_score);

    // Yanking every version lists nothing, and the skill leaves the counts.
    await db.ds.transaction(async (m) => {
      await skills.setStatus(m, await skills.versionOf(m, one.skillId, '2.0.0'), 'yanked', null);
      await skills.setStatus(m, await skills.versionOf(m, one.skillId, '1.0.0'), 'yanked', null);
    });
    expect((await search.stats()).find((c) => c.category === `${category}-b`)).toBeUndefined();
    await expectPostingsFollowSkills();
  });

  it('counts a certificate past its expiry as not certified, though no write has happened since', async () => {
    const category = uniqueSlug('cat');
    const one = await seedVersion(db.ds, { category });
    const id = await seedVerdict(db.ds, one.versionId);
    await setCertification(db.ds, id, { expiresAt: new Date(Date.now() - 1000) });
    expect((await search.stats()).find((c) => c.category === category)).toEqual({ category, total: 1, certified: 0 });
    expect((await search.search(query({ category, certified: false }))).total).toBe(1);
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

  it('reads every tsquery PostgreSQL prints for typed text, and a search on it never fails', async () => {
    const pieces = [...'ab ZÄ-"\'\\:*&|!()<>9'.split(''), 'or', 'and', '-x', '"a b"', 'weather', 'kuber'];
    const typed = fc.array(fc.constantFrom(...pieces), { maxLength: 16 }).map((p) => p.join(''));
    await fc.assert(
      fc.asyncProperty(typed, async (q) => {
        const parsed = parseSearchQuery(q);
        const [row] = await db.ds.query(
          `SELECT (websearch_to_tsquery('english', $1) || to_tsquery('english', $2))::text AS "text"`,
          [parsed.text, parsed.prefix ? `${parsed.prefix}:*` : 'placeholder'],
        );
        const conjunctions = tsqueryConjunctions(row.text);
        for (const conjunction of conjunctions ?? []) {
          for (const term of conjunction) expect(row.text).toContain(term.lexeme.replace(/'/g, "''"));
        }
        await search.search(query({ q, sort: 'relevance', limit: 5 }));
      }),
      { numRuns: 150 },
    );
  });

  it('finds a phrase through its word pairs: every document holding the phrase holds the pairs asked for', async () => {
    // Documents and quoted queries from one small vocabulary, with stop words, hyphens and
    // apostrophes, in weighted fields as a skill's document is: whatever matches the phrase
    // must hold its pairs, or the pairs' index would lose matches.
    const words = ['slack', 'reader', 'readers', 'the', 'of', 'weather-sync', 'sync', "it's", 'api', 'a'];
    const text = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 8 }).map((w) => w.join(' '));
    const phrase = fc.array(fc.constantFrom(...words), { minLength: 2, maxLength: 4 }).map((w) => `"${w.join(' ')}"`);
    const typed = fc.tuple(phrase, fc.constantFrom('', ' -sync', ' or api', ' api', ' or "api reader"'));
    let paired = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 6 }),
        typed,
        async (docs, [p, rest]) => {
          const [{ tsquery }] = await db.ds.query(`SELECT websearch_to_tsquery('english', $1)::text AS "tsquery"`, [
            p + rest,
          ]);
          const pairs = phrasePairs(tsquery);
          if (pairs === null) return;
          paired++;
          const [{ lost }] = await db.ds.query(
            `SELECT count(*)::int AS "lost" FROM (
             SELECT setweight(to_tsvector('english', d->>0), 'A') || setweight(to_tsvector('english', d->>1), 'B') AS "v"
               FROM jsonb_array_elements($1::jsonb) d) x
            WHERE x."v" @@ $2::tsquery AND NOT search_word_pairs(x."v") @@ $3::tsquery`,
            [JSON.stringify(docs), tsquery, pairs],
          );
          expect(lost).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
    expect(paired).toBeGreaterThan(100);

    // Through search: the phrase first; the typo fallback (fewer than 20 matched) adds the
    // skills holding its words apart after it.
    const author = uniqueSlug();
    await seedVersion(db.ds, { namespace: author, description: 'Reader of slack exports.' });
    const together = await seedVersion(db.ds, { namespace: author, description: 'A slack reader for teams.' });
    await seedVersion(db.ds, { namespace: author, description: 'Slack; the reader.' });
    const found = await search.search(query({ q: '"slack reader"', author, sort: 'relevance' }));
    expect(found.rows[0]!.name).toBe(together.name);
    const [{ holders }] = await db.ds.query(
      `SELECT count(*)::int AS "holders" FROM "skills" WHERE search_word_pairs("search_vector") @@ $1::tsquery`,
      [phrasePairs(`'slack' <-> 'reader'`)],
    );
    expect(holders).toBe(1);
  });

  // Last: it takes the postings migration and those after it back and applies them again on this file's catalogue.
  it('builds, migrating an existing catalogue, the postings its trigger keeps, and undoes them', async () => {
    const [{ before }] = await db.ds.query(`SELECT count(*)::int AS before FROM "search_postings"`);
    expect(before).toBeGreaterThan(0);
    // Back to before the postings migration, through every migration after it.
    const postings = MIGRATIONS.findIndex((m) => m.name === 'SearchPostings1796400000000');
    for (let undo = postings; undo < MIGRATIONS.length; undo++) await db.ds.undoLastMigration();
    const [{ table }] = await db.ds.query(`SELECT to_regclass('search_postings')::text AS "table"`);
    expect(table).toBeNull();
    await db.ds.runMigrations();
    await expectPostingsFollowSkills();
    const [{ after }] = await db.ds.query(`SELECT count(*)::int AS after FROM "search_postings"`);
    expect(after).toBe(before);
    const word = await search.search(query({ q: 'kumquats', sort: 'relevance', limit: 5 }));
    expect([word.total, word.totalIsEstimate]).toEqual([TOTAL_CAP + 1, false]);
    const [{ index }] = await db.ds.query(`SELECT to_regclass('skills_phrase_idx')::text AS "index"`);
    expect(index).toBe('skills_phrase_idx');
  });
});
