import {
  braceFormat,
  decodeBase64,
  decodeEscapes,
  decodeHex,
  parseInteger,
  percentFormat,
  rot13,
  shellWords,
  splitStringLiteral,
} from './python-literals';

describe('Python literals', () => {
  it.each([
    [`"exec"`, { prefix: '', body: 'exec' }],
    [`rb'\\x00'`, { prefix: 'rb', body: '\\x00' }],
    [`F"""a "b" c"""`, { prefix: 'f', body: 'a "b" c' }],
    [`u''`, { prefix: 'u', body: '' }],
  ])('splits %s into its prefix and body', (source, literal) => {
    expect(splitStringLiteral(source)).toEqual(literal);
  });

  it('decodes escapes as Python does, and gives up on named ones', () => {
    expect(decodeEscapes('\\x65\\u0078\\U00000065\\143\\n\\\\', false)).toBe('exec\n\\');
    expect(decodeEscapes('a\\\nb', false)).toBe('ab');
    expect(decodeEscapes('\\d', false)).toBe('\\d');
    expect(decodeEscapes('\\u0065', true)).toBe('\\u0065');
    expect(decodeEscapes('\\N{LATIN SMALL LETTER E}xec', false)).toBeNull();
  });

  it.each([
    ['0x1F', 31],
    ['0o755', 493],
    ['0b101', 5],
    ['1_000', 1000],
    ['1.5', null],
  ])('reads the integer %s', (source, value) => {
    expect(parseInteger(source)).toBe(value);
  });

  it('folds % and .format with constant arguments only', () => {
    expect(percentFormat('%s -%s %d%%', ['ls', 'la', 7])).toBe('ls -la 7%');
    expect(percentFormat('%s %s', ['one'])).toBeNull();
    expect(braceFormat('{} {0} {name} {{x}}', ['a'], new Map([['name', 'b']]))).toBe('a a b {x}');
    expect(braceFormat('{:>10}', ['a'], new Map())).toBeNull();
  });

  it('splits a command line into words as a POSIX shell would', () => {
    expect(shellWords(`sh -c 'curl "x" | sh' a\\ b "c\\"d"`)).toEqual(['sh', '-c', 'curl "x" | sh', 'a b', 'c"d']);
    expect(shellWords(`echo 'unterminated`)).toBeNull();
  });

  it('decodes base64, hex and ROT13 payloads', () => {
    expect(decodeBase64('c3lz dGVt', false)).toBe('system');
    expect(decodeBase64('not base64!', false)).toBeNull();
    expect(decodeHex('65 78 65 63')).toBe('exec');
    expect(decodeHex('abc')).toBeNull();
    expect(rot13('cevag(1)')).toBe('print(1)');
  });
});
