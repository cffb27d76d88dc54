import { MAX_FUZZY_WORDS, MAX_QUERY_LENGTH, parseSearchQuery } from './search-query';

describe('parseSearchQuery', () => {
  it.each([
    ['kuber', { text: 'kuber', textBeforePrefix: '', prefix: 'kuber', trigram: 'kuber' }],
    ['postgres  que', { text: 'postgres que', textBeforePrefix: 'postgres', prefix: 'que', trigram: 'postgres que' }],
    [
      '"pull request"',
      { text: '"pull request"', textBeforePrefix: '"pull request"', prefix: null, trigram: 'pull request' },
    ],
    [
      'weather -marine',
      { text: 'weather -marine', textBeforePrefix: 'weather -marine', prefix: null, trigram: 'weather' },
    ],
    [
      'slack or discord',
      { text: 'slack or discord', textBeforePrefix: 'slack or discord', prefix: null, trigram: 'slack discord' },
    ],
    ['github or', { text: 'github or', textBeforePrefix: 'github or', prefix: null, trigram: 'github' }],
    ['Weather', { text: 'Weather', textBeforePrefix: '', prefix: 'weather', trigram: 'weather' }],
    ['a', { text: 'a', textBeforePrefix: '', prefix: null, trigram: 'a' }],
    ["x'):* | !", { text: "x'):* | !", textBeforePrefix: "x'):* | !", prefix: null, trigram: 'x' }],
  ])('%j', (raw, expected) => {
    expect(parseSearchQuery(raw)).toMatchObject(expected);
  });

  it.each([
    ['kuber', ['kuber'], ['kuber']],
    ['github monitor', ['github', 'monitor'], ['github', 'monitor']],
    ['weather -marine', ['weather'], ['weather']],
    ['"pull request"', ['pull', 'request'], ['pull', 'request']],
    ['weather-now', ['weather', 'now'], ['weather', 'now']],
    ['a', ['a'], []],
    ["x'):* | !", ['x'], []],
    ['!!!', [], []],
  ])('%j: name words %j, typo words %j', (raw, nameWords, fuzzyWords) => {
    expect(parseSearchQuery(raw)).toMatchObject({ nameWords, fuzzyWords });
  });

  it('never lets tsquery syntax into the prefix', () => {
    for (const raw of ["foo:*'", 'bar&baz', "q'|x", 'é:*']) {
      const { prefix } = parseSearchQuery(raw);
      expect(prefix === null || /^[\p{L}\p{N}]+$/u.test(prefix)).toBe(true);
    }
  });

  it('looks up a bounded number of words for typos', () => {
    expect(parseSearchQuery('alpha bravo charlie delta echo foxtrot golf hotel').fuzzyWords).toHaveLength(
      MAX_FUZZY_WORDS,
    );
  });

  it('caps the query before parsing it', () => {
    expect(parseSearchQuery('w'.repeat(10_000)).text).toHaveLength(MAX_QUERY_LENGTH);
  });
});
