import { MAX_RETRIES, MAX_RETRY_DELAY_MS, readCallPolicy, retryDelayMs } from './call-policy';

describe('readCallPolicy', () => {
  it('takes the runtime’s timeout, no retry and fail when the skill sets nothing', () => {
    expect(readCallPolicy(undefined, 60_000)).toEqual({
      timeoutMs: 60_000,
      timeoutFromSkill: false,
      retries: 0,
      backoff: 'exponential',
      onFailure: 'fail',
    });
  });

  it('reads SwarmKit’s constraints', () => {
    expect(
      readCallPolicy(
        { timeout_seconds: 1, retry: { attempts: 2, backoff: 'linear' }, on_failure: 'escalate_to_human' },
        60_000,
      ),
    ).toEqual({
      timeoutMs: 1_000,
      timeoutFromSkill: true,
      retries: 2,
      backoff: 'linear',
      onFailure: 'escalate_to_human',
    });
  });

  it('tries once more for on_failure: retry without retry.attempts, and caps what a manifest can ask', () => {
    expect(readCallPolicy({ on_failure: 'retry' }, 60_000).retries).toBe(1);
    expect(readCallPolicy({ on_failure: 'retry', retry: { attempts: 3 } }, 60_000).retries).toBe(3);
    expect(readCallPolicy({ retry: { attempts: 1_000 } }, 60_000).retries).toBe(MAX_RETRIES);
    expect(readCallPolicy({ timeout_seconds: 10_000_000 }, 60_000).timeoutMs).toBe(3_600_000);
  });

  it('falls back to the defaults on what it cannot read', () => {
    expect(
      readCallPolicy({ timeout_seconds: 0.5, retry: { attempts: -2, backoff: 'wild' }, on_failure: 'panic' }, 5_000),
    ).toEqual({ timeoutMs: 5_000, timeoutFromSkill: false, retries: 0, backoff: 'exponential', onFailure: 'fail' });
    expect(readCallPolicy('fast', 5_000).timeoutMs).toBe(5_000);
  });
});

describe('retryDelayMs', () => {
  it.each([
    ['exponential', [1_000, 2_000, 4_000, 8_000]],
    ['linear', [1_000, 2_000, 3_000, 4_000]],
    ['none', [0, 0, 0, 0]],
  ] as const)('%s backoff waits %j before retries 1 to 4', (backoff, delays) => {
    expect([1, 2, 3, 4].map((retry) => retryDelayMs({ backoff }, retry))).toEqual(delays);
  });

  it('never waits longer than the cap', () => {
    expect(retryDelayMs({ backoff: 'exponential' }, 10)).toBe(MAX_RETRY_DELAY_MS);
  });
});
