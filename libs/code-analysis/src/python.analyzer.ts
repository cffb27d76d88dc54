/**
 * The Python analyser: reads a file as the interpreter would (coding cookie, universal newlines,
 * NFKC identifiers), parses it with tree-sitter and derives, with imports and aliases resolved,
 * every capability it uses and every shape the certifier refuses. Comments and docstrings are
 * returned as text for the text checks; they are never read as code.
 */
import type { CodeText } from './analysis.types';
import type { AnalyzerContext, LanguageAnalysis } from './analyzer-context';
import type { SyntaxNode } from './grammars';
import { PythonEvaluator } from './python-evaluator';
import { PythonFindings } from './python-findings';
import { injections } from './python-injection';
import { splitStringLiteral } from './python-literals';
import { PythonNames } from './python-names';
import { FOLLOWED_BUILTINS, NATIVE_MODULES, canonicalName, followedMembers, isFollowed } from './python-rules';
import { foreignCodingCookie, universalNewlines } from './python-source';
import { PythonUses } from './python-uses';
import { firstSyntaxError, lineOf } from './syntax';

/** The node types read from the whole tree; everything else is reached from the names that matter. */
const SCANNED_TYPES = [
  'function_definition',
  'class_definition',
  'lambda',
  'comment',
  'import_statement',
  'import_from_statement',
  'print_statement',
  'exec_statement',
];

export function analyzePython(text: string, context: AnalyzerContext): LanguageAnalysis {
  const findings = new PythonFindings(context.path, text);
  const cookie = foreignCodingCookie(text);
  if (cookie)
    findings.sourceIssue(
      'obfuscation',
      cookie.line,
      `Declares the source encoding ${cookie.name}: the interpreter decodes the file differently from what a reader sees.`,
      text.split('\n')[cookie.line - 1] ?? '',
    );
  const source = universalNewlines(text);
  const tree = context.grammars.parse('python', source);
  const comments: CodeText[] = [];
  try {
    const root = tree.rootNode;
    const scanned = root.descendantsOfType(SCANNED_TYPES).filter((node): node is SyntaxNode => node !== null);
    const scopes = scanned.filter(
      (node) => node.type === 'function_definition' || node.type === 'class_definition' || node.type === 'lambda',
    );
    const names = new PythonNames(source, root, scopes);
    const py = new PythonEvaluator(source, root, names, findings, (command, line) => context.shell(command, line));
    const uses = new PythonUses(py);
    readSyntax(source, root, scanned, findings);
    endlessLoops(root, findings);
    for (const node of scanned) {
      // tree-sitter keeps the `\r` of a CRLF line end inside the comment.
      if (node.type === 'comment') comments.push({ line: lineOf(node), text: py.text(node).replace(/\r$/, '') });
      if (node.type === 'import_statement' || node.type === 'import_from_statement') {
        for (const { name, target } of names.addImport(node, canonicalName)) {
          if (NATIVE_MODULES.has(target.split('.')[0] as string))
            findings.issue('native-code', node, `Imports ${target}, which calls native code.`);
          if (isFollowed(target)) uses.follow(name);
        }
      }
    }
    for (const { module, node } of names.starImports) {
      if (NATIVE_MODULES.has(module.split('.')[0] as string))
        findings.issue('native-code', node, `Imports ${module}, which calls native code.`);
      for (const member of followedMembers(module)) uses.follow(member);
    }
    for (const { node, name } of names.foreignIdentifiers) {
      const written = py.text(node);
      const reads = written === name ? '' : ` (Python reads it as ${name})`;
      findings.issue('obfuscation', node, `Writes the identifier ${written} with non-ASCII characters${reads}.`);
    }
    for (const name of FOLLOWED_BUILTINS) uses.follow(name);
    uses.run();
    uses.credentialStrings();
    injections(py, findings);
    comments.push(...docstrings(root, scopes, py));
  } finally {
    tree.delete();
  }
  comments.sort((a, b) => a.line - b.line);
  return { ...findings.finish(), comments };
}

/** A file that does not parse as Python 3 (Python 2 included) proves nothing. */
function readSyntax(source: string, root: SyntaxNode, scanned: readonly SyntaxNode[], findings: PythonFindings): void {
  const error = firstSyntaxError(root);
  const python2 = scanned.find((node) => node.type === 'print_statement' || node.type === 'exec_statement');
  const at = error ?? python2;
  if (!at) return;
  const line = lineOf(at);
  const message = error
    ? 'The file does not parse as Python 3, so nothing about it can be proven.'
    : 'The file is Python 2 code, which Python 3 cannot run or the analyser prove.';
  findings.sourceIssue('unparsable', line, message, source.split('\n', line)[line - 1] ?? '');
}

/** Ways out of a loop's body; a nested function or class is left out (its exits are its own). */
const LOOP_EXITS = new Set(['break_statement', 'return_statement', 'raise_statement', 'yield', 'await']);
const EXIT_CALLS = /^(?:sys\.exit|exit|quit|os\._exit|os\.abort)$/;

/**
 * `while True:` (or any constant true condition) whose body has no way out: whatever calls it never
 * gets an answer. When it cannot wait for anything either, it is a busy loop that holds a CPU.
 */
function endlessLoops(root: SyntaxNode, findings: PythonFindings): void {
  const functions = new Map<string, SyntaxNode>();
  for (const definition of root.namedChildren) {
    const name = definition?.type === 'function_definition' ? definition.childForFieldName('name')?.text : undefined;
    if (definition && name) functions.set(name, definition);
  }
  for (const loop of root.descendantsOfType('while_statement')) {
    const condition = loop?.childForFieldName('condition');
    if (!loop || !condition || !/^(?:True|1|\(True\)|not False)$/.test(condition.text)) continue;
    const body = loop.childForFieldName('body');
    if (!body || hasExit(body) || leftByException(loop, body)) continue;
    if (waitsFor(body, functions, new Set()))
      findings.issue('endless-loop', loop, 'Loops forever: nothing in the loop breaks, returns, raises or exits.');
    else
      findings.issue(
        'busy-loop',
        loop,
        'Loops forever without waiting for anything: nothing in the loop breaks, returns, raises or exits, and it calls only code that returns at once.',
      );
  }
}

/**
 * A loop inside a `try` that handles exceptions, calling something that can raise: the exception
 * is its way out (`while True: img.seek(n)` until `except EOFError`).
 */
function leftByException(loop: SyntaxNode, body: SyntaxNode): boolean {
  if (body.descendantsOfType('call').length === 0) return false;
  for (let node = loop.parent; node && node.type !== 'function_definition'; node = node.parent) {
    if (
      node.type === 'block' &&
      node.parent?.type === 'try_statement' &&
      node.parent.childForFieldName('body')?.id === node.id
    )
      return node.parent.namedChildren.some(
        (child) => child?.type === 'except_clause' || child?.type === 'except_group_clause',
      );
  }
  return false;
}

/** Builtins and methods that compute and return: a loop of nothing else waits for no work. */
const PURE_CALLS = new Set(
  (
    'abs all any bool bytes chr dict divmod enumerate filter float format frozenset hash hex int isinstance len ' +
    'list map max min oct ord pow range repr reversed round set sorted str sum tuple zip ' +
    'append extend add update insert copy count index keys values items strip split join lower upper replace'
  ).split(' '),
);

/**
 * Whether a loop body can wait for something: it calls code outside the file (or a method the
 * analyser cannot see into), directly or through the file's own top-level functions.
 */
function waitsFor(node: SyntaxNode, functions: ReadonlyMap<string, SyntaxNode>, seen: Set<string>): boolean {
  for (const call of node.descendantsOfType('call')) {
    const callee = call?.childForFieldName('function');
    if (!callee) continue;
    const name = callee.type === 'attribute' ? callee.childForFieldName('attribute')?.text : callee.text;
    if (!name) return true;
    const local = callee.type === 'identifier' ? functions.get(name) : undefined;
    if (local) {
      if (seen.has(name)) continue;
      seen.add(name);
      if (waitsFor(local, functions, seen)) return true;
    } else if (!PURE_CALLS.has(name)) return true;
  }
  return false;
}

function hasExit(node: SyntaxNode): boolean {
  for (const child of node.namedChildren) {
    if (!child || /^(?:function_definition|class_definition|lambda)$/.test(child.type)) continue;
    if (LOOP_EXITS.has(child.type)) return true;
    if (child.type === 'call' && EXIT_CALLS.test(child.childForFieldName('function')?.text ?? '')) return true;
    // A `break` inside an inner loop leaves only that loop.
    if ((child.type === 'while_statement' || child.type === 'for_statement') && !hasExitBeyondBreak(child)) continue;
    if (hasExit(child)) return true;
  }
  return false;
}

/** An inner loop's body leaves the outer loop only by return, raise, yield, await or an exit call. */
function hasExitBeyondBreak(loop: SyntaxNode): boolean {
  const body = loop.childForFieldName('body');
  if (!body) return false;
  const walk = (node: SyntaxNode): boolean =>
    node.namedChildren.some(
      (child) =>
        child !== null &&
        !/^(?:function_definition|class_definition|lambda)$/.test(child.type) &&
        ((LOOP_EXITS.has(child.type) && child.type !== 'break_statement') ||
          (child.type === 'call' && EXIT_CALLS.test(child.childForFieldName('function')?.text ?? '')) ||
          walk(child)),
    );
  return walk(body);
}

/** Module, class and function docstrings: the first statement of each body when it is a string. */
function docstrings(root: SyntaxNode, scopes: readonly SyntaxNode[], py: PythonEvaluator): CodeText[] {
  const texts: CodeText[] = [];
  const bodies = [
    root,
    ...scopes.filter((node) => node.type !== 'lambda').map((node) => node.childForFieldName('body')),
  ];
  for (const body of bodies) {
    let first = body?.firstNamedChild ?? null;
    while (first?.type === 'comment') first = first.nextNamedSibling;
    const literal = first?.type === 'expression_statement' ? first.firstNamedChild : null;
    if (!literal || (literal.type !== 'string' && literal.type !== 'concatenated_string') || literal.nextNamedSibling)
      continue;
    const parts = literal.type === 'concatenated_string' ? py.children(literal) : [literal];
    texts.push({
      line: lineOf(literal),
      text: parts.map((part) => splitStringLiteral(py.text(part))?.body ?? '').join(''),
    });
  }
  return texts;
}
