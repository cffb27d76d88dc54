/**
 * The tree-sitter grammars (WASM, from @vscode/tree-sitter-wasm: no native build, no install
 * script), loaded once per process. Parsing is synchronous once they are loaded, so the
 * certifier stays a pure, synchronous function of its input.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Language as Grammar, Parser, type Tree } from '@vscode/tree-sitter-wasm';
import type { Language } from './analysis.types';

export type { Node as SyntaxNode, Tree as SyntaxTree } from '@vscode/tree-sitter-wasm';

const GRAMMAR_FILES: Readonly<Record<Language, string>> = {
  python: 'tree-sitter-python.wasm',
  shell: 'tree-sitter-bash.wasm',
  javascript: 'tree-sitter-javascript.wasm',
  typescript: 'tree-sitter-typescript.wasm',
  // A separate grammar: `<T>x` assertions and generic arrows parse in .ts but not in .tsx.
  tsx: 'tree-sitter-tsx.wasm',
};

/** A parser per language; parse() is synchronous and the trees must be deleted after use. */
export class Grammars {
  private constructor(private readonly parsers: ReadonlyMap<Language, Parser>) {}

  static async load(): Promise<Grammars> {
    await Parser.init();
    const folder = dirname(require.resolve('@vscode/tree-sitter-wasm'));
    const parsers = new Map<Language, Parser>();
    for (const [language, file] of Object.entries(GRAMMAR_FILES) as [Language, string][]) {
      const parser = new Parser();
      parser.setLanguage(await Grammar.load(readFileSync(join(folder, file))));
      parsers.set(language, parser);
    }
    return new Grammars(parsers);
  }

  /** The syntax tree of `text`; the caller deletes it (WASM memory is not garbage-collected). */
  parse(language: Language, text: string): Tree {
    const tree = (this.parsers.get(language) as Parser).parse(text);
    if (!tree) throw new Error(`tree-sitter returned no tree for ${language}`);
    return tree;
  }
}

let loading: Promise<Grammars> | null = null;

/** The process's grammars, loaded on first use. */
export function loadGrammars(): Promise<Grammars> {
  loading ??= Grammars.load();
  return loading;
}
