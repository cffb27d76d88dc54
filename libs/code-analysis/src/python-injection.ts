/**
 * Injection vulnerabilities a tool's input reaches, found per function from its parameters: SQL
 * text built from a parameter (f-string, `+`, `%` or `.format`) and handed to a database's
 * `execute`, and a path built under a fixed base from a parameter and opened with nothing in the
 * function checking that it stays under that base (`../../etc/passwd` leaves it). A parameter of a
 * skill's function is what the model passes it, and so what a prompt injection controls.
 */
import type { SyntaxNode } from './grammars';
import type { PythonEvaluator } from './python-evaluator';
import type { PythonFindings } from './python-findings';
import { alternatives } from './python-values';
import { walk } from './syntax';

const SQL_METHODS = new Set(['execute', 'executemany', 'executescript']);
const SQL_TEXT = /^\s*(?:SELECT|INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|PRAGMA|WITH|MERGE|TRUNCATE)\b/i;
const OPENERS = new Set(['builtins.open', 'os.open', 'pathlib.Path', 'pathlib.PurePath', 'codecs.open']);
/** Calls that confine or inspect a path: a function that makes one is taken to check what it opens. */
const PATH_GUARDS =
  /(?:^|\.)(?:realpath|abspath|normpath|resolve|commonpath|commonprefix|is_relative_to|relative_to|basename|secure_filename|startswith|safe_join|isabs|is_absolute)$/;
const NOT_INPUT = new Set(['self', 'cls']);

/** A value built from a parameter, and the constant text it was built around. */
interface Built {
  node: SyntaxNode;
  literal: string;
  /** The constant that starts it is a path (`/…`, `~…`) or, for `os.path.join`, a constant base. */
  underBase: boolean;
}

export function injections(py: PythonEvaluator, findings: PythonFindings): void {
  for (const definition of py.root.descendantsOfType('function_definition')) {
    if (definition) new FunctionInputs(py, findings, definition).check();
  }
}

class FunctionInputs {
  private readonly inputs = new Set<string>();
  private readonly built = new Map<string, Built>();
  private readonly body: SyntaxNode | null;

  constructor(
    private readonly py: PythonEvaluator,
    private readonly findings: PythonFindings,
    definition: SyntaxNode,
  ) {
    this.body = definition.childForFieldName('body');
    for (const parameter of py.children(definition.childForFieldName('parameters') ?? definition)) {
      const name = py.parameterName(parameter);
      if (name?.type === 'identifier' && !NOT_INPUT.has(name.text)) this.inputs.add(name.text);
    }
  }

  check(): void {
    if (!this.body || this.inputs.size === 0) return;
    const calls: SyntaxNode[] = [];
    let guarded = false;
    // In source order, so a name carries its input from the assignment that gives it one.
    this.statements((node) => {
      if (node.type === 'assignment') this.assign(node);
      if (node.type === 'call') {
        calls.push(node);
        if (PATH_GUARDS.test(node.childForFieldName('function')?.text ?? '')) guarded = true;
      }
    });
    for (const call of calls) {
      const argument = this.py.children(call.childForFieldName('arguments') ?? call)[0];
      if (!argument || argument.type === 'keyword_argument') continue;
      const callee = call.childForFieldName('function');
      if (callee?.type === 'attribute' && SQL_METHODS.has(callee.childForFieldName('attribute')?.text ?? '')) {
        const sql = this.builtValue(argument);
        if (sql && SQL_TEXT.test(sql.literal))
          this.findings.issue(
            'injection',
            call,
            `Runs SQL built from the function's input (${this.py.text(sql.node).slice(0, 60)}): a value with a quote in it rewrites the query.`,
          );
      } else if (!guarded && callee && this.isOpener(callee)) {
        const path = this.builtValue(argument);
        if (path?.underBase)
          this.findings.issue(
            'injection',
            call,
            `Opens a path built under a fixed folder from the function's input, and nothing checks that it stays there: "../" leaves it.`,
          );
      }
    }
  }

  /** Visits the function's own statements (not those of functions defined inside it). */
  private statements(visit: (node: SyntaxNode) => void): void {
    walk(this.body as SyntaxNode, (node) => {
      if (node !== this.body && (node.type === 'function_definition' || node.type === 'lambda')) return false;
      visit(node);
      return true;
    });
  }

  private assign(node: SyntaxNode): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (left?.type !== 'identifier' || !right) return;
    const built = this.builtValue(right);
    if (built) this.built.set(left.text, built);
    else if (this.carriesInput(right)) this.inputs.add(left.text);
    else {
      this.inputs.delete(left.text);
      this.built.delete(left.text);
    }
  }

  /** A string or path built from the input around constant text, or null. */
  private builtValue(node: SyntaxNode): Built | null {
    if (node.type === 'identifier') return this.built.get(node.text) ?? null;
    if (node.type === 'parenthesized_expression') {
      const inner = this.py.children(node)[0];
      return inner ? this.builtValue(inner) : null;
    }
    if (!this.carriesInput(node)) return null;
    if (node.type === 'string' && node.children.some((child) => child?.type === 'interpolation')) {
      const literal = node.children
        .filter((child): child is SyntaxNode => child?.type === 'string_content')
        .map((child) => child.text)
        .join(' ');
      const start = node.children.find((child) => child?.type === 'string_content' || child?.type === 'interpolation');
      return { node, literal, underBase: start?.type === 'string_content' && /^[/~]/.test(start.text) };
    }
    if (node.type === 'binary_operator' && /^[+%]$/.test(node.childForFieldName('operator')?.text ?? '')) {
      const first = this.leftmost(node);
      const constant = this.constant(first);
      return constant === null ? null : { node, literal: constant, underBase: /^[/~]/.test(constant) };
    }
    if (node.type === 'call') {
      const callee = node.childForFieldName('function');
      const args = this.py.children(node.childForFieldName('arguments') ?? node);
      if (callee?.type === 'attribute' && callee.childForFieldName('attribute')?.text === 'format') {
        const constant = this.constant(callee.childForFieldName('object'));
        return constant === null ? null : { node, literal: constant, underBase: /^[/~]/.test(constant) };
      }
      if (callee && this.resolvesTo(callee, 'os.path.join')) {
        const base = this.constant(args[0] ?? null);
        return base === null ? null : { node, literal: base, underBase: true };
      }
    }
    if (node.type === 'binary_operator' && node.childForFieldName('operator')?.text === '/') {
      const base = this.constant(this.leftmost(node));
      return base === null ? null : { node, literal: base, underBase: true };
    }
    return null;
  }

  private leftmost(node: SyntaxNode): SyntaxNode | null {
    let current: SyntaxNode | null = node;
    while (current?.type === 'binary_operator') current = current.childForFieldName('left');
    return current;
  }

  /** The constant string a node evaluates to (a literal or a name bound to one), or null. */
  private constant(node: SyntaxNode | null): string | null {
    if (!node || this.carriesInput(node)) return null;
    if (node.type === 'call' && this.resolvesTo(node.childForFieldName('function'), 'pathlib.Path'))
      return this.constant(this.py.children(node.childForFieldName('arguments') ?? node)[0] ?? null);
    const value = this.py.evaluate(node);
    return value.kind === 'str' ? value.text : null;
  }

  private carriesInput(node: SyntaxNode): boolean {
    let found = false;
    walk(node, (child) => {
      if (found) return false;
      // `x.name` reads an attribute called name, not the variable.
      if (child.type === 'attribute') {
        const object = child.childForFieldName('object');
        if (object && this.carriesInput(object)) found = true;
        return false;
      }
      if (child.type === 'identifier' && (this.inputs.has(child.text) || this.built.has(child.text))) found = true;
      return !found;
    });
    return found;
  }

  private resolvesTo(callee: SyntaxNode | null, name: string): boolean {
    return callee !== null && this.names(callee).includes(name);
  }

  private isOpener(callee: SyntaxNode): boolean {
    return this.names(callee).some((name) => OPENERS.has(name));
  }

  private names(callee: SyntaxNode): string[] {
    return alternatives(this.py.evaluate(callee)).flatMap((option) => (option.kind === 'ref' ? [option.name] : []));
  }
}
