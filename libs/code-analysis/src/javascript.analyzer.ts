/**
 * The JavaScript and TypeScript analyser (MCP servers in bundles, Node scripts): the syntax tree
 * is collected once (javascript-program.ts), names are resolved through imports, requires,
 * aliases and bundler wrappers (javascript-values.ts), and the rules judge what the calls do
 * (javascript-rules.ts). Comments are text for the text checks, never code.
 */
import type { AnalyzerContext, LanguageAnalysis } from './analyzer-context';
import type { SyntaxNode } from './grammars';
import { collectProgram, stringValue, type JsProgram } from './javascript-program';
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
      const values = new JsValues(bundledModules(program), zx);
      new JsInspector(program, values, context, findings, root, text).run();
    }
    return { ...findings.result(), comments: program.comments };
  } finally {
    tree.delete();
  }
}

/**
 * The modules a bundle leaves to Node, by the id its loader calls them with: webpack and ncc wrap
 * `require("child_process")` as `2081: (module) => { module.exports = require("child_process") }`
 * and call `__webpack_require__(2081)`.
 */
function bundledModules(program: JsProgram): Map<string, string> {
  const modules = new Map<string, string>();
  for (const assignment of program.reexports) {
    const right = assignment.childForFieldName('right');
    const callee = right?.type === 'call_expression' ? right.childForFieldName('function') : null;
    const arg = right?.childForFieldName('arguments')?.namedChildren[0];
    const module = callee?.text === 'require' && arg ? stringValue(arg) : null;
    if (!module) continue;
    let node: SyntaxNode | null = assignment.parent;
    for (let depth = 0; node && depth < 6 && node.type !== 'pair'; depth++) node = node.parent;
    const key = node?.type === 'pair' ? node.childForFieldName('key') : null;
    if (key) modules.set(stringValue(key) ?? key.text, module);
  }
  return modules;
}
