import { canonicalJson, MAX_JSON_DEPTH } from './canonical-json';
import { NotCanonicalJsonError } from './signing.errors';

const thrownBy = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
};

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: [3, { z: 1, a: null }], a: 'x', c: { y: true, x: false } })).toBe(
      '{"a":"x","b":[3,{"a":null,"z":1}],"c":{"x":false,"y":true}}',
    );
  });

  it('keeps array order', () => {
    expect(canonicalJson(['b', 'a'])).toBe('["b","a"]');
  });

  it('sorts keys by UTF-16 code units, as RFC 8785 does', () => {
    // RFC 8785 §3.2.3's example order: "\r" < "1" < "\u0080" < "\u00f6" < "\u20ac" < "\ud83d\ude00" < "\ufb33".
    const keys = ['\ufb33', '\u20ac', '\ud83d\ude00', '\u00f6', '\u0080', '1', '\r'];
    const sorted = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    // Compared as text: reading it back into an object would move the integer-like key "1" first.
    expect(canonicalJson(Object.fromEntries(keys.map((k) => [k, 0])))).toBe(
      `{${sorted.map((k) => `${JSON.stringify(k)}:0`).join(',')}}`,
    );
  });

  it('gives equal bytes for equal values built in different orders', () => {
    expect(canonicalJson({ a: 1, b: { c: 2, d: 3 } })).toBe(canonicalJson({ b: { d: 3, c: 2 }, a: 1 }));
  });

  it('writes strings and numbers as JSON.stringify does', () => {
    expect(canonicalJson({ s: 'é"\\\n\u2028', n: [0, -0, 1.5, 1e21, -7] })).toBe(
      '{"n":[0,0,1.5,1e+21,-7],"s":"é\\"\\\\\\n\u2028"}',
    );
  });

  it('keeps a "__proto__" key from parsed JSON as data', () => {
    expect(canonicalJson(JSON.parse('{"__proto__":1,"a":2}'))).toBe('{"__proto__":1,"a":2}');
  });

  it.each([
    [null, 'null'],
    [true, 'true'],
    [0, '0'],
    [-0, '0'],
    [1e21, '1e+21'],
    [0.5, '0.5'],
    ['a"\\\u0001', '"a\\"\\\\\\u0001"'],
    [[], '[]'],
    [{}, '{}'],
    [Object.create(null), '{}'],
  ])('%j → %s', (value, json) => {
    expect(canonicalJson(value)).toBe(json);
  });

  it('nests up to its depth cap', () => {
    let deep: unknown = 1;
    for (let i = 1; i < MAX_JSON_DEPTH; i += 1) deep = [deep];
    expect(canonicalJson(deep)).toBe(`${'['.repeat(MAX_JSON_DEPTH - 1)}1${']'.repeat(MAX_JSON_DEPTH - 1)}`);
  });

  let tooDeep: unknown = 1;
  for (let i = 0; i <= MAX_JSON_DEPTH; i += 1) tooDeep = [tooDeep];

  it.each([
    ['undefined', undefined, '$'],
    // JSON.stringify drops such a member, so two different values would sign alike.
    ['an undefined member', { b: 1, a: undefined }, '$.a'],
    ['undefined in an array', [1, undefined], '$[1]'],
    ['a sparse array', [1, , 3], '$[1]'], // eslint-disable-line no-sparse-arrays
    ['NaN', [Number.NaN], '$[0]'],
    ['Infinity', { a: Infinity }, '$.a'],
    ['a function', { f: () => 1 }, '$.f'],
    ['a symbol', { s: Symbol('s') }, '$.s'],
    ['a bigint', { n: 1n }, '$.n'],
    ['a Date', { d: new Date(0) }, '$.d'],
    ['a Map', { m: new Map() }, '$.m'],
    ['a Buffer', { b: Buffer.from('x') }, '$.b'],
    ['nesting past the depth cap', tooDeep, `$${'[0]'.repeat(MAX_JSON_DEPTH)}`],
  ])('refuses %s, naming where it is', (_label, value, at) => {
    const error = thrownBy(() => canonicalJson(value));
    expect(error).toBeInstanceOf(NotCanonicalJsonError);
    expect(error).toMatchObject({
      code: 'SIGNING.NOT_CANONICAL_JSON',
      at,
      problems: [{ path: at, severity: 'error' }],
    });
  });

  it('refuses a value that contains itself, but not one that merely repeats a value', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(NotCanonicalJsonError);
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});
