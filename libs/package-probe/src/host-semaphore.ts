/**
 * A counting semaphore per host, so a burst of certifications never opens more than a few
 * connections to one registry at a time (registries rate-limit per client; 429s cost retries).
 */
export class HostSemaphore {
  private readonly hosts = new Map<string, { active: number; waiting: Array<() => void> }>();

  /** `limit`: a positive integer, checked with the prober's other options. */
  constructor(private readonly limit: number) {}

  /** Runs `task` once `host` has a free slot; slots are handed out in arrival order. */
  async run<T>(host: string, task: () => Promise<T>): Promise<T> {
    await this.acquire(host);
    try {
      return await task();
    } finally {
      this.release(host);
    }
  }

  private acquire(host: string): Promise<void> {
    const slot = this.hosts.get(host) ?? { active: 0, waiting: [] };
    this.hosts.set(host, slot);
    if (slot.active < this.limit) {
      slot.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => slot.waiting.push(resolve));
  }

  private release(host: string): void {
    const slot = this.hosts.get(host);
    if (!slot) return;
    const next = slot.waiting.shift();
    // The slot passes straight to the next waiter, so a newcomer cannot overtake it.
    if (next) return next();
    slot.active--;
    // Idle hosts are dropped, so the map only ever holds hosts with requests in flight.
    if (slot.active === 0) this.hosts.delete(host);
  }
}
