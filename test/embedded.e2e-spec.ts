/** The embedded default (PGlite over its socket, one connection) behaves like PostgreSQL for publish and read back. */
import { createHash } from 'node:crypto';
import { agentSkillBundle, kazmaBundle, swarmkitBundle, uniqueName } from '@skillhub/testing';
import { binaryBody } from './support/binary-body';
import { FakeRegistries } from '@skillhub/package-probe/testing';
import { startTestHub, type TestHub } from './support/test-hub';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('embedded database', () => {
  let hub: TestHub;
  let token: string;
  const ns = uniqueName('embedded');

  let registries: FakeRegistries;

  beforeAll(async () => {
    registries = await FakeRegistries.start();
    hub = await startTestHub({
      embedded: true,
      env: { NPM_REGISTRY_URL: registries.baseUrls.npmBaseUrl, PYPI_REGISTRY_URL: registries.baseUrls.pypiBaseUrl },
    });
    token = await hub.token(ns);
  });
  afterAll(async () => {
    await hub.close();
    await registries.close();
  });

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

  it('certifies in-process, and its probe latency and verdicts show in /metrics', async () => {
    const name = uniqueName('probed');
    const bytes = kazmaBundle({
      name,
      author: ns,
      manifest: {
        mcp_servers: [{ name: 'weather', type: 'stdio', command: 'npx', args: ['-y', '@acme/weather-mcp@1.2.3'] }],
      },
    });
    expect((await publish(bytes)).status).toBe(201);
    let status = 'pending';
    for (let i = 0; i < 300 && status === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await hub.http.get(`/api/v1/skills/${ns}/${name}/versions/1.0.0/certification`)).body.status;
    }
    expect(status).not.toBe('pending');
    const metrics = await hub.http.get('/metrics').set('authorization', `Bearer ${hub.adminToken}`).expect(200);
    expect(metrics.text).toMatch(
      /skillhub_package_probe_duration_seconds_count\{registry="npm",outcome="found"\} [1-9]/,
    );
    expect(metrics.text).toMatch(/skillhub_certification_outcomes_total\{status="[a-z]+",level="[a-z]+"\} [1-9]/);
  });
});
