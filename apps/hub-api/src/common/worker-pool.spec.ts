import { threadId } from 'node:worker_threads';
import { PoolBusyError, TaskTimeoutError, WorkerPool } from './worker-pool';

const TASKS = require.resolve('./testing/pool-tasks');

describe('WorkerPool', () => {
  let pool: WorkerPool;
  afterEach(() => pool?.destroy());

  it('runs a task on another thread than the event loop', async () => {
    pool = new WorkerPool({ module: TASKS, threads: 1, timeoutMs: 30_000 });
    const ran = await pool.run<void, number>('whereAmI', undefined);
    expect(ran).not.toBe(threadId);
  });

  it('keeps the event loop free while a task holds its thread', async () => {
    pool = new WorkerPool({ module: TASKS, threads: 1, timeoutMs: 30_000 });
    await pool.run('whereAmI', undefined); // the thread has loaded its module
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    await pool.run('spin', 500);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(20);
  });

  it('stops a task past its budget, and goes on with the next', async () => {
    // A budget that leaves room for the replacement thread to load its module on a busy machine.
    pool = new WorkerPool({ module: TASKS, threads: 1, timeoutMs: 2_000 });
    await expect(pool.run('spin', 20_000)).rejects.toBeInstanceOf(TaskTimeoutError);
    await expect(pool.run('spin', 10)).resolves.toEqual(expect.any(Number));
  });

  it('starts the budget when a thread takes the task, not while it waits', async () => {
    pool = new WorkerPool({ module: TASKS, threads: 1, timeoutMs: 2_000 });
    await pool.run('whereAmI', undefined);
    // Three tasks of 900 ms on one thread: the last waits 1.8 s, longer than a budget it keeps.
    const runs = [900, 900, 900].map((ms) => pool.run('spin', ms));
    await expect(Promise.all(runs)).resolves.toHaveLength(3);
  });

  it('answers busy once its queue is full', async () => {
    pool = new WorkerPool({ module: TASKS, threads: 1, timeoutMs: 30_000 });
    const queued = Array.from({ length: 1 + 64 }, () => pool.run('spin', 20));
    await expect(pool.run('spin', 1)).rejects.toBeInstanceOf(PoolBusyError);
    await Promise.all(queued);
    await expect(pool.run('spin', 1)).resolves.toEqual(expect.any(Number));
  });
});
