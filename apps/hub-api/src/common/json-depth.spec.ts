import { jsonDepth, MAX_JSON_DEPTH, refuseDeepJson, JsonTooDeepError } from './json-depth';

const depthOf = (text: string) => jsonDepth(Buffer.from(text, 'utf8'));
const refuse = (text: string) => () =>
  refuseDeepJson(undefined as never, undefined as never, Buffer.from(text, 'utf8'));

describe('jsonDepth', () => {
  it.each([
    ['a scalar', '"x"', 0],
    ['an object', '{"a":1}', 1],
    ['nested lists and objects', '{"a":[{"b":[1,[2]]}]}', 5],
    ['brackets inside strings', '{"a":"[[[{{{"}', 1],
    ['an escaped quote before brackets', '{"a":"\\"[[["}', 1],
    ['an escaped backslash before the closing quote', '{"a":"\\\\","b":[[1]]}', 3],
    ['brackets in multi-byte text', '{"ü[":"日本[["}', 1],
  ])('%s', (_, text, depth) => {
    expect(depthOf(text)).toBe(depth);
    expect(JSON.parse(text)).toBeDefined();
  });

  it('stops counting once past the cap', () => {
    expect(jsonDepth(Buffer.from('['.repeat(1_000_000)), 10)).toBe(11);
  });
});

describe('refuseDeepJson', () => {
  it('lets a body at the cap through', () => {
    expect(refuse(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).not.toThrow();
  });

  it('refuses 10,000 levels before anything parses them, naming the body', () => {
    const deep = `{"manifest":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    expect(refuse(deep)).toThrow(JsonTooDeepError);
    try {
      refuse(deep)();
    } catch (error) {
      expect((error as JsonTooDeepError).problems).toEqual([expect.objectContaining({ path: 'body' })]);
    }
  });
});
