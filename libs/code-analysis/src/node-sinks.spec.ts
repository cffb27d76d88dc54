import { builtinModules } from 'node:module';
import { NODE_SINKS, NODE_WITHOUT_SINKS, sinkOf } from './node-sinks';

describe('NODE_SINKS', () => {
  it('classifies every core module of the running Node, as having sinks or as having none', () => {
    const unclassified = builtinModules
      .map((name) => name.replace(/^node:/, ''))
      .filter((name) => !NODE_SINKS.has(name) && !NODE_WITHOUT_SINKS.has(name));
    expect(unclassified).toEqual([]);
  });

  it('never lists a module in both', () => {
    expect([...NODE_WITHOUT_SINKS].filter((name) => NODE_SINKS.has(name))).toEqual([]);
  });

  it.each<[string, string[], string | null]>([
    ['child_process', ['execSync'], 'shell'],
    ['child_process', ['spawn'], 'argv'],
    ['child_process', ['*'], 'shell'],
    ['child_process', ['exec', '()', 'stdout'], null],
    ['vm', ['*'], 'code'],
    ['module', ['prototype', '_compile'], 'code'],
    ['sqlite', ['DatabaseSync', '()', 'loadExtension'], 'native'],
    ['process', ['mainModule', 'require'], 'load'],
    ['process', ['env'], null],
    ['path', ['join'], null],
    ['eval', [], 'code'],
    ['require', ['*'], null],
    ['Function', ['()'], null],
    ['WebAssembly', ['Module', '()'], null],
  ])('%s %j is %s', (root, path, kind) => {
    expect(sinkOf(root, path)).toBe(kind);
  });
});
