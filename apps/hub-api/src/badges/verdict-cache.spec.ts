import { VerdictCache } from './verdict-cache';

describe('VerdictCache', () => {
  let now = 1_000;
  const clock = () => now;
  beforeEach(() => (now = 1_000));

  it('serves an entry until its deadline, then not', () => {
    const cache = new VerdictCache<string>(10, clock);
    cache.set('a/x', 'a/x@', 'certified', 2_000, cache.epoch);
    expect(cache.get('a/x@')).toBe('certified');
    now = 2_000;
    expect(cache.get('a/x@')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("drops every entry of a skill whose verdict changed, and only that skill's", () => {
    const cache = new VerdictCache<string>(10, clock);
    cache.set('a/x', 'a/x@', 'certified', Infinity, cache.epoch);
    cache.set('a/x', 'a/x@1.0.0', 'certified', Infinity, cache.epoch);
    cache.set('a/y', 'a/y@', 'pending', Infinity, cache.epoch);
    cache.invalidate('a/x');
    expect(cache.get('a/x@')).toBeUndefined();
    expect(cache.get('a/x@1.0.0')).toBeUndefined();
    expect(cache.get('a/y@')).toBe('pending');
    cache.clear();
    expect(cache.get('a/y@')).toBeUndefined();
  });

  it('never stores what was read before a change it did not see', () => {
    const cache = new VerdictCache<string>(10, clock);
    const epoch = cache.epoch; // a read of a/x begins…
    cache.invalidate('a/x'); // …its verdict changes meanwhile…
    cache.set('a/x', 'a/x@', 'pending', Infinity, epoch); // …and the old answer arrives.
    expect(cache.get('a/x@')).toBeUndefined();
    const later = cache.epoch;
    cache.clear();
    cache.set('a/x', 'a/x@', 'pending', Infinity, later);
    expect(cache.get('a/x@')).toBeUndefined();
  });

  it('holds at most its bound, dropping the least recently used first', () => {
    const cache = new VerdictCache<number>(3, clock);
    for (const i of [1, 2, 3]) cache.set(`a/s${i}`, `a/s${i}@`, i, Infinity, cache.epoch);
    expect(cache.get('a/s1@')).toBe(1); // s2 is now the least recently used
    cache.set('a/s4', 'a/s4@', 4, Infinity, cache.epoch);
    expect(cache.size).toBe(3);
    expect(cache.get('a/s2@')).toBeUndefined();
    expect([1, 3, 4].map((i) => cache.get(`a/s${i}@`))).toEqual([1, 3, 4]);
    // The evicted entry left nothing behind: invalidating its skill touches no other entry.
    cache.invalidate('a/s2');
    expect(cache.size).toBe(3);
  });

  it('replaces an entry stored again under its key', () => {
    const cache = new VerdictCache<string>(2, clock);
    cache.set('a/x', 'a/x@', 'pending', Infinity, cache.epoch);
    cache.set('a/x', 'a/x@', 'certified', Infinity, cache.epoch);
    expect(cache.size).toBe(1);
    expect(cache.get('a/x@')).toBe('certified');
  });
});
