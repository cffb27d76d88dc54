/**
 * Search relevance over a realistic corpus: 250+ Kazma skills from 20+ namespaces are published through the API,
 * then each judged query must return its expected skill among the top 3. The same set runs on PostgreSQL
 * and on the embedded PGlite database, which must rank alike.
 *
 * Then the search benchmark's generated catalogue (bench/search/search-corpus.js: Zipf words, 30% certified),
 * seeded through SQL: for each benchmark query, typos included, the top 10 holds the skills whose names match
 * (all of them when fewer than 10 do, else only name matches), however far down the static order they are.
 */
import { stringify } from 'yaml';
import { writeBundle } from '@skillhub/bundle';
import { CERTIFICATION_POLICY_VERSION } from '@skillhub/certification';
import { LISTED_VERSION_ORDER_SQL, LISTED_VERSION_SQL, SKILL_SEARCH_VECTOR_SQL } from '@skillhub/database';
import { corpusSkills, nameMatches, QUERIES, seedCorpus } from '../bench/search/search-corpus';
import { judgedQueries } from './fixtures/judged-queries';
import { skillCorpus, type CorpusSkill } from './fixtures/skill-corpus';
import { startTestHub, type TestHub, type TestHubOptions } from './support/test-hub';

const HUB_ENV = { PUBLISH_RATE_LIMIT_PER_MINUTE: '100000' };
/** Matches nothing, not even by trigram similarity. */
const NOTHING_MATCHES = 'zxqvjk';

interface SearchItem {
  author: string;
  name: string;
}

interface PublishFailure {
  skill: string;
  status: number;
  body: unknown;
}

const refOf = (s: { author: string; name: string }): string => `${s.author}/${s.name}`;

/** Fails with the response body, so a 4xx or 5xx says why. */
function expectOk(res: { status: number; body: unknown }, what: string): void {
  if (res.status !== 200) throw new Error(`${what}: expected 200, got ${res.status} ${JSON.stringify(res.body)}`);
}

const refsOf = (body: unknown): string[] => {
  const items = (body as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? (items as SearchItem[]).map(refOf) : [];
};

function corpusBundle(s: CorpusSkill): Buffer {
  const manifest = {
    name: s.name,
    version: '1.0.0',
    description: s.description,
    author: s.author,
    license: 'MIT',
    category: s.category,
    tags: s.tags,
    capabilities: s.capabilities,
    tools: s.tools,
    entry_point: 'main.py',
  };
  return writeBundle(
    [
      { path: 'skill_manifest.yaml', content: stringify(manifest) },
      { path: 'main.py', content: `def main():\n    return ${JSON.stringify(s.name)}\n` },
    ],
    { rootFolder: s.name },
  );
}

/** Runs `task` over `items` with at most `limit` in flight, keeping the order of `items` in the result. */
async function mapConcurrently<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function publishCorpus(hub: TestHub, concurrency: number): Promise<PublishFailure[]> {
  const tokens = new Map<string, string>();
  for (const author of new Set(skillCorpus.map((s) => s.author))) tokens.set(author, await hub.token(author));
  const outcomes = await mapConcurrently(skillCorpus, concurrency, async (s) => {
    const res = await hub.http
      .post('/api/v1/skills')
      .set('authorization', `Bearer ${tokens.get(s.author)}`)
      .set('content-type', 'application/gzip')
      .send(corpusBundle(s));
    return { skill: refOf(s), status: res.status, body: res.body as unknown };
  });
  return outcomes.filter((o) => o.status !== 201);
}

function describeSearchRelevance(
  backend: string,
  options: TestHubOptions,
  publish: { concurrency: number; timeoutMs: number },
): void {
  describe(`search relevance on ${backend}`, () => {
    let hub: TestHub;

    beforeAll(async () => {
      hub = await startTestHub(options);
      const started = Date.now();
      const failures = await publishCorpus(hub, publish.concurrency);
      console.log(`${backend}: published ${skillCorpus.length} skills in ${Date.now() - started} ms`);
      expect(failures).toEqual([]);
    }, publish.timeoutMs);
    afterAll(() => hub?.close());

    const search = (q: string, perPage: number) => hub.http.get('/api/v1/skills').query({ q, per_page: perPage });

    it.each(judgedQueries)('$q → $expected', async ({ q, expected, why }) => {
      const res = await search(q, 3);
      expectOk(res, `q=${JSON.stringify(q)}`);
      const top3 = refsOf(res.body);
      if (!top3.includes(expected)) {
        const top5 = refsOf((await search(q, 5)).body);
        throw new Error(
          `q=${JSON.stringify(q)}: expected ${expected} in the top 3 (${why})\n` +
            `  top 5: ${top5.length ? top5.map((ref, i) => `${i + 1}. ${ref}`).join('  ') : '(nothing)'}`,
        );
      }
    });

    it("Kazma's search route answers {items, total, query} with the same top item as the hub's", async () => {
      const kazma = await hub.http.get('/api/v1/skills/search').query({ q: 'weather' });
      const native = await search('weather', 20);
      expectOk(kazma, 'GET /api/v1/skills/search?q=weather');
      expectOk(native, 'GET /api/v1/skills?q=weather');
      expect(kazma.body).toMatchObject({ items: expect.any(Array), total: expect.any(Number), query: 'weather' });
      expect(kazma.body.total).toBeGreaterThan(0);
      expect(refsOf(kazma.body)[0]).toBeDefined();
      expect(refsOf(kazma.body)[0]).toBe(refsOf(native.body)[0]);
    });

    it('a query that matches nothing answers 200 with no items and a total of 0', async () => {
      const res = await search(NOTHING_MATCHES, 3);
      expectOk(res, `q=${NOTHING_MATCHES}`);
      expect(res.body).toMatchObject({ items: [], total: 0 });
    });
  });
}

describeSearchRelevance('PostgreSQL', { env: HUB_ENV }, { concurrency: 8, timeoutMs: 180_000 });
// One connection: publishes are serialised anyway, so fewer in flight, and more time.
describeSearchRelevance('embedded PGlite', { embedded: true, env: HUB_ENV }, { concurrency: 4, timeoutMs: 300_000 });

/** Large enough that common words match hundreds of skills, small enough to seed in seconds. */
const GENERATED_SKILLS = 1500;

function describeGeneratedRelevance(backend: string, options: TestHubOptions): void {
  describe(`top 10 of the benchmark queries on the generated catalogue, ${backend}`, () => {
    let hub: TestHub;
    const skills = [...corpusSkills(GENERATED_SKILLS)];

    beforeAll(async () => {
      hub = await startTestHub(options);
      await seedCorpus((sql, params) => hub.dataSource.query(sql, params), GENERATED_SKILLS, {
        searchVectorSql: SKILL_SEARCH_VECTOR_SQL,
        listedSql: LISTED_VERSION_SQL,
        listedOrderSql: LISTED_VERSION_ORDER_SQL,
        policyVersion: CERTIFICATION_POLICY_VERSION,
      });
    }, 120_000);
    afterAll(() => hub?.close());

    it.each(QUERIES.filter((query) => query.names))('$label', async ({ q, names }) => {
      const matching = new Set(
        skills.filter((s) => nameMatches(s.name, names!)).map((s) => `${s.namespace}/${s.name}`),
      );
      const res = await hub.http.get('/api/v1/skills').query({ q, per_page: 10 });
      expectOk(res, `q=${JSON.stringify(q)}`);
      const top10 = refsOf(res.body);
      // Fewer than 10 name matches: every one in the top 10; more: nothing else in it.
      const expected = matching.size < 10 ? [...matching] : top10;
      expect(matching.size).toBeGreaterThan(0);
      expect({ q, names: top10.filter((ref) => matching.has(ref)).sort() }).toEqual({ q, names: [...expected].sort() });
    });
  });
}

describeGeneratedRelevance('PostgreSQL', { env: HUB_ENV });
describeGeneratedRelevance('embedded PGlite', { embedded: true, env: HUB_ENV });
