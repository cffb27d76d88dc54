import { loadGrammars, type Grammars } from './grammars';
import { collectLocalModules, localModule, type SourceFile } from './javascript-modules';

let grammars: Grammars;
beforeAll(async () => {
  grammars = await loadGrammars();
});

const files = (sources: Record<string, string>): SourceFile[] =>
  Object.entries(sources).map(([path, text]) => ({
    path,
    text,
    language: path.endsWith('.ts') ? 'typescript' : 'javascript',
  }));

describe('collectLocalModules', () => {
  it('keeps the exports that are modules, members of modules or functions returning them, and nothing else', () => {
    const modules = collectLocalModules(
      grammars,
      files({
        'lib/util.js': [
          "const cp = require('child_process');",
          'exports.run = cp.exec;',
          "exports.version = '1.0';",
          'exports.add = (a, b) => a + b;',
          "exports.load = () => require('vm');",
          '',
        ].join('\n'),
        'lib/plain.js': 'module.exports = { add: (a, b) => a + b };\n',
        'lib/none.js': 'console.log(1);\n',
      }),
    );
    expect([...modules.keys()]).toEqual(['lib/util.js']);
    expect([...(modules.get('lib/util.js')?.names.keys() ?? [])]).toEqual(['run', 'load']);
    expect(modules.get('lib/util.js')?.names.get('run')).toEqual({
      kind: 'ref',
      root: 'child_process',
      path: ['exec'],
      module: false,
    });
  });

  it('follows re-exports across files, and stops at a cycle', () => {
    const modules = collectLocalModules(
      grammars,
      files({
        'a.js': "export * from 'node:child_process';\nexport { x } from './b.js';\n",
        'b.js': "export { x } from './a.js';\nexport { spawn as go } from './a.js';\n",
      }),
    );
    expect(modules.get('b.js')?.names.get('go')).toMatchObject({ root: 'child_process', path: ['spawn'] });
    expect(modules.get('a.js')?.whole).toMatchObject({ root: 'child_process', path: [] });
  });

  it.each<[string, string, string | null]>([
    ['src/main.ts', './util.js', 'src/util.ts'],
    ['src/main.js', './util', 'src/util.js'],
    ['src/main.js', '../lib', 'lib/index.js'],
    ['src/main.js', 'child_process', null],
    ['src/main.js', './missing', null],
  ])('resolves %s importing %s to %s', (from, specifier, expected) => {
    const modules = collectLocalModules(
      grammars,
      files({
        'src/util.ts': "export { exec } from 'child_process';\n",
        'src/util.js': "module.exports = require('child_process');\n",
        'lib/index.js': "module.exports = require('child_process');\n",
      }),
    );
    const value = localModule(modules, from, specifier);
    expect(value === null ? null : expected).toBe(expected);
  });
});
