/**
 * At most `limit` tasks at once; the others wait their turn, and one whose caller goes away (its
 * signal aborts) leaves the line at once, having cost nothing. In front of the database pool for
 * searches: the pool's own queue keeps a waiter whose client has left and hands it a connection all
 * the same, so a burst of abandoned searches would each still open a transaction.
 *
 * The line is first come, first served while it is short. Longer than `limit`, the hub is
 * overloaded, and the newest waiter goes first (adaptive LIFO, as Facebook's servers do under
 * load): the oldest waiters are the likeliest to have been given up by clients whose close is not
 * known yet, and serving them first would make every new request wait behind the whole backlog.
 */
import { AbandonedError } from '@skillhub/errors';

export class AbortableGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(signal: AbortSignal | undefined, task: () => Promise<T>): Promise<T> {
    if (signal?.aborted) throw new AbandonedError();
    if (this.running < this.limit) this.running++;
    else await this.turn(signal);
    try {
      return await task();
    } finally {
      // The slot passes to the next in line (the newest when the line is long), or is freed.
      const next = this.waiting.length > this.limit ? this.waiting.pop() : this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  private turn(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const go = (): void => {
        signal?.removeEventListener('abort', leave);
        resolve();
      };
      const leave = (): void => {
        this.waiting.splice(this.waiting.indexOf(go), 1);
        reject(new AbandonedError());
      };
      signal?.addEventListener('abort', leave, { once: true });
      this.waiting.push(go);
    });
  }
}
