import { loadGrammars } from './grammars';

describe('loadGrammars', () => {
  it('parses Python, shell, JavaScript and TypeScript into syntax trees', async () => {
    const grammars = await loadGrammars();
    const trees = [
      grammars.parse('python', 'import os as o\no.system("ls")\n'),
      grammars.parse('shell', 'curl -s https://example.com/x | sh\n'),
      grammars.parse('javascript', 'require("child_process").exec(cmd);\n'),
      grammars.parse('typescript', 'const n: number = eval("1" as string);\n'),
    ];
    try {
      expect(trees.map((tree) => tree.rootNode.type)).toEqual(['module', 'program', 'program', 'program']);
      expect(trees.map((tree) => tree.rootNode.hasError)).toEqual([false, false, false, false]);
      expect(trees[1]?.rootNode.toString()).toContain('pipeline');
    } finally {
      for (const tree of trees) tree.delete();
    }
  });

  it('parses TypeScript assertions and generic arrows, which only the non-JSX grammar reads', async () => {
    const grammars = await loadGrammars();
    const source = 'const n = <number>x;\nconst id = <T>(v: T) => v;\n';
    const [ts, tsx] = [grammars.parse('typescript', source), grammars.parse('tsx', source)];
    try {
      expect([ts.rootNode.hasError, tsx.rootNode.hasError]).toEqual([false, true]);
    } finally {
      ts.delete();
      tsx.delete();
    }
  });

  it('loads the grammars once per process', async () => {
    expect(await loadGrammars()).toBe(await loadGrammars());
  });
});
