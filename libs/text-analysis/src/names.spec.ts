import { compareNames, editDistance, mixedScript, plainName, skeleton } from './names';

describe('mixedScript', () => {
  it.each([
    ['Acmе Labs (Cyrillic е)', 'Acm\u0435 Labs', 'Acm\u0435', ['Latin', 'Cyrillic']],
    ['Greek omicron in a word', 'G\u03bfogle', 'G\u03bfogle', ['Latin', 'Greek']],
    ['Armenian oh', 'dr\u0585pbox', 'dr\u0585pbox', ['Latin', 'Armenian']],
    ['Cherokee A in a tool name', 'read_\u13aall', '\u13aall', ['Cherokee', 'Latin']],
    ['a fullwidth letter among plain ones', '\uff21cme', '\uff21cme', ['Latin (compatibility form)', 'Latin']],
    ['a mathematical letter among plain ones', '\u{1d400}cme', '\u{1d400}cme', ['Latin (compatibility form)', 'Latin']],
    ['Cyrillic in the second word only', 'Kazma \u0422eam', '\u0422eam', ['Cyrillic', 'Latin']],
  ])('finds %s', (_, name, word, scripts) => {
    expect(mixedScript(name)).toEqual({ word, scripts });
  });

  it.each([
    ['plain Latin', 'Acme Labs, Inc.'],
    ['accented Latin', 'Zoë Çelik'],
    ['Cyrillic alone', 'Яндекс'],
    ['Greek alone', 'Ελληνικά'],
    ['words of different scripts side by side', 'Acme Лабс'],
    ['Japanese with Latin', 'Web検索ツール'],
    ['Korean with Latin', 'AI도우미'],
    ['Chinese with Bopomofo', '中文ㄅㄆ'],
    ['fullwidth Latin alone', '\uff21\uff43\uff4d\uff45'],
    ['fullwidth Latin with kanji', '\uff37\uff45\uff42検索'],
    ['digits and punctuation', 'acme-2025_v1.0'],
    ['nothing', ''],
  ])('accepts %s', (_, name) => {
    expect(mixedScript(name)).toBeNull();
  });
});

describe('skeleton', () => {
  it.each([
    ['Rn0-D_1.i', 'modll'],
    ['Acm\u0435 Labs', 'acmelabs'],
    ['ACME-LABS', 'acmelabs'],
    ['\uff41\uff43\uff4d\uff45', 'acme'],
    ['vvebsearch', 'websearch'],
    ['g00gle', 'google'],
    ['Kazma\u200BTeam', 'kazmateam'],
    ['café', 'cafe'],
  ])('%j → %j', (name, expected) => {
    expect(skeleton(name)).toBe(expected);
  });
});

describe('plainName', () => {
  it('ignores case and separators, not lookalikes', () => {
    expect([plainName('Web_Search'), plainName('web-search'), plainName('w\u0435b-search')]).toEqual([
      'websearch',
      'websearch',
      'w\u0435bsearch',
    ]);
  });
});

describe('compareNames', () => {
  it.each([
    ['weather', 'weather', { kind: 'same' }],
    ['Weather', 'weather', { kind: 'same' }],
    ['web_search', 'web-search', { kind: 'same' }],
    ['Web search', 'web-search', { kind: 'same' }],
    ['rnodel-tool', 'model_tool', { kind: 'confusable' }],
    ['g00gle-search', 'google-search', { kind: 'confusable' }],
    ['s1ack-rncp', 'slack-mcp', { kind: 'confusable' }],
    ['w\u0435ather', 'weather', { kind: 'confusable' }],
    ['\uff57\uff45\uff41\uff54\uff48\uff45\uff52', 'weather', { kind: 'same' }],
    ['web-search', 'web-serach', { kind: 'near', distance: 1 }],
    ['web-search', 'web-seatch2', { kind: 'near', distance: 2 }],
    ['web-search', 'web-scratch', null],
    ['git', 'gh', null],
    ['pdf', 'pdf', { kind: 'same' }],
    ['anthropic', 'anthrop1c', { kind: 'confusable' }],
    ['kazma-team', 'kazma-tean', { kind: 'near', distance: 1 }],
  ])('%s / %s', (a, b, expected) => {
    expect(compareNames(a, b)).toEqual(expected);
  });

  it('compares short names only for confusability, unless told otherwise', () => {
    expect(compareNames('gith', 'gitx')).toBeNull();
    expect(compareNames('gith', 'gitx', { minLengthForDistance: 3 })).toEqual({ kind: 'near', distance: 1 });
  });

  it('cuts very long names before comparing', () => {
    const long = 'a'.repeat(10_000);
    expect(compareNames(`${long}x`, `${long}y`)).toEqual({ kind: 'same' });
  });
});

describe('editDistance', () => {
  it('counts a swap of neighbours as one edit', () => {
    expect([editDistance('abcd', 'acbd'), editDistance('', 'abc'), editDistance('kitten', 'sitting')]).toEqual([
      1, 3, 3,
    ]);
  });
});
