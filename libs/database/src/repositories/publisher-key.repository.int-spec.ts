/** Publisher keys on real PostgreSQL: registered per namespace, counted while active, removed once and kept. */
import { NamespaceRepository } from './namespace.repository';
import { PublisherKeyRepository } from './publisher-key.repository';
import { openTestDatabase, uniqueSlug, type OpenDatabase } from '../testing/database-fixtures';

describe('PublisherKeyRepository', () => {
  let db: OpenDatabase;
  let keys: PublisherKeyRepository;
  let namespaceId: string;
  beforeAll(async () => {
    db = await openTestDatabase();
    keys = new PublisherKeyRepository(db.ds);
    const namespaces = new NamespaceRepository(db.ds);
    const owner = await db.ds.transaction((m) => namespaces.publisherNamed(m, uniqueSlug('owner')));
    namespaceId = (await db.ds.transaction((m) => namespaces.claim(m, uniqueSlug(), owner.id))).id;
  });
  afterAll(() => db.close());

  const add = (keyId: string) =>
    db.ds.transaction((m) =>
      keys.add(m, { namespaceId, keyId, publicKeyPem: `pem of ${keyId}`, name: keyId.slice(0, 4) }),
    );

  it('registers keys, finds them by key id, and lists them oldest first', async () => {
    const first = await add('a'.repeat(64));
    const second = await add('b'.repeat(64));
    expect((await keys.find(db.ds.manager, namespaceId, 'b'.repeat(64)))?.id).toBe(second.id);
    expect(await keys.find(db.ds.manager, namespaceId, 'c'.repeat(64))).toBeNull();
    expect((await keys.ofNamespace(namespaceId)).map((k) => k.id)).toEqual([first.id, second.id]);
    await expect(add('a'.repeat(64))).rejects.toThrow(/publisher_keys_namespace_key_id_key/);
  });

  it('counts only active keys, and a removed key keeps the time it was first removed', async () => {
    const key = await add('d'.repeat(64));
    const active = await keys.countActive(db.ds.manager, namespaceId);
    const removed = await db.ds.transaction((m) => keys.remove(m, key));
    expect(removed.removedAt).toBeInstanceOf(Date);
    expect(await keys.countActive(db.ds.manager, namespaceId)).toBe(active - 1);
    const again = await db.ds.transaction(async (m) => keys.remove(m, (await keys.find(m, namespaceId, key.keyId))!));
    expect(again.removedAt).toEqual(removed.removedAt);
    expect((await keys.ofNamespace(namespaceId)).find((k) => k.id === key.id)?.removedAt).toEqual(removed.removedAt);
  });
});
