import { AbandonedError } from '@skillhub/errors';
import { AbortableGate } from './abortable-gate';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('AbortableGate', () => {
  it('runs at most its limit at once, the rest in the order they came', async () => {
    const gate = new AbortableGate(2);
    const started: number[] = [];
    const holds = [deferred(), deferred(), deferred(), deferred()];
    const runs = holds.map((hold, i) =>
      gate.run(undefined, async () => {
        started.push(i);
        await hold.promise;
        return i;
      }),
    );
    await new Promise(setImmediate);
    expect(started).toEqual([0, 1]);
    holds[1]!.resolve();
    await new Promise(setImmediate);
    expect(started).toEqual([0, 1, 2]);
    holds.forEach((hold) => hold.resolve());
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it('lets a waiter whose caller went away leave the line without running, and the next take its place', async () => {
    const gate = new AbortableGate(1);
    const hold = deferred();
    const ran: string[] = [];
    const first = gate.run(undefined, async () => {
      ran.push('first');
      await hold.promise;
    });
    const gone = new AbortController();
    const abandoned = gate.run(gone.signal, async () => void ran.push('abandoned'));
    const third = gate.run(undefined, async () => void ran.push('third'));
    gone.abort();
    await expect(abandoned).rejects.toBeInstanceOf(AbandonedError);
    hold.resolve();
    await Promise.all([first, third]);
    expect(ran).toEqual(['first', 'third']);
    // Already gone: nothing starts, and the gate is free for the next.
    await expect(gate.run(gone.signal, async () => void ran.push('late'))).rejects.toBeInstanceOf(AbandonedError);
    expect(await gate.run(undefined, async () => 'free')).toBe('free');
  });
});
