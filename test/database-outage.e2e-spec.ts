/**
 * PostgreSQL stopped and started under a read flood, on a cluster of the test's own (the shared
 * server is never stopped): while it is down every read answers 503 with `Retry-After` and a problem
 * document, never 500; once it is back the same hub serves again, with no restart, and lost nothing.
 */
import { kazmaBundle, uniqueName } from '@skillhub/testing';
import { createPrivatePostgres, type PrivatePostgres } from './support/private-postgres';
import { waitFor } from './support/private-redis';
import { startTestHub, type TestHub } from './support/test-hub';

interface Answer {
  status: number;
  retryAfter: string | undefined;
  type: string | undefined;
  code: unknown;
}

describe('the hub while PostgreSQL stops and starts', () => {
  let pg: PrivatePostgres;
  let hub: TestHub;

  beforeAll(async () => {
    pg = await createPrivatePostgres();
    hub = await startTestHub({ databaseUrl: pg.url });
  });
  afterAll(async () => {
    await pg.start().catch(() => undefined);
    await hub?.close();
    pg?.remove();
  });

  it('answers only 503 with Retry-After during the outage, 0 × 500, and serves again by itself', async () => {
    const ns = uniqueName('outage');
    const token = await hub.token(ns);
    const published = await hub.http
      .post('/api/v1/skills')
      .set('authorization', `Bearer ${token}`)
      .set('content-type', 'application/gzip')
      .send(kazmaBundle({ author: ns, name: 'weather' }));
    expect(published.status).toBe(201);

    const reads = [
      `/api/v1/skills/${ns}/weather`,
      '/api/v1/skills/search?q=weather',
      `/api/v1/skills?author=${ns}`,
      `/skills/${ns}/weather`,
    ];
    const answers: Answer[] = [];
    let flooding = true;
    const client = async (offset: number) => {
      for (let i = offset; flooding; i++) {
        const res = await hub.http.get(reads[i % reads.length]!);
        answers.push({
          status: res.status,
          retryAfter: res.headers['retry-after'],
          type: res.headers['content-type'],
          code: res.body?.code,
        });
      }
    };
    const clients = Array.from({ length: 8 }, (_, i) => client(i));
    const answered = (status: number) => answers.filter((answer) => answer.status === status).length;

    await waitFor(async () => answered(200) >= 20, 60_000, 'reads before the outage');
    await pg.stop();
    const before = answers.length;
    await waitFor(async () => answers.slice(before).filter((a) => a.status === 503).length >= 40, 60_000, '503s');
    await pg.start();
    const restarted = answers.length;
    await waitFor(
      async () => answers.slice(restarted).filter((a) => a.status === 200).length >= 20,
      60_000,
      'reads after the restart',
    );
    flooding = false;
    await Promise.all(clients);

    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 503)).toEqual([]);
    const unavailable = answers.filter((answer) => answer.status === 503);
    for (const answer of unavailable) {
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      // The API answers a problem document; the pages an HTML page with the same status.
      if (answer.type?.startsWith('application/problem+json')) expect(answer.code).toBe('DATABASE.UNAVAILABLE');
      else expect(answer.type).toMatch(/^text\/html/);
    }

    const ready = await hub.http.get('/api/v1/health/ready');
    expect(ready.status).toBe(200);
    const info = await hub.http.get(`/api/v1/skills/${ns}/weather`);
    expect(info.status).toBe(200);
    expect(info.body.versions ?? info.body.latest_version ?? info.body).toBeTruthy();
  });
});
