import { Logger } from '@nestjs/common';
import { InProcessJobQueue } from './in-process-job-queue';
import { CLOSE_GRACE_MS, DiscardJobError, type JobEnd, type JobRun, type QueuedJob } from './job-queue';

const job = (subject: string, id = `${subject}.1`): QueuedJob => ({
  id,
  subject,
  queue: 'certification',
  name: 'certify',
  data: { subject },
});

/** A handler whose runs finish when the test says so. */
function gate() {
  const runs: JobRun[] = [];
  const releases: Array<(v: string) => void> = [];
  const handler = (run: JobRun) => {
    runs.push(run);
    return new Promise<string>((resolve) => releases.push(resolve));
  };
  return { runs, handler, release: (i: number) => releases[i]!('certified') };
}

describe('InProcessJobQueue', () => {
  beforeAll(() => Logger.overrideLogger(false)); // retries are logged; the assertions say what happened
  it('takes nothing before a processor consumes, then runs at most `concurrency` jobs at once', async () => {
    const queue = new InProcessJobQueue({ concurrency: 2 });
    expect(queue.room()).toBe(0);
    expect(await queue.add([job('a')])).toEqual([{ outcome: 'returned' }]);

    const { runs, handler, release } = gate();
    queue.consume('certification', handler);
    expect(queue.room()).toBe(2);
    const ends = await queue.add([job('a'), job('b'), job('c')]);
    expect(ends[2]).toEqual({ outcome: 'returned' }); // no slot: it stays in the outbox
    expect(runs.map((r) => r.id)).toEqual(['a.1', 'b.1']);
    expect(queue.room()).toBe(0);
    expect(await queue.hasLiveJob('certification', 'a')).toBe(true);
    expect(await queue.hasLiveJob('certification', 'c')).toBe(false);

    release(0);
    expect(await ends[0]).toEqual({ outcome: 'done' });
    expect(await queue.hasLiveJob('certification', 'a')).toBe(false);
    expect(queue.room()).toBe(1);
    release(1);
    await queue.close();
  });

  it('does not run the same work twice at once: a second job for a running subject is done at once', async () => {
    const queue = new InProcessJobQueue({ concurrency: 4 });
    const { runs, handler, release } = gate();
    queue.consume('certification', handler);
    const [first] = await queue.add([job('a', 'a.1')]);
    const [second] = await queue.add([job('a', 'a.2')]);
    expect(second).toEqual({ outcome: 'done' });
    expect(runs).toHaveLength(1);
    release(0);
    expect(await first).toEqual({ outcome: 'done' });
  });

  it('retries a thrown job with doubling backoff, and fails it for good after its attempts', async () => {
    const queue = new InProcessJobQueue({ concurrency: 1, attempts: 3, backoffMs: 20 });
    const at: number[] = [];
    queue.consume('certification', async (run) => {
      at.push(Date.now());
      throw new Error(`registry down (attempt ${run.attempt})`);
    });
    const [end] = await queue.add([job('a')]);
    expect(await end).toEqual({ outcome: 'failed', error: 'failed 3 times: registry down (attempt 3)' });
    expect(at).toHaveLength(3);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(18);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(38);
  });

  it('succeeds on a later attempt without failing', async () => {
    const queue = new InProcessJobQueue({ concurrency: 1, attempts: 5, backoffMs: 1 });
    let n = 0;
    queue.consume('certification', async () => {
      if (++n < 3) throw new Error('transient');
      return 'certified';
    });
    const [end] = await queue.add([job('a')]);
    expect(await end).toEqual({ outcome: 'done' });
    expect(n).toBe(3);
  });

  it('discards a job nothing can make work, without retrying it', async () => {
    const queue = new InProcessJobQueue({ concurrency: 1, attempts: 5, backoffMs: 1 });
    let n = 0;
    queue.consume('certification', async () => {
      n++;
      throw new DiscardJobError('what it names does not exist');
    });
    const [end] = await queue.add([job('a')]);
    expect(await end).toEqual({ outcome: 'failed', error: 'what it names does not exist' });
    expect(n).toBe(1);
  });

  it('on close, waits for running jobs and hands a job waiting to retry back to the outbox', async () => {
    const queue = new InProcessJobQueue({ concurrency: 2, attempts: 5, backoffMs: 60_000 });
    const { handler, release } = gate();
    queue.consume('certification', (run) =>
      (run.data as { subject: string }).subject === 'flaky' ? Promise.reject(new Error('transient')) : handler(run),
    );
    const [running, flaky] = (await queue.add([job('a'), job('flaky')])) as Array<Promise<JobEnd>>;
    await new Promise((r) => setTimeout(r, 10)); // the flaky one is now waiting out its backoff
    const closed = queue.close();
    let closedYet = false;
    void closed.then(() => (closedYet = true));
    expect(await flaky).toEqual({ outcome: 'returned' });
    await new Promise((r) => setTimeout(r, 10));
    expect(closedYet).toBe(false); // the running job has not ended
    release(0);
    await closed;
    expect(await running).toEqual({ outcome: 'done' });
    expect(queue.room()).toBe(0);
    expect(await queue.add([job('b')])).toEqual([{ outcome: 'returned' }]);
  });

  it('lets go of a job that does not end within the grace, so a shutdown never hangs on it', async () => {
    jest.useFakeTimers();
    try {
      const queue = new InProcessJobQueue({ concurrency: 1 });
      queue.consume('certification', () => new Promise<string>(() => undefined)); // never ends
      await queue.add([job('stuck')]);
      let closed = false;
      void queue.close().then(() => (closed = true));
      await jest.advanceTimersByTimeAsync(CLOSE_GRACE_MS - 1);
      expect(closed).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(closed).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});
