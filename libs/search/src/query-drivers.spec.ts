import {
  chooseDrivers,
  likelyMatches,
  MAX_CONJUNCTIONS,
  MAX_WORD_PAIR_LENGTH,
  phrasePairs,
  type QueryTerm,
  tsqueryConjunctions,
} from './query-drivers';

const exact = (lexeme: string): QueryTerm => ({ lexeme, prefix: false });
const prefix = (lexeme: string): QueryTerm => ({ lexeme, prefix: true });

describe('tsqueryConjunctions (texts as PostgreSQL prints them)', () => {
  it('reads a word, a prefix and an and/or of them', () => {
    expect(tsqueryConjunctions(`'api'`)).toEqual([[exact('api')]]);
    expect(tsqueryConjunctions(`'kuber' | 'kuber':*`)).toEqual([[exact('kuber')], [prefix('kuber')]]);
    expect(tsqueryConjunctions(`'github' & 'monitor' | 'github' & 'monitor':*`)).toEqual([
      [exact('github'), exact('monitor')],
      [exact('github'), prefix('monitor')],
    ]);
  });

  it('gives & precedence over | and follows parentheses', () => {
    expect(tsqueryConjunctions(`'data' | 'api' & 'weather'`)).toEqual([
      [exact('data')],
      [exact('api'), exact('weather')],
    ]);
    expect(tsqueryConjunctions(`( 'a' | 'b' ) & 'c'`)).toEqual([
      [exact('a'), exact('c')],
      [exact('b'), exact('c')],
    ]);
  });

  it('requires both sides of a phrase and nothing of a negation', () => {
    expect(tsqueryConjunctions(`'slack' <-> 'reader' & !'sync'`)).toEqual([[exact('slack'), exact('reader')]]);
    expect(tsqueryConjunctions(`'a' <2> 'b'`)).toEqual([[exact('a'), exact('b')]]);
  });

  it('refuses a conjunction that requires no word, and an empty query', () => {
    expect(tsqueryConjunctions(`!( 'slack' <-> 'reader' ) | 'weather'`)).toBeNull();
    expect(tsqueryConjunctions(`!'sync'`)).toBeNull();
    expect(tsqueryConjunctions('')).toBeNull();
  });

  it('unescapes quotes and backslashes, and reads weights after the colon', () => {
    expect(tsqueryConjunctions(`'it''s' & 'back\\\\slash':*AB & 'x':C`)).toEqual([
      [exact("it's"), prefix('back\\slash'), exact('x')],
    ]);
  });

  it('stops past MAX_CONJUNCTIONS', () => {
    const alternatives = (n: number) => `( ${Array.from({ length: n }, (_, i) => `'w${i}'`).join(' | ')} )`;
    expect(tsqueryConjunctions(`${alternatives(6)} & ${alternatives(5)}`)).toHaveLength(30);
    expect(tsqueryConjunctions(`${alternatives(6)} & ${alternatives(6)}`)).toBeNull();
    expect(MAX_CONJUNCTIONS).toBe(32);
  });

  it('throws on text that is no tsquery', () => {
    expect(() => tsqueryConjunctions(`'a' &`)).toThrow(/unexpected tsquery text/);
    expect(() => tsqueryConjunctions(`'open`)).toThrow(/unexpected tsquery text/);
  });
});

describe('phrasePairs', () => {
  it('pairs the words a phrase puts side by side, AND-ed, as the pairs index holds them', () => {
    expect(phrasePairs(`'slack' <-> 'reader' & !'sync'`)).toBe(`'slack reader'`);
    expect(phrasePairs(`'weather-sync' <-> 'weather' <-> 'sync' <-> 'app'`)).toBe(
      `'weather-sync weather' & 'weather sync' & 'sync app'`,
    );
    expect(phrasePairs(`'it''s' <-> 'back\\\\slash' & 'api'`)).toBe(`'it''s back\\\\slash'`);
  });

  it('asks nothing of words apart, prefixes, negations, or a disjunction with an unpaired side', () => {
    expect(phrasePairs(`'lot' <2> 'kumquat'`)).toBeNull();
    expect(phrasePairs(`'slack' & 'reader'`)).toBeNull();
    expect(phrasePairs(`'slack' <-> 'read':*`)).toBeNull();
    expect(phrasePairs(`!( 'slack' <-> 'reader' ) & 'api'`)).toBeNull();
    expect(phrasePairs(`'slack' <-> 'reader' | 'api'`)).toBeNull();
    expect(phrasePairs(`'slack' <-> 'reader' | 'api' <-> 'key'`)).toBe(`( 'slack reader' | 'api key' )`);
    expect(phrasePairs(`'${'a'.repeat(MAX_WORD_PAIR_LENGTH)}' <-> 'b'`)).toBeNull();
    expect(phrasePairs(`'a' <-> `)).toBeNull();
  });
});

describe('chooseDrivers', () => {
  const documents: Record<string, number> = { github: 28_000, monitor: 9_800, monitors: 40 };
  const words = (t: QueryTerm) =>
    t.prefix
      ? new Map(Object.entries(documents).filter(([w]) => w.startsWith(t.lexeme)))
      : t.lexeme in documents
        ? new Map([[t.lexeme, documents[t.lexeme]!]])
        : new Map<string, number>();
  const wordsOf = (t: QueryTerm) =>
    t.lexeme.length > 64 ? null : { words: words(t), complete: !(t.prefix && t.lexeme === 'm') };

  it('walks the rarest term of each conjunction, a prefix by all its words', () => {
    const conjunctions = tsqueryConjunctions(`'github' & 'monitor' | 'github' & 'monitor':*`)!;
    expect(chooseDrivers(conjunctions, wordsOf)).toEqual({
      words: ['monitor', 'monitors'],
      bound: 9_840,
      complete: true,
    });
  });

  it('knows a word no skill holds matches nothing', () => {
    expect(chooseDrivers([[exact('github'), exact('zzz')]], wordsOf)).toEqual({ words: [], bound: 0, complete: true });
  });

  it('gives up when a conjunction has no term it can count', () => {
    expect(chooseDrivers([[exact('x'.repeat(65))]], wordsOf)).toBeNull();
    expect(chooseDrivers([[exact('github'), exact('x'.repeat(65))]], wordsOf)).toEqual({
      words: ['github'],
      bound: 28_000,
      complete: true,
    });
  });

  it('prefers a term whose words are all known, and says when they are not', () => {
    // `m:*` stands for more words than are walked: the whole word wins even though more skills hold it.
    expect(chooseDrivers([[prefix('m'), exact('github')]], wordsOf)).toMatchObject({ words: ['github'] });
    expect(chooseDrivers([[prefix('m')]], wordsOf)).toEqual({
      words: ['monitor', 'monitors'],
      bound: 9_840,
      complete: false,
    });
  });
});

describe('likelyMatches', () => {
  const wordsOf = (t: QueryTerm) => ({
    words: new Map([[t.lexeme, t.lexeme === 'slack' ? 20_000 : 10_000]]),
    complete: true,
  });

  it('multiplies the shares of a conjunction and adds the conjunctions', () => {
    expect(likelyMatches([[exact('slack'), exact('reader')]], wordsOf, 100_000)).toBeCloseTo(2_000);
    expect(likelyMatches([[exact('slack')], [exact('reader')]], wordsOf, 100_000)).toBeCloseTo(30_000);
  });
});
