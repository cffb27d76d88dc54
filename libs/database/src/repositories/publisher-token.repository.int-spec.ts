/** Tokens on real PostgreSQL: found by hash, listed by who may see them, revoked with everything they made. */
import { randomBytes } from 'node:crypto';
import { PublisherToken } from '../entities/publisher-token.entity';
import { NamespaceRepository } from './namespace.repository';
import { PublisherTokenRepository } from './publisher-token.repository';
import { openTestDatabase, uniqueSlug, type OpenDatabase } from '../testing/database-fixtures';

describe('PublisherTokenRepository', () => {
  let db: OpenDatabase;
  let tokens: PublisherTokenRepository;
  let namespaces: NamespaceRepository;
  beforeAll(async () => {
    db = await openTestDatabase();
    tokens = new PublisherTokenRepository(db.ds);
    namespaces = new NamespaceRepository(db.ds);
  });
  afterAll(() => db.close());

  const token = (publisherId: string, o: { parentId?: string; namespaceId?: string } = {}) =>
    db.ds.transaction((m) =>
      tokens.add(m, {
        publisherId,
        name: 'a token',
        prefix: 'shp_abcd',
        tokenHash: randomBytes(32).toString('hex'),
        scopes: ['publish', 'tokens'],
        namespaceId: o.namespaceId ?? null,
        parentId: o.parentId ?? null,
        expiresAt: null,
      }),
    );

  it('finds a token by the hash of its secret, and notes its use', async () => {
    const publisher = await db.ds.transaction((m) => namespaces.publisherNamed(m, uniqueSlug('p')));
    const made = await token(publisher.id);
    expect((await tokens.byHash(made.tokenHash))?.id).toBe(made.id);
    expect(await tokens.byHash('0'.repeat(64))).toBeNull();
    const at = new Date('2025-06-01T12:00:00Z');
    await tokens.touch(made.id, at);
    expect((await tokens.byHash(made.tokenHash))?.lastUsedAt).toEqual(at);
  });

  it('loads a token with its publisher and bound namespace', async () => {
    const publisher = await db.ds.transaction((m) => namespaces.publisherNamed(m, uniqueSlug('p')));
    const ns = await db.ds.transaction((m) => namespaces.claim(m, uniqueSlug(), publisher.id));
    const made = await token(publisher.id, { namespaceId: ns.id });
    const loaded = await tokens.withOwner(made.id);
    expect(loaded?.publisher?.name).toBe(publisher.name);
    expect(loaded?.namespace?.slug).toBe(ns.slug);
    expect(await tokens.withOwner('00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it("lists every token, a publisher's, or one namespace's of a publisher, newest first", async () => {
    const publisher = await db.ds.transaction((m) => namespaces.publisherNamed(m, uniqueSlug('p')));
    const ns = await db.ds.transaction((m) => namespaces.claim(m, uniqueSlug(), publisher.id));
    const wide = await token(publisher.id);
    const bound = await token(publisher.id, { namespaceId: ns.id });
    const mine = await tokens.list({ publisherId: publisher.id, namespaceId: null });
    expect(mine.map((t) => t.id)).toEqual([bound.id, wide.id]);
    expect(mine[0]?.namespace?.slug).toBe(ns.slug);
    expect(mine[0]?.publisher?.name).toBe(publisher.name);
    expect((await tokens.list({ publisherId: publisher.id, namespaceId: ns.id })).map((t) => t.id)).toEqual([bound.id]);
    expect((await tokens.list(null)).map((t) => t.id)).toEqual(expect.arrayContaining([wide.id, bound.id]));
  });

  it('revokes a token and its descendants, keeping the time of one revoked before', async () => {
    const publisher = await db.ds.transaction((m) => namespaces.publisherNamed(m, uniqueSlug('p')));
    const root = await token(publisher.id);
    const child = await token(publisher.id, { parentId: root.id });
    const grandchild = await token(publisher.id, { parentId: child.id });
    const sibling = await token(publisher.id, { parentId: root.id });
    const unrelated = await token(publisher.id);
    const earlier = new Date('2025-01-01T00:00:00Z');
    await db.ds.transaction((m) => tokens.revokeWithDescendants(m, sibling.id, earlier));
    const now = new Date('2025-06-01T00:00:00Z');
    await db.ds.transaction((m) => tokens.revokeWithDescendants(m, root.id, now));
    const revokedAt = async (id: string) => (await db.ds.manager.findOneByOrFail(PublisherToken, { id })).revokedAt;
    expect(await Promise.all([root, child, grandchild, sibling, unrelated].map((t) => revokedAt(t.id)))).toEqual([
      now,
      now,
      now,
      earlier,
      null,
    ]);
  });

  it('makes a revocation wait for a transaction that holds the token share-locked', async () => {
    const publisher = await db.ds.transaction((m) => namespaces.publisherNamed(m, uniqueSlug('p')));
    const parent = await token(publisher.id);
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const creating = db.ds.transaction(async (m) => {
      await tokens.shareLock(m, parent.id);
      order.push('locked');
      await held;
      order.push('created');
    });
    while (!order.length) await new Promise((r) => setTimeout(r, 5));
    const revoking = db.ds.transaction(async (m) => {
      await tokens.lockForRevoke(m, parent.id);
      order.push('revoking');
    });
    await new Promise((r) => setTimeout(r, 100));
    release();
    await Promise.all([creating, revoking]);
    expect(order).toEqual(['locked', 'created', 'revoking']);
  });
});
