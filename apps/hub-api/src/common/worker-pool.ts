/**
 * A pool of worker threads (piscina) for CPU-bound work on what clients send, so that no request
 * holds hub-api's event loop. Tasks wait in a bounded queue of the pool's own, so that a task's
 * time budget starts when a thread takes it (a task waiting behind others is not the one at fault);
 * past the budget, or with the queue full, the caller gets a domain error, never a stalled loop.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import Piscina from 'piscina';
import { DomainError } from '@skillhub/errors';

/** Tasks waiting per thread before the pool answers "busy". */
const QUEUE_PER_THREAD = 64;

export class PoolBusyError extends DomainError {
  constructor(retryAfterSeconds: number) {
    super('unavailable', 'REQUEST.BUSY', 'The hub is busy reading other uploads; try again shortly.', [], {
      retry_after: retryAfterSeconds,
    });
  }
}

/** The task ran past its time budget; its worker was stopped. */
export class TaskTimeoutError extends Error {
  constructor(readonly budgetMs: number) {
    super(`task ran past ${budgetMs} ms`);
  }
}

export interface WorkerPoolOptions {
  /** The module whose named exports are the tasks, as `require.resolve` gives it (`.js` built, `.ts` from source). */
  module: string;
  threads?: number;
  timeoutMs: number;
}

/** Threads by default: one per core beyond the one the event loop runs on, at least one. */
export const defaultThreads = (): number => Math.max(1, availableParallelism() - 1);

export class WorkerPool {
  private readonly pool: Piscina;
  private readonly threads: number;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: WorkerPoolOptions) {
    this.threads = options.threads ?? defaultThreads();
    // From source (the tests) a worker cannot load TypeScript by itself: a small entry compiles it.
    const fromSource = options.module.endsWith('.ts');
    this.pool = new Piscina({
      filename: fromSource ? join(__dirname, 'typescript-worker.js') : options.module,
      workerData: fromSource ? { typescriptModule: options.module } : undefined,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
    });
  }

  /** Runs the export `name` of the module on `task`; a task past its budget rejects with TaskTimeoutError. */
  async run<T, R>(name: string, task: T): Promise<R> {
    await this.takeThread();
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      return (await this.pool.run(task, { name, signal })) as R;
    } catch (error) {
      if (signal.aborted) throw new TaskTimeoutError(this.options.timeoutMs);
      throw error;
    } finally {
      this.releaseThread();
    }
  }

  destroy(): Promise<void> {
    return this.pool.destroy();
  }

  private async takeThread(): Promise<void> {
    if (this.running < this.threads) {
      this.running++;
      return;
    }
    if (this.waiting.length >= this.threads * QUEUE_PER_THREAD) throw new PoolBusyError(1);
    // The thread is handed over by releaseThread, never counted free in between.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private releaseThread(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
