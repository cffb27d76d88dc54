import { canonicalJson } from './canonical-json';

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
    ['undefined', { a: undefined }],
    ['NaN', [Number.NaN]],
    ['Infinity', { a: Infinity }],
    ['a function', { f: () => 1 }],
    ['a bigint', { n: 1n }],
    ['a Date', { d: new Date(0) }],
    ['a Buffer', { b: Buffer.from('x') }],
    ['a sparse array', [1, , 3]], // eslint-disable-line no-sparse-arrays
  ])('refuses %s', (_label, value) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
  });

  it('refuses a value that contains itself, but not one that merely repeats a value', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});
