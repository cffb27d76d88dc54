import { escapeForDisplay, excerptAt, quoteForMessage } from './display';

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

describe('escapeForDisplay', () => {
  const ESC = '\x1b';
  it.each([
    ['a screen clear', `${ESC}[2J${ESC}[H`, '\\u{001B}[2J\\u{001B}[H'],
    ['a fake green verdict', `${ESC}[32mCERTIFIED SAFE${ESC}[0m`, '\\u{001B}[32mCERTIFIED SAFE\\u{001B}[0m'],
    [
      'an OSC 8 link',
      `${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\`,
      '\\u{001B}]8;;https://evil.example\\u{001B}\\click\\u{001B}]8;;\\u{001B}\\',
    ],
    ['an OSC 0 title change', `${ESC}]0;owned\x07`, '\\u{001B}]0;owned\\u{0007}'],
    ['a C1 control sequence introducer', '\u009b2J', '\\u{009B}2J'],
    ['a right-to-left override', 'txt.\u202Eexe', 'txt.\\u{202E}exe'],
    ['a zero-width space and a tag character', 'a\u200Bb\u{E0041}', 'a\\u{200B}b\\u{E0041}'],
    ['a lone carriage return and a backspace', 'safe\revil\b', 'safe\\u{000D}evil\\u{0008}'],
    ['a lone surrogate', 'x\uD800y', 'x\\u{D800}y'],
  ])('spells out %s', (_, text, shown) => {
    expect(escapeForDisplay(text)).toBe(shown);
  });

  it('keeps what real text carries: accents, emoji with their joiners and selectors, quotes, line breaks', () => {
    const text = 'Café "météo" ❤️ 👩‍💻\nline two\r\n\tindented \\ done';
    expect(escapeForDisplay(text)).toBe(text);
  });

  it('spells out line breaks and tabs too for one line', () => {
    expect(escapeForDisplay('a\nfake: line\r\n\tb', { oneLine: true })).toBe('a\\nfake: line\\u{000D}\\n\\tb');
  });
});
