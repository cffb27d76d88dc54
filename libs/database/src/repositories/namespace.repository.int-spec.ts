/** Namespaces and publishers on real PostgreSQL: one owner however many claim at once, the secret selected only when asked. */
import { NamespaceRepository } from './namespace.repository';
import { openTestDatabase, uniqueSlug, type OpenDatabase } from '../testing/database-fixtures';

describe('NamespaceRepository', () => {
  let db: OpenDatabase;
  let namespaces: NamespaceRepository;
  beforeAll(async () => {
    db = await openTestDatabase(8);
    namespaces = new NamespaceRepository(db.ds);
  });
  afterAll(() => db.close());

  it('gives a slug to the first of concurrent claimants; the others get that namespace back', async () => {
    const slug = uniqueSlug();
    const publishers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => db.ds.transaction((m) => namespaces.publisherNamed(m, `${slug}-${i}`))),
    );
    const claimed = await Promise.all(publishers.map((p) => db.ds.transaction((m) => namespaces.claim(m, slug, p.id))));
    expect(new Set(claimed.map((n) => n.id)).size).toBe(1);
    expect(new Set(claimed.map((n) => n.ownerId)).size).toBe(1);
    expect(publishers.map((p) => p.id)).toContain(claimed[0]!.ownerId);
    expect(await namespaces.exists(slug)).toBe(true);
    expect(await namespaces.exists(uniqueSlug())).toBe(false);
  });

  it('makes a publisher once per name, and loads a namespace with its owner', async () => {
    const name = uniqueSlug('publisher');
    const [a, b] = await Promise.all([
      db.ds.transaction((m) => namespaces.publisherNamed(m, name)),
      db.ds.transaction((m) => namespaces.publisherNamed(m, name)),
    ]);
    expect(a!.id).toBe(b!.id);
    const slug = uniqueSlug();
    await db.ds.transaction((m) => namespaces.claim(m, slug, a!.id));
    const withOwner = await namespaces.withOwner(db.ds.manager, slug);
    expect(withOwner?.owner?.name).toBe(name);
    expect((await namespaces.publisherById(db.ds.manager, a!.id)).name).toBe(name);
  });

  it('selects the sealed Kazma secret only when asked for it', async () => {
    const slug = uniqueSlug();
    const owner = await db.ds.transaction((m) => namespaces.publisherNamed(m, `${slug} owner`));
    const ns = await db.ds.transaction((m) => namespaces.claim(m, slug, owner.id));
    await db.ds.transaction((m) => namespaces.setSecret(m, ns.id, 'v1.sealed'));
    expect((await namespaces.bySlug(slug))?.kazmaSecretSealed).toBeUndefined();
    expect((await namespaces.byId(ns.id))?.kazmaSecretSealed).toBeUndefined();
    expect((await namespaces.withSecret(ns.id)).kazmaSecretSealed).toBe('v1.sealed');
    await db.ds.transaction((m) => namespaces.setSecret(m, ns.id, null));
    expect((await namespaces.withSecret(ns.id)).kazmaSecretSealed).toBeNull();
  });

  it("lists an owner's namespaces in order, with whether each has a secret, never the secret", async () => {
    const slug = uniqueSlug();
    const owner = await db.ds.transaction((m) => namespaces.publisherNamed(m, `${slug} owner`));
    const other = await db.ds.transaction((m) => namespaces.publisherNamed(m, `${slug} other`));
    const [b, a] = await db.ds.transaction((m) =>
      Promise.all([namespaces.claim(m, `${slug}-b`, owner.id), namespaces.claim(m, `${slug}-a`, owner.id)]),
    );
    await db.ds.transaction((m) => namespaces.claim(m, `${slug}-c`, other.id));
    await db.ds.transaction((m) => namespaces.setSecret(m, b!.id, 'v1.sealed'));

    expect(await namespaces.ownedBy(owner.id, { onlyId: null, limit: 10 })).toEqual([
      { slug: `${slug}-a`, hasKazmaSecret: false },
      { slug: `${slug}-b`, hasKazmaSecret: true },
    ]);
    expect(await namespaces.ownedBy(owner.id, { onlyId: null, limit: 1 })).toHaveLength(1);
    expect(await namespaces.ownedBy(owner.id, { onlyId: b!.id, limit: 10 })).toEqual([
      { slug: `${slug}-b`, hasKazmaSecret: true },
    ]);
    expect(await namespaces.ownedBy(other.id, { onlyId: a!.id, limit: 10 })).toEqual([]);
  });

  it('holds a locked namespace until the locking transaction ends', async () => {
    const slug = uniqueSlug();
    const owner = await db.ds.transaction((m) => namespaces.publisherNamed(m, `${slug} owner`));
    await db.ds.transaction((m) => namespaces.claim(m, slug, owner.id));
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const first = db.ds.transaction(async (m) => {
      await namespaces.bySlug(slug, m, true);
      order.push('first locked');
      await held;
      order.push('first done');
    });
    while (!order.length) await new Promise((r) => setTimeout(r, 5));
    const second = db.ds.transaction(async (m) => {
      await namespaces.bySlug(slug, m, true);
      order.push('second locked');
    });
    await new Promise((r) => setTimeout(r, 100));
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first locked', 'first done', 'second locked']);
  });
});
