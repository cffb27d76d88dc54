import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeFailure } from './http-attempt';
import { backoffDelayMs, describeStop, retry, type RetryPolicy } from './retry';

describe('backoffDelayMs', () => {
  const limits = { baseDelayMs: 100, maxDelayMs: 1_000 };

  it('draws uniformly below base · 2^retry (full jitter)', () => {
    expect([0, 1, 2, 3].map((n) => backoffDelayMs(n, limits, () => 0.999))).toEqual([99.9, 199.8, 399.6, 799.2]);
    expect(backoffDelayMs(3, limits, () => 0)).toBe(0);
  });

  it('caps the ceiling at maxDelayMs', () => {
    expect(backoffDelayMs(4, limits, () => 0.5)).toBe(500);
    expect(backoffDelayMs(40, limits, () => 0.5)).toBe(500);
  });
});

type Outcome = { ok: true } | { ok: false; retryAfterMs?: number };
const OK: Outcome = { ok: true };
const BUSY: Outcome = { ok: false };

/** Runs `retry` over scripted outcomes on a clock that only the recorded waits move. */
async function scripted(outcomes: Outcome[], limits: Partial<RetryPolicy<Outcome>> = {}) {
  let clock = 0;
  const waits: number[] = [];
  const end = await retry(async () => outcomes.shift() ?? BUSY, {
    maxAttempts: 4,
    baseDelayMs: 100,
    maxDelayMs: 1_000,
    retryable: (outcome) => !outcome.ok,
    retryAfterMs: (outcome) => (outcome.ok ? null : (outcome.retryAfterMs ?? null)),
    now: () => clock,
    sleep: async (ms) => {
      waits.push(ms);
      clock += ms;
    },
    random: () => 0.5,
    ...limits,
  });
  return { end, waits };
}

describe('retry', () => {
  it('tries again after each jittered backoff until an outcome is final', async () => {
    const { end, waits } = await scripted([BUSY, BUSY, OK]);

    expect(end).toEqual({ outcome: OK, attempts: 3, stop: { kind: 'final' } });
    expect(waits).toEqual([50, 100]);
  });

  it('gives up after maxAttempts with the last outcome, and waits not after the last', async () => {
    const { end, waits } = await scripted([], { maxAttempts: 3 });

    expect(end).toEqual({ outcome: BUSY, attempts: 3, stop: { kind: 'attempts' } });
    expect(waits).toEqual([50, 100]);
    expect(describeStop(end)).toBe('gave up after 3 attempts');
  });

  it('makes one attempt whatever maxAttempts says', async () => {
    const { end } = await scripted([], { maxAttempts: 0 });

    expect(end.attempts).toBe(1);
  });

  it('waits exactly what Retry-After asks when it is within maxDelayMs, even above the backoff', async () => {
    const { end, waits } = await scripted([{ ok: false, retryAfterMs: 800 }, { ok: false, retryAfterMs: 0 }, OK]);

    expect(end.stop).toEqual({ kind: 'final' });
    expect(waits).toEqual([800, 0]);
  });

  it('stops at once when Retry-After asks for more than maxDelayMs, never coming back early', async () => {
    const { end, waits } = await scripted([{ ok: false, retryAfterMs: 3_600_000 }, OK]);

    expect(end).toMatchObject({ attempts: 1, stop: { kind: 'retry_after', waitMs: 3_600_000, maxDelayMs: 1_000 } });
    expect(waits).toEqual([]);
    expect(describeStop(end)).toBe('asked to wait 3600 s, more than the 1 s allowed');
  });

  it('never begins a wait that would end past the deadline', async () => {
    const { end, waits } = await scripted([], {
      maxAttempts: 10,
      baseDelayMs: 400,
      random: () => 0.999,
      deadlineMs: 1_000,
    });

    // 399.6 fits; 399.6 + 799.2 would pass 1 000.
    expect(waits).toEqual([399.6]);
    expect(end).toMatchObject({ attempts: 2, stop: { kind: 'deadline', deadlineMs: 1_000 } });
    expect(describeStop(end)).toBe('gave up after 2 attempts, at the 1 s deadline');
  });

  it('does not honour a Retry-After that fits maxDelayMs but not the deadline', async () => {
    const { end, waits } = await scripted([{ ok: false, retryAfterMs: 900 }, OK], { deadlineMs: 500 });

    expect(waits).toEqual([]);
    expect(end.stop.kind).toBe('deadline');
  });

  it('lets what an attempt throws end the retries', async () => {
    let attempts = 0;
    const failing = retry(
      async () => {
        attempts++;
        throw new Error('not a transient failure');
      },
      { maxAttempts: 3, baseDelayMs: 0, maxDelayMs: 0, retryable: () => true },
    );

    await expect(failing).rejects.toThrow('not a transient failure');
    expect(attempts).toBe(1);
  });

  it('says nothing about a final outcome', async () => {
    const { end } = await scripted([OK]);

    expect(describeStop(end)).toBeNull();
  });
});

describe('retry over real requests', () => {
  let server: Server;
  let url: string;
  /** How long the server holds each answer back. */
  let answerAfterMs = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      setTimeout(() => res.end('fine'), answerAfterMs).unref();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  type Answer = { ok: true } | { ok: false; reason: string };
  const get = async (signal: AbortSignal): Promise<Answer> => {
    try {
      await (await fetch(url, { signal })).text();
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: describeFailure({ error }) };
    }
  };
  const policy = (limits: Partial<RetryPolicy<Answer>>): RetryPolicy<Answer> => ({
    maxAttempts: 2,
    baseDelayMs: 0,
    maxDelayMs: 0,
    retryable: (answer) => !answer.ok,
    ...limits,
  });

  it('aborts an attempt that runs past attemptTimeoutMs, and says how long it had', async () => {
    answerAfterMs = 5_000;
    const end = await retry((attempt) => get(attempt.signal()), policy({ attemptTimeoutMs: 30 }));

    expect(end).toEqual({
      outcome: { ok: false, reason: 'timed out after 30 ms' },
      attempts: 2,
      stop: { kind: 'attempts' },
    });
  });

  it("starts an attempt's clock when it asks for its signal, not while it waits its turn", async () => {
    answerAfterMs = 0;
    const end = await retry(
      async (attempt) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return get(attempt.signal());
      },
      policy({ attemptTimeoutMs: 250, maxAttempts: 1 }),
    );

    expect(end.outcome).toEqual({ ok: true });
  });

  it('cuts an attempt under way at the deadline', async () => {
    answerAfterMs = 5_000;
    const end = await retry((attempt) => get(attempt.signal()), policy({ attemptTimeoutMs: 10_000, deadlineMs: 50 }));

    expect(end.outcome).toEqual({
      ok: false,
      reason: expect.stringMatching(/^timed out after \d+ ms \(the deadline\)$/),
    });
    expect(end).toMatchObject({ attempts: 1, stop: { kind: 'deadline' } });
  });

  it('stops when the caller aborts during an attempt', async () => {
    answerAfterMs = 5_000;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const end = await retry((attempt) => get(attempt.signal()), policy({ signal: controller.signal, maxAttempts: 5 }));

    expect(end).toEqual({ outcome: { ok: false, reason: 'cancelled' }, attempts: 1, stop: { kind: 'aborted' } });
    expect(describeStop(end)).toBe('cancelled after 1 attempt');
  });

  it('ends a wait early when the caller aborts, and starts no further attempt', async () => {
    const controller = new AbortController();
    let attempts = 0;
    const started = Date.now();
    setTimeout(() => controller.abort(), 30);
    const end = await retry(
      async () => {
        attempts++;
        return { ok: false, reason: 'busy' } as Answer;
      },
      policy({
        signal: controller.signal,
        maxAttempts: 5,
        baseDelayMs: 60_000,
        maxDelayMs: 60_000,
        random: () => 0.99,
      }),
    );

    expect(end.stop).toEqual({ kind: 'aborted' });
    expect(attempts).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
