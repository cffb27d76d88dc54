import { RateLimitedError, WriteRateLimiter } from './write-rate-limiter';

describe('WriteRateLimiter', () => {
  it('allows the limit within a minute, then refuses with the seconds until a slot frees', () => {
    const limiter = new WriteRateLimiter();
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) limiter.consume('token-a', 3, 'publishes', t0 + i * 1000);
    let error: unknown;
    try {
      limiter.consume('token-a', 3, 'publishes', t0 + 10_000);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).details).toEqual({ retry_after: 50 });
    // Other keys are independent, and the window slides.
    expect(() => limiter.consume('token-b', 3, 'publishes', t0 + 10_000)).not.toThrow();
    expect(() => limiter.consume('token-a', 3, 'publishes', t0 + 60_001)).not.toThrow();
  });
});
