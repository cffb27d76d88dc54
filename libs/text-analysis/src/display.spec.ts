import { excerptAt, quoteForMessage } from './display';

describe('quoteForMessage', () => {
  it.each([
    ['plain text', 'Extracts text', '"Extracts text"'],
    ['a zero-width space', 'Extracts\u200B text', '"Extracts\\u{200B} text"'],
    ['a tag character', 'a\u{E0041}', '"a\\u{E0041}"'],
    ['an escape sequence', 'x\x1b[8my', '"x\\u{001B}[8my"'],
    ['a lone carriage return', 'a\rb', '"a\\u{000D}b"'],
    ['line breaks and tabs', 'a\n\tb', '"a\\n\\tb"'],
    ['quotes and backslashes', 'say "hi" \\ bye', '"say \\"hi\\" \\\\ bye"'],
    ['accents and emoji kept, the emoji selector escaped', 'café ❤️', '"café ❤\\u{FE0F}"'],
  ])('quotes %s', (_, text, quoted) => {
    expect(quoteForMessage(text)).toBe(quoted);
  });

  it('cuts long text', () => {
    expect(quoteForMessage('x'.repeat(100), 10)).toBe(`"${'x'.repeat(10)}…"`);
  });
});

describe('excerptAt', () => {
  it('shows the match with a little of its line around it, never the next line', () => {
    const text = 'First line.\nSome words before the match and after it.\nNext.';
    const index = text.indexOf('the match');
    expect(excerptAt(text, index, 'the match'.length, 6)).toBe('efore the match and a');
    expect(excerptAt(text, text.indexOf('Next'), 4)).toBe('Next.');
  });
});
