import { colorEnabled, fields, painter, table } from './format';

describe('format', () => {
  it('aligns a table under its header', () => {
    expect(
      table(
        ['NAME', 'VERSION'],
        [
          ['acme/weather', '1.0.0'],
          ['a/b', '10.2.0'],
        ],
      ),
    ).toBe(
      ['NAME          VERSION', '------------  -------', 'acme/weather  1.0.0', 'a/b           10.2.0'].join('\n'),
    );
    expect(table(['A'], [])).toBe('(none)');
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
      ).split('\n')[2],
    ).toBe(`${p.green('ok')}    1`);
  });

  it('colours only a terminal without NO_COLOR', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(painter(false).red('x')).toBe('x');
  });

  it('aligns key: value lines', () => {
    expect(
      fields([
        ['id', 'a'],
        ['status', 'b'],
      ]),
    ).toBe('id:     a\nstatus: b');
  });
});
