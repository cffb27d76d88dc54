/**
 * Values derived from skills' verdicts, held in memory: bounded (least recently used goes
 * first), each entry good until its own deadline, and dropped by skill when that skill's verdict
 * changes. A value read from the database while a change was heard is never stored: `epoch`
 * moves with every change, and `set` stores only under the epoch its read began in.
 */
interface Entry<T> {
  skill: string;
  value: T;
  /** Epoch milliseconds after which the entry is not served. */
  until: number;
}

export class VerdictCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly keysBySkill = new Map<string, Set<string>>();
  private changes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Take it before reading what will be stored; hand it to `set`. */
  get epoch(): number {
    return this.changes;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.until <= this.now()) {
      this.forget(key, entry.skill);
      return undefined;
    }
    this.entries.set(key, entry); // now the most recently used
    return entry.value;
  }

  /** Stores `value` unless a change was heard since `epoch` was taken. */
  set(skill: string, key: string, value: T, until: number, epoch: number): void {
    if (epoch !== this.changes || until <= this.now()) return;
    const old = this.entries.get(key);
    if (old) this.forget(key, old.skill);
    this.entries.set(key, { skill, value, until });
    let keys = this.keysBySkill.get(skill);
    if (!keys) this.keysBySkill.set(skill, (keys = new Set()));
    keys.add(key);
    if (this.entries.size > this.maxEntries) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.forget(oldestKey, oldest.skill);
    }
  }

  invalidate(skill: string): void {
    this.changes++;
    for (const key of this.keysBySkill.get(skill) ?? []) this.entries.delete(key);
    this.keysBySkill.delete(skill);
  }

  clear(): void {
    this.changes++;
    this.entries.clear();
    this.keysBySkill.clear();
  }

  private forget(key: string, skill: string): void {
    this.entries.delete(key);
    const keys = this.keysBySkill.get(skill);
    keys?.delete(key);
    if (keys?.size === 0) this.keysBySkill.delete(skill);
  }
}
