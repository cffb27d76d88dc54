import { EtagCache, type EtagCacheOptions } from './etag-cache';

describe('EtagCache', () => {
  let now: number;
  const cache = (options: Partial<EtagCacheOptions> = {}): EtagCache =>
    new EtagCache({ ttlMs: 1_000, maxEntries: 10, maxBytes: 1_000, now: () => now, ...options });

  beforeEach(() => {
    now = 0;
  });

  it('serves an answer as fresh within the TTL, then as stale with its ETag', () => {
    const subject = cache();
    subject.set('u', { a: 1 }, '"e1"', 10);

    now = 999;
    expect(subject.get('u')).toEqual({ body: { a: 1 }, etag: '"e1"', fresh: true });
    now = 1_000;
    expect(subject.get('u')).toEqual({ body: { a: 1 }, etag: '"e1"', fresh: false });
  });

  it('makes a revalidated answer fresh for another TTL', () => {
    const subject = cache();
    subject.set('u', 1, '"e1"', 10);
    now = 1_500;

    subject.revalidated('u');

    now = 2_499;
    expect(subject.get('u')?.fresh).toBe(true);
  });

  it('drops a stale answer that has no ETag to revalidate with', () => {
    const subject = cache();
    subject.set('u', 1, null, 10);
    now = 1_000;

    expect(subject.get('u')).toBeNull();
    expect(subject.size).toBe(0);
  });

  it('evicts the least recently used entry beyond maxEntries', () => {
    const subject = cache({ maxEntries: 2 });
    subject.set('a', 1, '"a"', 1);
    subject.set('b', 2, '"b"', 1);
    subject.get('a');

    subject.set('c', 3, '"c"', 1);

    expect(subject.get('b')).toBeNull();
    expect(subject.get('a')?.body).toBe(1);
    expect(subject.get('c')?.body).toBe(3);
  });

  it('evicts beyond maxBytes and never stores an answer larger than it', () => {
    const subject = cache({ maxBytes: 100 });
    subject.set('a', 1, '"a"', 60);
    subject.set('b', 2, '"b"', 60);
    subject.set('huge', 3, '"h"', 101);

    expect(subject.get('a')).toBeNull();
    expect(subject.get('b')?.body).toBe(2);
    expect(subject.get('huge')).toBeNull();
  });

  it('stores nothing when the TTL is 0', () => {
    const subject = cache({ ttlMs: 0 });
    subject.set('u', 1, '"e"', 1);

    expect(subject.get('u')).toBeNull();
  });
});
