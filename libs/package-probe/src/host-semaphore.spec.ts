import { HostSemaphore } from './host-semaphore';

/** A task that stays in flight until the test releases it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('HostSemaphore', () => {
  it('runs at most `limit` tasks per host, in arrival order', async () => {
    const semaphore = new HostSemaphore(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, index) =>
      semaphore.run('https://registry.npmjs.org', async () => {
        started.push(index);
        await g.promise;
      }),
    );

    await flush();
    expect(started).toEqual([0, 1]);
    gates[1]?.open();
    await flush();
    expect(started).toEqual([0, 1, 2]);
    gates.forEach((g) => g.open());
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2, 3]);
  });

  it('keeps hosts apart', async () => {
    const semaphore = new HostSemaphore(1);
    const npm = gate();
    const started: string[] = [];

    const first = semaphore.run('https://registry.npmjs.org', async () => {
      started.push('npm');
      await npm.promise;
    });
    const second = semaphore.run('https://pypi.org', async () => {
      started.push('pypi');
    });

    await second;
    expect(started).toEqual(['npm', 'pypi']);
    npm.open();
    await first;
  });

  it('frees the slot when a task fails', async () => {
    const semaphore = new HostSemaphore(1);

    await expect(semaphore.run('h', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(semaphore.run('h', async () => 'next')).resolves.toBe('next');
  });
});
