/**
 * Publisher tokens over HTTP: a token never outlives the token that made it, revoking a token
 * revokes everything it made (children, grandchildren), and a namespace-bound token sees and
 * revokes only its namespace's tokens, even among its own publisher's.
 */
import { uniqueName } from '@skillhub/testing';
import { startTestHub, type TestHub } from './support/test-hub';

const DAY_MS = 24 * 3600 * 1000;

interface Created {
  id: string;
  token: string;
  namespace: string | null;
  expires_at: string;
}

describe('publisher tokens', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startTestHub();
  });
  afterAll(() => hub?.close());

  const create = (bearer: string, body: object) =>
    hub.http.post('/api/v1/tokens').set('authorization', `Bearer ${bearer}`).send(body);
  const created = async (bearer: string, body: object): Promise<Created> => {
    const res = await create(bearer, body);
    if (res.status !== 201) throw new Error(`token creation: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Created;
  };
  const list = (bearer: string) => hub.http.get('/api/v1/tokens').set('authorization', `Bearer ${bearer}`);
  const revoke = (bearer: string, id: string) =>
    hub.http.delete(`/api/v1/tokens/${id}`).set('authorization', `Bearer ${bearer}`);
  /** Any authenticated route answers 401 for a revoked token. */
  const works = async (token: string) => (await list(token)).status === 200;

  it("caps a child's expiry at its parent's, however long the child asks for", async () => {
    const ns = uniqueName('ttl');
    const parent = await created(hub.adminToken, { namespace: ns, scopes: ['publish', 'tokens'], expires_in_days: 1 });
    const child = await created(parent.token, { namespace: ns, scopes: ['publish', 'tokens'], expires_in_days: 365 });
    const grandchild = await created(child.token, { namespace: ns, expires_in_days: 365 });
    const byDefault = await created(parent.token, { namespace: ns });
    for (const token of [child, grandchild, byDefault]) {
      expect(Date.parse(token.expires_at)).toBe(Date.parse(parent.expires_at));
    }
    expect(Date.parse(parent.expires_at) - Date.now()).toBeLessThanOrEqual(DAY_MS);

    // A parent that lives longer than asked leaves the child's own lifetime alone.
    const long = await created(hub.adminToken, { namespace: ns, scopes: ['publish', 'tokens'], expires_in_days: 365 });
    const short = await created(long.token, { namespace: ns, expires_in_days: 2 });
    expect(Date.parse(short.expires_at) - Date.now()).toBeLessThanOrEqual(2 * DAY_MS);
    expect(Date.parse(short.expires_at) - Date.now()).toBeGreaterThan(2 * DAY_MS - 60_000);
  });

  it('revokes what a token made, transitively, and nothing else', async () => {
    const ns = uniqueName('tree');
    const scopes = ['publish', 'tokens'];
    const root = await created(hub.adminToken, { namespace: ns, scopes, expires_in_days: 1 });
    const child = await created(root.token, { namespace: ns, scopes, expires_in_days: 365 });
    const grandchild = await created(child.token, { namespace: ns, scopes });
    const greatGrandchild = await created(grandchild.token, { namespace: ns });
    const sibling = await created(hub.adminToken, { namespace: ns, scopes });
    const nephew = await created(sibling.token, { namespace: ns });

    // The child revokes its parent (same namespace, `tokens` scope): itself and its line go too.
    expect((await revoke(child.token, root.id)).status).toBe(200);
    for (const token of [root, child, grandchild, greatGrandchild]) {
      const res = await list(token.token);
      expect(res.status).toBe(401);
      expect(res.body.detail).toMatch(/revoked/);
    }
    expect(await works(sibling.token)).toBe(true);
    expect(await works(nephew.token)).toBe(true);

    const all = (await list(hub.adminToken).expect(200)).body as Array<{ id: string; revoked_at: string | null }>;
    const revokedAt = (id: string) => all.find((t) => t.id === id)?.revoked_at;
    for (const token of [root, child, grandchild, greatGrandchild])
      expect(revokedAt(token.id)).toEqual(expect.any(String));
    expect(revokedAt(sibling.id)).toBeNull();
    expect(revokedAt(nephew.id)).toBeNull();

    // A revoked token makes nothing more.
    expect((await create(grandchild.token, { namespace: ns })).status).toBe(401);
  });

  it('a token revoking itself revokes what it made', async () => {
    const ns = uniqueName('self');
    const parent = await created(hub.adminToken, { namespace: ns, scopes: ['publish', 'tokens'] });
    const child = await created(parent.token, { namespace: ns });
    expect((await revoke(parent.token, parent.id)).status).toBe(200);
    expect(await works(child.token)).toBe(false);
  });

  it('leaves no child alive when tokens are made while their parent is revoked', async () => {
    const ns = uniqueName('race');
    const scopes = ['publish', 'tokens'];
    const root = await created(hub.adminToken, { namespace: ns, scopes });
    const child = await created(root.token, { namespace: ns, scopes });
    const attempts = Array.from({ length: 12 }, () => create(child.token, { namespace: ns, scopes }));
    const [revoked, ...made] = await Promise.all([revoke(hub.adminToken, root.id), ...attempts]);
    expect(revoked.status).toBe(200);
    for (const res of made) {
      expect([201, 401]).toContain(res.status);
      if (res.status === 201) expect(await works(res.body.token)).toBe(false);
    }
  });

  it('binds a namespace token to its namespace: it lists and revokes only that namespace’s tokens', async () => {
    const publisher = uniqueName('twons');
    const [a, b] = [uniqueName('nsa'), uniqueName('nsb')];
    const scopes = ['publish', 'tokens'];
    const tokenA = await created(hub.adminToken, { namespace: a, publisher, scopes });
    const otherA = await created(hub.adminToken, { namespace: a, publisher });
    const tokenB = await created(hub.adminToken, { namespace: b, publisher, scopes });
    const wide = await created(hub.adminToken, { publisher, scopes });
    expect([tokenA.namespace, tokenB.namespace, wide.namespace]).toEqual([a, b, null]);

    const seenByA = (await list(tokenA.token).expect(200)).body as Array<{ id: string; namespace: string | null }>;
    expect(seenByA.map((t) => t.id).sort()).toEqual([tokenA.id, otherA.id].sort());
    expect(seenByA.every((t) => t.namespace === a)).toBe(true);

    // B's token and the publisher-wide one are not A's to see or revoke.
    for (const id of [tokenB.id, wide.id]) {
      const res = await revoke(tokenA.token, id);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('TOKEN.NOT_FOUND');
    }
    expect(await works(tokenB.token)).toBe(true);
    expect(await works(wide.token)).toBe(true);
    expect((await create(tokenA.token, { namespace: b })).status).toBe(403);

    // A publisher-wide token sees both namespaces and may revoke in either.
    const seenByWide = (await list(wide.token).expect(200)).body as Array<{ id: string }>;
    expect(seenByWide.map((t) => t.id)).toEqual(expect.arrayContaining([tokenA.id, otherA.id, tokenB.id, wide.id]));
    expect((await revoke(tokenA.token, otherA.id)).status).toBe(200);
    expect((await revoke(wide.token, tokenB.id)).status).toBe(200);
    expect(await works(tokenB.token)).toBe(false);
  });
});
