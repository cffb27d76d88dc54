/** Kazma's unauthenticated `hub submit` is rate-limited per client address. */
import { kazmaManifest, uniqueName } from '@skillhub/testing';
import { startTestHub, type TestHub } from './support/test-hub';

describe('Kazma submit rate limit', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startTestHub({ env: { SUBMIT_RATE_LIMIT_PER_HOUR: '3' } });
  });
  afterAll(() => hub.close());

  it('accepts the limit, then answers 429 with Retry-After and stores nothing more', async () => {
    const submit = () => hub.http.post('/api/v1/skills/submit').send({ manifest: kazmaManifest({ author: uniqueName('ns') }) });
    const first = await Promise.all([submit(), submit(), submit(), submit(), submit()]);
    expect(first.map((r) => r.status).sort()).toEqual([201, 201, 201, 429, 429]);
    const limited = first.find((r) => r.status === 429)!;
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expect(limited.body).toMatchObject({ code: 'SUBMISSION.RATE_LIMITED', status: 429 });
    expect((await hub.counts()).submissions).toBe(3);
  });
});
