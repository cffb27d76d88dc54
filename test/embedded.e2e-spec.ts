/** The embedded default (PGlite over its socket, one connection) behaves like PostgreSQL for publish and read back. */
import { createHash } from 'node:crypto';
import { agentSkillBundle, kazmaBundle, swarmkitBundle, uniqueName } from '@skillhub/testing';
import { binaryBody } from './support/binary-body';
import { startTestHub, type TestHub } from './support/test-hub';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('embedded database', () => {
  let hub: TestHub;
  let token: string;
  const ns = uniqueName('embedded');

  beforeAll(async () => {
    hub = await startTestHub({ embedded: true });
    token = await hub.token(ns);
  });
  afterAll(() => hub.close());

  const publish = (bytes: Buffer, query = '') =>
    hub.http
      .post(`/api/v1/skills${query}`)
      .set('authorization', `Bearer ${token}`)
      .set('content-type', 'application/gzip')
      .send(bytes);

  it('publishes every format and gives the same bytes back', async () => {
    const bundles: Array<[Buffer, string, string]> = [
      [kazmaBundle({ author: ns }), '', '1.0.0'],
      [swarmkitBundle(), '', '1.0.0'],
      [agentSkillBundle(), '?version=0.3.0', '0.3.0'],
    ];
    for (const [bytes, query, version] of bundles) {
      const res = await publish(bytes, query);
      expect(res.status).toBe(201);
      expect(res.body.version).toBe(version);
      const download = await hub.http
        .get(`/api/v1/skills/${ns}/${res.body.name}/versions/${version}/bundle`)
        .buffer(true)
        .parse(binaryBody);
      expect(sha256(download.body as Buffer)).toBe(sha256(bytes));
    }
  });

  it('serialises concurrent publishes over its single connection: one 201, the rest 409', async () => {
    const name = uniqueName('race');
    const statuses = (
      await Promise.all(
        Array.from({ length: 8 }, (_, i) => publish(kazmaBundle({ name, author: ns, code: `print(${i})\n` }))),
      )
    )
      .map((r) => r.status)
      .sort();
    expect(statuses).toEqual([201, ...Array(7).fill(409)]);
  });

  it('reports itself as embedded in readiness', async () => {
    const ready = await hub.http.get('/api/v1/health/ready').expect(200);
    expect(ready.body).toMatchObject({ mode: 'embedded', database: { status: 'up' } });
  });
});
