import { loadGrammars } from './grammars';
import { firstSyntaxError, lineOf, walk } from './syntax';

describe('syntax helpers', () => {
  it('walks every node in document order and can skip children', async () => {
    const tree = (await loadGrammars()).parse('python', 'def f():\n    return g(1)\nx = 2\n');
    try {
      const all: string[] = [];
      walk(tree.rootNode, (node) => void all.push(node.type));
      const top: string[] = [];
      walk(tree.rootNode, (node) => {
        top.push(node.type);
        return node.type === 'module';
      });
      expect(all.filter((type) => type === 'call')).toHaveLength(1);
      expect(all.indexOf('function_definition')).toBeLessThan(all.indexOf('call'));
      expect(top).toEqual(['module', 'function_definition', 'expression_statement']);
    } finally {
      tree.delete();
    }
  });

  it('walks a nesting far deeper than the stack would allow recursion', async () => {
    const depth = 5000;
    const tree = (await loadGrammars()).parse('javascript', `x = ${'['.repeat(depth)}${']'.repeat(depth)};`);
    try {
      let arrays = 0;
      walk(tree.rootNode, (node) => void (node.type === 'array' && arrays++));
      expect(arrays).toBe(depth);
    } finally {
      tree.delete();
    }
  });

  it('finds the first syntax error with its line', async () => {
    const grammars = await loadGrammars();
    const good = grammars.parse('python', 'x = 1\n');
    const bad = grammars.parse('python', 'x = 1\ndef (:\n');
    try {
      expect(firstSyntaxError(good.rootNode)).toBeNull();
      const error = firstSyntaxError(bad.rootNode);
      expect(error && lineOf(error)).toBe(2);
    } finally {
      good.delete();
      bad.delete();
    }
  });
});
