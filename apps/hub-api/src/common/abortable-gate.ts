/**
 * At most `limit` tasks at once; the others wait their turn in order, and one whose caller goes
 * away (its signal aborts) leaves the line at once, having cost nothing. In front of the database
 * pool for searches: the pool's own queue keeps a waiter whose client has left and hands it a
 * connection all the same, so a burst of abandoned searches would each still open a transaction.
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
      // The slot passes to the next in line, or is freed.
      const next = this.waiting.shift();
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
