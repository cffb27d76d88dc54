import { backoffDelayMs, parseRetryAfterMs } from './http-retry';

describe('backoffDelayMs', () => {
  const policy = { maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 1_000 };

  it('draws uniformly below base · 2^retry (full jitter)', () => {
    expect([0, 1, 2, 3].map((retry) => backoffDelayMs(retry, policy, () => 0.999))).toEqual([
      99.9, 199.8, 399.6, 799.2,
    ]);
    expect(backoffDelayMs(3, policy, () => 0)).toBe(0);
  });

  it('caps the ceiling at maxDelayMs', () => {
    expect(backoffDelayMs(4, policy, () => 0.5)).toBe(500);
    expect(backoffDelayMs(40, policy, () => 0.5)).toBe(500);
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2025-10-21T07:28:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfterMs('120', now)).toBe(120_000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date, and a past one as 0', () => {
    expect(parseRetryAfterMs('Tue, 21 Oct 2025 07:28:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterMs('Tue, 21 Oct 2025 07:00:00 GMT', now)).toBe(0);
  });

  it.each([null, '', '-5', '1.5', 'soon'])('ignores %p', (header) => {
    expect(parseRetryAfterMs(header, now)).toBeNull();
  });
});
