// A generated catalogue of skills for the search benchmark and the relevance test, and the
// queries both run on it. Deterministic (same size, same skills), written straight through SQL
// in batches so that 1,000,000 skills never sit in memory at once.
//
// - Words follow a Zipf law over a 20,000-word vocabulary: real technical words at the head
//   (`data`, `api`, `weather`…), generated pseudo-words in a long tail of rare ones.
// - Names are `<domain>-<noun>`, the domain drawn by the same law from the first 400 words.
// - 1 to 3 versions a skill, and a certification row per version, judged under the policy the
//   hub runs (never `pending`: the hub queues nothing at start), about 30% of listed versions
//   certified.

const VOCABULARY_SIZE = 20_000;
const DOMAIN_WORDS = 400;
const SKILLS_PER_NAMESPACE = 50;
const CERTIFIED_SHARE = 0.3;

const HEAD = [
  'data',
  'files',
  'api',
  'search',
  'agent',
  'text',
  'cloud',
  'reports',
  'github',
  'email',
  'calendar',
  'database',
  'slack',
  'images',
  'chat',
  'notes',
  'tasks',
  'docs',
  'code',
  'metrics',
  'logs',
  'users',
  'weather',
  'maps',
  'payments',
  'invoices',
  'orders',
  'tickets',
  'alerts',
  'events',
  'postgres',
  'kubernetes',
  'docker',
  'redis',
  'stripe',
  'notion',
  'jira',
  'sentry',
  'grafana',
  'terraform',
  'translate',
  'speech',
  'music',
  'travel',
  'recipes',
  'crypto',
  'shopify',
  'salesforce',
  'youtube',
  'spotify',
  'wikipedia',
  'arxiv',
  'sqlite',
  'mongo',
  'qdrant',
  'discord',
  'forecast',
  'calendar',
  'contacts',
  'browser',
  'markdown',
  'spreadsheet',
  'webhook',
  'pipeline',
  'backup',
  'storage',
  'scheduler',
  'inventory',
  'shipping',
  'analytics',
];
const NOUNS = [
  'reader',
  'writer',
  'sync',
  'monitor',
  'helper',
  'assistant',
  'bridge',
  'explorer',
  'notifier',
  'importer',
  'exporter',
  'analyzer',
  'summarizer',
  'planner',
  'tracker',
  'gateway',
  'indexer',
  'scanner',
  'client',
  'toolkit',
];
const VERBS = [
  'reads',
  'lists',
  'searches',
  'summarizes',
  'tracks',
  'exports',
  'imports',
  'watches',
  'queries',
  'reports',
];
const CATEGORIES = ['utilities', 'data', 'devops', 'communication', 'productivity', 'media', 'finance', 'research'];
const FORMATS = ['kazma', 'kazma', 'kazma', 'agent-skill', 'swarmkit'];
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'to',
  'vi',
  'ze',
  'qua',
  'bri',
  'dor',
  'fen',
  'gal',
  'hul',
  'jor',
  'kel',
  'mar',
  'nor',
  'pel',
  'ris',
  'sul',
  'tar',
  'vex',
  'wil',
  'yor',
  'zan',
  'cra',
  'dro',
  'fli',
];

/** mulberry32: a small seeded generator, so every run writes the same catalogue. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function buildVocabulary() {
  const words = [...new Set(HEAD)];
  const seen = new Set(words);
  const next = random(7);
  while (words.length < VOCABULARY_SIZE) {
    const n = 2 + Math.floor(next() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    if (w.length >= 5 && !seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return words;
}

/** A sampler of ranks 0..n-1 with P(rank r) ∝ 1 / (r + 1)^s. */
function zipf(n, s) {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) cdf[r] = sum += 1 / Math.pow(r + 1, s);
  return (u) => {
    const target = u * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const VOCABULARY = buildVocabulary();
const wordRank = zipf(VOCABULARY_SIZE, 1.05);
const domainRank = zipf(DOMAIN_WORDS, 0.9);

/** The skills of namespace `ns` (index from 0) in a catalogue of `total` skills. */
function namespaceSkills(ns, total) {
  const next = random(1000 + ns);
  const words = (n) => Array.from({ length: n }, () => VOCABULARY[wordRank(next())]);
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  const first = ns * SKILLS_PER_NAMESPACE;
  const count = Math.min(SKILLS_PER_NAMESPACE, total - first);
  const taken = new Map();
  const skills = [];
  for (let k = 0; k < count; k++) {
    const domain = VOCABULARY[domainRank(next())];
    const base = `${domain}-${pick(NOUNS)}`;
    const seen = (taken.get(base) ?? 0) + 1;
    taken.set(base, seen);
    const name = seen === 1 ? base : `${base}-${seen}`;
    const versions = next() < 0.7 ? 1 : next() < 0.67 ? 2 : 3;
    const certified = next() < CERTIFIED_SHARE;
    const description = `${pick(NOUNS)} that ${pick(VERBS)} ${domain} ${words(6 + Math.floor(next() * 10)).join(' ')}.`;
    skills.push({
      namespace: `ns-${ns}`,
      name,
      description,
      category: CATEGORIES[Math.min(CATEGORIES.length - 1, Math.floor(-Math.log(1 - next()) * 2))],
      format: pick(FORMATS),
      tags: [domain, ...words(1 + Math.floor(next() * 2))],
      capabilities: [`${domain}.${pick(['read', 'write', 'watch'])}`],
      tools: Array.from({ length: 1 + Math.floor(next() * 3) }, () => ({
        name: `${pick(VERBS).replace(/s$/, '')}_${words(1)[0]}`,
        description: words(4 + Math.floor(next() * 6)).join(' '),
      })),
      versions: ['1.0.0', '1.1.0', '2.0.0'].slice(0, versions),
      downloads: Math.floor(Math.pow(1 / (1 - next() * 0.9999), 1.3)) - 1,
      updatedAt: new Date(Date.UTC(2025, 0, 1) + Math.floor(next() * 700 * 86_400_000)),
      // The listed (highest) version's verdict; an older version's is drawn apart.
      certified,
      level: next() < 0.6 ? 'standard' : 'basic',
      olderCertified: next() < 0.5,
    });
  }
  return skills;
}

/** Every skill of a catalogue of `total`, namespace by namespace. */
function* corpusSkills(total) {
  for (let ns = 0; ns * SKILLS_PER_NAMESPACE < total; ns++) yield* namespaceSkills(ns, total);
}

/**
 * Writes a catalogue of `total` skills through `query(sql, params)` (node-postgres's shape or
 * TypeORM's), with the hub's own listing rule and search document (`sql`: SKILL_SEARCH_VECTOR_SQL,
 * LISTED_VERSION_SQL, LISTED_VERSION_ORDER_SQL and CERTIFICATION_POLICY_VERSION, passed in so
 * this file reads no build). The triggers of the hub's migrations fill the rest.
 */
async function seedCorpus(query, total, sql, onBatch = () => {}) {
  const [{ id: publisher }] = await query(
    `INSERT INTO "publishers" ("name") VALUES ('search-corpus') ON CONFLICT ("name") DO UPDATE SET "name" = EXCLUDED."name" RETURNING "id"`,
  );
  const sha = '0'.repeat(64);
  await query(`INSERT INTO "blobs" ("sha256", "size", "content") VALUES ($1, 1, '\\x00') ON CONFLICT DO NOTHING`, [
    sha,
  ]);
  const namespaces = Math.ceil(total / SKILLS_PER_NAMESPACE);
  const BATCH = 100;
  for (let from = 0; from < namespaces; from += BATCH) {
    const skills = [];
    for (let ns = from; ns < Math.min(namespaces, from + BATCH); ns++) skills.push(...namespaceSkills(ns, total));
    const slugs = [...new Set(skills.map((s) => s.namespace))];
    await query(`INSERT INTO "namespaces" ("slug", "owner_id") SELECT unnest($1::text[]), $2`, [slugs, publisher]);
    await query(
      `INSERT INTO "skills" ("namespace_id", "name", "downloads", "created_at", "updated_at")
       SELECT n."id", d."name", d."downloads", d."updated", d."updated"
         FROM unnest($1::text[], $2::text[], $3::bigint[], $4::timestamptz[]) d("ns", "name", "downloads", "updated")
         JOIN "namespaces" n ON n."slug" = d."ns"`,
      [
        skills.map((s) => s.namespace),
        skills.map((s) => s.name),
        skills.map((s) => s.downloads),
        skills.map((s) => s.updatedAt.toISOString()),
      ],
    );
    const versions = skills.flatMap((s) =>
      s.versions.map((version, i) => ({ s, version, listed: i === s.versions.length - 1 })),
    );
    const col = (f) => versions.map(f);
    await query(
      `INSERT INTO "skill_versions" ("skill_id", "version", "major", "minor", "patch", "format", "author", "description",
              "license", "category", "capabilities", "permissions", "tags", "tools", "manifest_path", "manifest", "files",
              "bundle_sha256", "bundle_size", "published_by", "created_at")
       SELECT s."id", d."version", split_part(d."version", '.', 1)::int, split_part(d."version", '.', 2)::int,
              split_part(d."version", '.', 3)::int, d."format", d."ns", d."description", 'MIT', d."category",
              string_to_array(d."capabilities", ','), '{}', string_to_array(d."tags", ','), d."tools"::jsonb,
              'skill_manifest.yaml', '{}'::jsonb, '[]'::jsonb, $9, 1, $10, d."updated"
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                     $11::text[], $12::timestamptz[])
              d("ns", "name", "version", "format", "description", "category", "capabilities", "tags", "tools", "updated")
         JOIN "namespaces" n ON n."slug" = d."ns" JOIN "skills" s ON s."namespace_id" = n."id" AND s."name" = d."name"`,
      [
        col((v) => v.s.namespace),
        col((v) => v.s.name),
        col((v) => v.version),
        col((v) => v.s.format),
        col((v) => v.s.description),
        col((v) => v.s.category),
        col((v) => v.s.capabilities.join(',')),
        col((v) => v.s.tags.join(',')),
        sha,
        publisher,
        col((v) => JSON.stringify(v.s.tools)),
        col((v) => v.s.updatedAt.toISOString()),
      ],
    );
    const certified = (v) => (v.listed ? v.s.certified : v.s.olderCertified);
    await query(
      `INSERT INTO "certifications" ("skill_version_id", "policy_version", "status", "level", "issued_at", "expires_at")
       SELECT v."id", $5, d."status", d."level", CASE WHEN d."status" = 'certified' THEN d."updated" END,
              CASE WHEN d."status" = 'certified' THEN now() + interval '365 days' END
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $6::text[], $7::timestamptz[])
              d("ns", "name", "version", "status", "level", "updated")
         JOIN "namespaces" n ON n."slug" = d."ns" JOIN "skills" s ON s."namespace_id" = n."id" AND s."name" = d."name"
         JOIN "skill_versions" v ON v."skill_id" = s."id" AND v."version" = d."version"`,
      [
        col((v) => v.s.namespace),
        col((v) => v.s.name),
        col((v) => v.version),
        col((v) => (certified(v) ? 'certified' : 'failed')),
        sql.policyVersion,
        col((v) => (certified(v) ? v.s.level : 'none')),
        col((v) => v.s.updatedAt.toISOString()),
      ],
    );
    // The publisher's listing rule and search document, as refreshListing writes them.
    await query(
      `UPDATE "skills" s SET "latest_version_id" = l."id", "search_vector" = ${sql.searchVectorSql}
         FROM (SELECT DISTINCT ON (v."skill_id") v.* FROM "skill_versions" v
                 JOIN "skills" s ON s."id" = v."skill_id" JOIN "namespaces" n ON n."id" = s."namespace_id"
                WHERE n."slug" = ANY($1::text[]) AND ${sql.listedSql}
                ORDER BY v."skill_id", ${sql.listedOrderSql}) l
        WHERE l."skill_id" = s."id"`,
      [slugs],
    );
    onBatch(Math.min(total, (from + BATCH) * SKILLS_PER_NAMESPACE));
  }
  await query('ANALYZE');
}

/** One edit of a word (a letter dropped, doubled, swapped or replaced), never at its first letter. */
function misspell(word, variant) {
  const i = 1 + (variant % (word.length - 2));
  switch (variant % 4) {
    case 0:
      return word.slice(0, i) + word.slice(i + 1);
    case 1:
      return word.slice(0, i) + word[i] + word.slice(i);
    case 2:
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    default:
      return word.slice(0, i) + (word[i] === 'e' ? 'a' : 'e') + word.slice(i + 1);
  }
}

/** Misspellings of head and mid-frequency words (6 letters or more) that are no word of the vocabulary. */
function typoQueries(count = 24) {
  const known = new Set(VOCABULARY);
  const typos = [];
  for (let rank = 0; typos.length < count && rank < 2000; rank += 7) {
    const word = VOCABULARY[rank];
    if (word.length < 6) continue;
    const typo = misspell(word, rank);
    if (typo !== word && !known.has(typo)) typos.push({ typo, word });
  }
  return typos;
}

/**
 * The query shapes of the benchmark and the relevance test. `names`, if any, says which names match the
 * query (every word a name part, the last as a prefix when `prefix`, none of `none`); `word` is
 * what a misspelt query means.
 */
const RARE_WORD = VOCABULARY[3000];
const QUERIES = [
  { label: 'one word (q=weather)', q: 'weather', names: { all: ['weather'] } },
  { label: 'very common word (q=api)', q: 'api', names: { all: ['api'] } },
  // No name holds a word this rare (names take their words from the first 400).
  { label: `rare word (q=${RARE_WORD})`, q: RARE_WORD },
  { label: 'two words (q=github monitor)', q: 'github monitor', names: { all: ['github', 'monitor'], prefix: true } },
  { label: 'prefix as typed (q=kuber)', q: 'kuber', names: { all: ['kuber'], prefix: true } },
  { label: 'misspelt (q=wether)', q: 'wether', word: 'weather', names: { all: ['weather'] } },
  { label: 'misspelt (q=kuberntes)', q: 'kuberntes', word: 'kubernetes', names: { all: ['kubernetes'] } },
  { label: 'phrase + exclusion', q: '"slack reader" -sync', names: { all: ['slack', 'reader'], none: ['sync'] } },
];

/** Whether skill `name` matches `names` of a query (see QUERIES). */
function nameMatches(name, { all, prefix = false, none = [] }) {
  const parts = name.split('-');
  const has = (w, asPrefix) => parts.some((p) => p === w || (asPrefix && p.startsWith(w)));
  return all.every((w, i) => has(w, prefix && i === all.length - 1)) && !none.some((w) => has(w, false));
}

module.exports = { seedCorpus, corpusSkills, nameMatches, typoQueries, misspell, QUERIES, VOCABULARY };
