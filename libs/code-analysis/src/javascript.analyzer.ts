/**
 * The JavaScript and TypeScript analyser (MCP servers in bundles, Node scripts): the syntax tree
 * is collected once (javascript-program.ts), names are resolved through imports (of the
 * bundle's own modules too, javascript-modules.ts), requires, aliases, calls through `call`,
 * `apply`, `bind` and Reflect, and bundler wrappers (javascript-values.ts), and the rules judge
 * what the calls do (javascript-rules.ts, node-sinks.ts). Comments are text for the text checks,
 * never code.
 */
import type { AnalyzerContext, LanguageAnalysis } from './analyzer-context';
import { bundledModules, collectProgram } from './javascript-program';
import { localModule } from './javascript-modules';
import { JsInspector } from './javascript-rules';
import { JsValues } from './javascript-values';
import { Findings } from './findings';
import { firstSyntaxError, lineOf } from './syntax';

export function analyzeJavaScript(
  text: string,
  context: AnalyzerContext,
  language: 'javascript' | 'typescript' | 'tsx',
): LanguageAnalysis {
  const findings = new Findings(context.path);
  const tree = context.grammars.parse(language, text);
  try {
    const root = tree.rootNode;
    const program = collectProgram(root, text);
    const error = firstSyntaxError(root);
    if (error) {
      const line = lineOf(error);
      const message = `The file does not parse as ${language === 'javascript' ? 'JavaScript' : 'TypeScript'}, so nothing about it can be proven.`;
      findings.issue('unparsable', line, message, text.split('\n')[line - 1] ?? '');
    } else {
      const zx = /^#!.*\bzx\b/.test(text) || program.imports.some(({ module }) => module === 'zx/globals');
      const modules = context.localModules;
      const local = modules ? (specifier: string) => localModule(modules, context.path, specifier) : undefined;
      const values = new JsValues(bundledModules(program), zx, program.returns, local);
      new JsInspector(program, values, context, findings, root, text).run();
    }
    return { ...findings.result(), comments: program.comments };
  } finally {
    tree.delete();
  }
}
