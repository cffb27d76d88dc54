import { block, colorEnabled, fields, lines, oneLine, painter, table, terminalJson, TerminalText, tty } from './format';

const ESC = '\x1b';
/** Raw terminal controls in a text: C0 (but line feed), DEL, C1, and the bidi embeddings, overrides and isolates. */
const rawControls = (text: string): string[] =>
  [...text].filter((c) => {
    const n = c.codePointAt(0)!;
    return (
      (n < 0x20 && n !== 0x0a) ||
      (n >= 0x7f && n <= 0x9f) ||
      (n >= 0x202a && n <= 0x202e) ||
      (n >= 0x2066 && n <= 0x2069)
    );
  });
/** What a hostile publisher writes into a description: clear the screen, a fake green verdict, a link, a title. */
const HOSTILE = `${ESC}[2J${ESC}[32mCERTIFIED SAFE${ESC}[0m ${ESC}]8;;https://evil.example${ESC}\\docs${ESC}]8;;${ESC}\\ ${ESC}]0;owned\x07 txt.\u202Eexe`;

describe('format', () => {
  it('aligns a table under its header', () => {
    expect(
      table(
        ['NAME', 'VERSION'],
        [
          ['acme/weather', '1.0.0'],
          ['a/b', '10.2.0'],
        ],
      ).text,
    ).toBe(
      ['NAME          VERSION', '------------  -------', 'acme/weather  1.0.0', 'a/b           10.2.0'].join('\n'),
    );
    expect(table(['A'], []).text).toBe('(none)');
  });

  it('ignores colour codes when aligning', () => {
    const p = painter(true);
    expect(
      table(
        ['S', 'X'],
        [
          [p.green('ok'), '1'],
          ['fail', '2'],
        ],
      ).text.split('\n')[2],
    ).toBe(`${p.green('ok').text}    1`);
  });

  it('colours only a terminal without NO_COLOR', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(painter(false).red('x').text).toBe('x');
    expect(painter(true).red('x').text).toBe(`${ESC}[31mx${ESC}[0m`);
  });

  it('aligns key: value lines', () => {
    expect(
      fields([
        ['id', 'a'],
        ['status', 'b'],
      ]).text,
    ).toBe('id:     a\nstatus: b');
  });
});

describe('terminal text', () => {
  it('lets no control or bidi character of a value reach the terminal, wherever the value is put', () => {
    const outputs = [
      oneLine(HOSTILE),
      tty`description: ${HOSTILE}`,
      lines('ours', HOSTILE),
      fields([['description', HOSTILE]]),
      table(['DESCRIPTION'], [[HOSTILE]]),
    ];
    for (const { text } of outputs) {
      expect(rawControls(text)).toEqual([]);
      expect(text).toContain('\\u{001B}[2J');
      expect(text).toContain('\\u{001B}[32mCERTIFIED SAFE');
      expect(text).toContain('\\u{001B}]8;;https://evil.example');
      expect(text).toContain('\\u{001B}]0;owned\\u{0007}');
      expect(text).toContain('txt.\\u{202E}exe');
    }
    // The painter's own codes are the only escapes left in a coloured value.
    expect(painter(true).green(HOSTILE).text).toBe(`${ESC}[32m${oneLine(HOSTILE).text}${ESC}[0m`);
  });

  it('spells out a line break in a value, so it cannot fake a line of its own', () => {
    expect(fields([['description', 'fine\ncertification: certified']]).text).toBe(
      'description: fine\\ncertification: certified',
    );
    expect(block('first\nsecond\x1b[2J').text).toBe('first\nsecond\\u{001B}[2J');
  });

  it('keeps the CLI’s own words and what real text carries', () => {
    expect(tty`published: ${'acme/météo@1.0.0'} ❤️ ${3}`.text).toBe('published: acme/météo@1.0.0 ❤️ 3');
    expect(tty`${oneLine('a')}${tty`b${'c'}`}`.text).toBe('abc');
  });

  it('cannot be made outside format.ts', () => {
    const forge = TerminalText as unknown as new (key: unknown, text: string) => TerminalText;
    expect(() => new forge(Symbol('made in format.ts'), `${ESC}[2J`)).toThrow(/format\.ts/);
  });

  it('writes JSON whose hidden characters are escapes, and which parses back to the same value', () => {
    const value = { description: HOSTILE, c1: '\u009b2J', zw: 'a\u200Bb', tag: '\u{E0041}', fine: 'Café ❤' };
    const json = terminalJson(value);
    expect(rawControls(json)).toEqual([]);
    for (const hidden of ['\u200b', '\u{E0041}']) expect(json).not.toContain(hidden);
    expect(json).toContain('\\u202e');
    expect(json).toContain('Café ❤');
    expect(JSON.parse(json)).toEqual(value);
  });
});
