/**
 * One pass over a JavaScript or TypeScript syntax tree that collects what the rules need: scopes
 * and the bindings declared in them (imports, requires, destructuring, parameters), the calls,
 * `new`s and member accesses to judge, and the comments. TypeScript's type-only code is skipped:
 * it never runs. Nothing is judged here; javascript-values.ts resolves, javascript-rules.ts judges.
 */
import type { CodeText } from './analysis.types';
import type { SyntaxNode } from './grammars';
import { lineOf, walk } from './syntax';

export interface Scope {
  start: number;
  end: number;
  parent: Scope | null;
  /** `var` and parameters belong to the nearest function scope; `let`, `const`, classes to the nearest. */
  isFunction: boolean;
  bindings: Map<string, Binding>;
}

export type Binding =
  /** `import x from 'm'` (`default`), `import * as x` (`*`), `import {a as x}` (`a`), `import x = require('m')`. */
  | { kind: 'import'; module: string; imported: string }
  /**
   * `const x = init`, `const {a: {b: x}} = init` (path `a.b`), `function x() {}` (init is the function),
   * later `x = other` (reassignments) and `x.k = v` (stores into the object it holds).
   */
  | {
      kind: 'value';
      init: SyntaxNode | null;
      scope: Scope;
      path: readonly PathKey[];
      assignments: Assignment[];
      stores: Use[];
    }
  /** Parameters, catch parameters, classes, a function expression's own name: values the analysis does not follow. */
  | { kind: 'local' };

/** A name bound to a value the analysis follows. */
export type ValueBinding = Extract<Binding, { kind: 'value' }>;

/** `x = v` (path empty), `({a: {b: x}} = v)` (path `a.b`), `x++`: what a name is given after its declaration. */
export interface Assignment {
  node: SyntaxNode;
  path: readonly PathKey[];
}

/** A member name in a destructuring path: a name, or the expression of a computed key (`{[k]: x}`). */
export type PathKey = string | SyntaxNode;

/** A node to judge, with the scope its names are looked up in. */
export interface Use {
  node: SyntaxNode;
  scope: Scope;
}

export interface JsProgram {
  root: Scope;
  calls: Use[];
  news: Use[];
  /** `x.y` and `x[y]` whose object is a name (the start of every chain such as `process.env.X`). */
  members: Use[];
  /** Every `x[y]`: a computed key on a module or a global is a way to hide what is called. */
  subscripts: Use[];
  /** The objects of `with (x) { … }`, which put every member of x in scope as a name. */
  withs: Use[];
  /** `...x` and `for (k in x)`: places that take every key of an object. */
  spreads: Use[];
  /** `const {A, B} = x`, `({A, B} = x)`: reads of several members at once. */
  patterns: Use[];
  /** `import … from 'm'`, `export … from 'm'`, `import 'm'`: the statement and its module. */
  imports: { node: SyntaxNode; module: string }[];
  /**
   * Assignments to `module.exports`, `module.exports.x` and `exports.x`: what a CommonJS module
   * exports, and how bundlers (webpack, ncc) wrap the modules they leave out (`module.exports = require('m')`).
   */
  exports: SyntaxNode[];
  /** `export …` statements that are not type-only. */
  esmExports: Use[];
  /** What each function returns, by the function's node id: its `return` values, or an arrow function's body. */
  returns: Map<number, Use[]>;
  comments: CodeText[];
  /** Identifiers written with `\u` escapes or with characters outside ASCII. */
  strangeNames: SyntaxNode[];
  /** `![]`, `+[]`, `!![]`: the atoms of JSFuck-style code. */
  fuckAtoms: SyntaxNode[];
}

/** Subtrees that are types only and never run. */
const TYPE_ONLY = new Set([
  'type_annotation',
  'type_alias_declaration',
  'interface_declaration',
  'ambient_declaration',
  'type_arguments',
  'type_parameters',
  'type_predicate_annotation',
  'asserts_annotation',
  'implements_clause',
  'abstract_method_signature',
  'index_signature',
  'opting_type_annotation',
  'omitting_type_annotation',
  // Types written inside expressions (`x as typeof import('fs')`, `<T>y`).
  'type_query',
  'generic_type',
  'object_type',
  'union_type',
  'intersection_type',
  'function_type',
  'constructor_type',
  'conditional_type',
  'lookup_type',
  'index_type_query',
  'template_literal_type',
  'parenthesized_type',
  'tuple_type',
  'array_type',
  'readonly_type',
]);

const FUNCTION_SCOPES = new Set([
  'function_declaration',
  'function_expression',
  'function',
  'generator_function',
  'generator_function_declaration',
  'arrow_function',
  'method_definition',
]);

const BLOCK_SCOPES = new Set([
  'statement_block',
  'for_statement',
  'for_in_statement',
  'catch_clause',
  'class_body',
  'switch_body',
]);

/** Array methods whose callback is given each item first. */
const ITERATORS = new Set(['forEach', 'map', 'flatMap', 'filter', 'find', 'findLast', 'findIndex', 'some', 'every']);

const IDENTIFIERS = new Set([
  'identifier',
  'property_identifier',
  'shorthand_property_identifier',
  'shorthand_property_identifier_pattern',
  'private_property_identifier',
]);

/** The name an identifier stands for: `\u0065val` is `eval`. */
export function identifierName(node: SyntaxNode): string {
  const text = node.text;
  if (!text.includes('\\')) return text;
  return text.replace(
    /\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})/g,
    (_, braced: string | undefined, plain: string | undefined) =>
      String.fromCodePoint(parseInt(braced ?? plain ?? '0', 16)),
  );
}

/** The text of a string literal's value, or null when the node is not a plain string literal. */
export function stringValue(node: SyntaxNode): string | null {
  if (node.type !== 'string') return null;
  let value = '';
  for (const child of node.namedChildren) {
    if (!child) continue;
    value += child.type === 'escape_sequence' ? unescapeJs(child.text) : child.text;
  }
  return value;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
  v: '\v',
  0: '\0',
};

export function unescapeJs(escape: string): string {
  const body = escape.slice(1);
  if (/^x[0-9a-fA-F]{2}$/.test(body)) return String.fromCharCode(parseInt(body.slice(1), 16));
  if (/^u[0-9a-fA-F]{4}$/.test(body)) return String.fromCharCode(parseInt(body.slice(1), 16));
  if (/^u\{[0-9a-fA-F]+\}$/.test(body)) return String.fromCodePoint(parseInt(body.slice(2, -1), 16));
  if (/^[0-7]{1,3}$/.test(body) && body !== '0') return String.fromCharCode(parseInt(body, 8));
  if (body.startsWith('\n') || body.startsWith('\r')) return '';
  return SIMPLE_ESCAPES[body] ?? body;
}

export function collectProgram(tree: SyntaxNode, source: string): JsProgram {
  const root: Scope = { start: 0, end: Number.MAX_SAFE_INTEGER, parent: null, isFunction: true, bindings: new Map() };
  const program: JsProgram = {
    root,
    calls: [],
    news: [],
    members: [],
    subscripts: [],
    withs: [],
    spreads: [],
    patterns: [],
    imports: [],
    exports: [],
    esmExports: [],
    returns: new Map(),
    comments: [],
    strangeNames: [],
    fuckAtoms: [],
  };
  // Cheap looks at the whole text decide whether the rare checks need to look at nodes at all.
  const checkNames = /\\u[0-9a-fA-F{]|[\u0080-\uFFFF]/.test(source);
  const checkFuck = (source.match(/!!?\[\]|\+\[\]/g)?.length ?? 0) >= 8;
  const stack: Scope[] = [root];
  const scopeAt = (node: SyntaxNode): Scope => {
    const start = node.startIndex;
    while (stack.length > 1 && (stack[stack.length - 1] as Scope).end <= start) stack.pop();
    return stack[stack.length - 1] as Scope;
  };
  const functionScope = (scope: Scope): Scope => {
    let current: Scope = scope;
    while (!current.isFunction && current.parent) current = current.parent;
    return current;
  };
  const bind = (scope: Scope, name: string, binding: Binding): void => {
    if (!scope.bindings.has(name) || binding.kind !== 'local') scope.bindings.set(name, binding);
  };
  const bindPattern = (
    pattern: SyntaxNode | null,
    scope: Scope,
    make: (path: PathKey[]) => Binding,
    path: PathKey[] = [],
  ): void => {
    if (!pattern) return;
    switch (pattern.type) {
      case 'identifier':
        bind(scope, identifierName(pattern), make(path));
        return;
      case 'shorthand_property_identifier_pattern': {
        const name = identifierName(pattern);
        bind(scope, name, make([...path, name]));
        return;
      }
      case 'required_parameter':
      case 'optional_parameter':
        bindPattern(pattern.childForFieldName('pattern'), scope, make, path);
        return;
      case 'assignment_pattern':
      case 'object_assignment_pattern':
        bindPattern(pattern.childForFieldName('left'), scope, make, path);
        return;
      case 'rest_pattern':
        bindPattern(pattern.namedChildren[0] ?? null, scope, make, [...path, '...']);
        return;
      case 'pair_pattern': {
        const key = pattern.childForFieldName('key');
        const name = !key
          ? '*'
          : key.type === 'computed_property_name'
            ? (key.namedChildren[0] ?? '*')
            : (stringValue(key) ?? identifierName(key));
        bindPattern(pattern.childForFieldName('value'), scope, make, [...path, name]);
        return;
      }
      case 'object_pattern':
        for (const child of pattern.namedChildren) bindPattern(child, scope, make, path);
        return;
      case 'array_pattern':
        pattern.namedChildren.forEach((child, i) => bindPattern(child, scope, make, [...path, String(i)]));
        return;
      default:
        return;
    }
  };
  const local = (): Binding => ({ kind: 'local' });
  const valueBinding = (init: SyntaxNode | null, scope: Scope, path: PathKey[] = []): ValueBinding => ({
    kind: 'value',
    init,
    scope,
    path,
    assignments: [],
    stores: [],
  });
  const returned = (fn: SyntaxNode, use: Use): void => {
    const list = program.returns.get(fn.id);
    if (list) list.push(use);
    else program.returns.set(fn.id, [use]);
  };
  const callbacks = new Map<number, { init: SyntaxNode; scope: Scope; path: PathKey[] }>();

  walk(tree, (node) => {
    const type = node.type;
    if (type === 'comment') {
      program.comments.push({ line: lineOf(node), text: node.text });
      return false;
    }
    if (TYPE_ONLY.has(type)) return false;
    if (checkNames && IDENTIFIERS.has(type)) {
      const text = node.text;
      if (text.includes('\\') || /[\u0080-\uFFFF]/.test(text)) program.strangeNames.push(node);
      return;
    }
    if (FUNCTION_SCOPES.has(type) || BLOCK_SCOPES.has(type)) {
      const outer = scopeAt(node);
      const name = node.childForFieldName('name');
      if (name && (type === 'function_declaration' || type === 'generator_function_declaration'))
        bind(outer, identifierName(name), valueBinding(node, outer));
      const scope: Scope = {
        start: node.startIndex,
        end: node.endIndex,
        parent: outer,
        isFunction: FUNCTION_SCOPES.has(type),
        bindings: new Map(),
      };
      stack.push(scope);
      if (name && (type === 'function_expression' || type === 'generator_function'))
        bind(scope, identifierName(name), local());
      // `import('m').then((m) => …)`: the parameter is what the promise resolves to; `[a, b].forEach((f) => …)`: an item.
      const resolved = callbacks.get(node.id);
      if (resolved) {
        const parameters = node.childForFieldName('parameters')?.namedChildren ?? [node.childForFieldName('parameter')];
        bindPattern(parameters[0] ?? null, scope, (path) =>
          valueBinding(resolved.init, resolved.scope, [...resolved.path, ...path]),
        );
      }
      if (type === 'arrow_function') {
        bindPattern(node.childForFieldName('parameter'), scope, local);
        const body = node.childForFieldName('body');
        if (body && body.type !== 'statement_block') returned(node, { node: body, scope });
      }
      if (type === 'catch_clause') bindPattern(node.childForFieldName('parameter'), scope, local);
      if (type === 'for_in_statement') {
        const left = node.childForFieldName('left');
        if (node.childForFieldName('kind')) bindPattern(left, scope, local);
        const right = node.childForFieldName('right');
        if (right && node.childForFieldName('operator')?.type === 'in') program.spreads.push({ node: right, scope });
      }
      return;
    }
    switch (type) {
      case 'formal_parameters': {
        const scope = scopeAt(node);
        for (const parameter of node.namedChildren) bindPattern(parameter, scope, local);
        return;
      }
      case 'class_declaration': {
        const name = node.childForFieldName('name');
        if (name) bind(scopeAt(node), identifierName(name), local());
        return;
      }
      case 'variable_declarator': {
        const scope = scopeAt(node);
        const isVar = node.parent?.type === 'variable_declaration';
        const name = node.childForFieldName('name');
        const init = node.childForFieldName('value');
        const target = isVar ? functionScope(scope) : scope;
        bindPattern(name, target, (path) => valueBinding(init, scope, path));
        if (name && name.type !== 'identifier' && init) program.patterns.push({ node, scope });
        return;
      }
      case 'assignment_expression': {
        const left = node.childForFieldName('left');
        if (left?.type === 'identifier' || left?.type === 'object_pattern' || left?.type === 'array_pattern') {
          const scope = scopeAt(node);
          // The names the target binds, with their paths, collected apart and then given to their bindings.
          const targets: Scope = { ...scope, bindings: new Map() };
          bindPattern(left, targets, (path) => valueBinding(null, scope, path));
          for (const [name, target] of targets.bindings) {
            const assignment = { node, path: target.kind === 'value' ? target.path : [] };
            const binding = lookup(scope, name);
            if (binding?.kind === 'value') binding.assignments.push(assignment);
            else if (!binding) bind(root, name, { ...valueBinding(null, scope), assignments: [assignment] });
          }
          if (left.type !== 'identifier') program.patterns.push({ node, scope });
        } else if (left?.type === 'member_expression' || left?.type === 'subscript_expression') {
          const object = left.childForFieldName('object');
          const scope = scopeAt(node);
          const binding = object?.type === 'identifier' ? lookup(scope, identifierName(object)) : null;
          if (isExportsTarget(left)) program.exports.push(node);
          else if (binding?.kind === 'value') binding.stores.push({ node, scope });
        }
        return;
      }
      case 'update_expression':
      case 'augmented_assignment_expression': {
        // `i++`, `s += x`: the name no longer holds its first value.
        const target = node.childForFieldName(type === 'update_expression' ? 'argument' : 'left');
        const binding = target?.type === 'identifier' ? lookup(scopeAt(node), identifierName(target)) : null;
        if (binding?.kind === 'value') binding.assignments.push({ node, path: [] });
        return;
      }
      case 'import_statement': {
        if (node.children.some((child) => child?.type === 'type')) return false;
        const source = node.childForFieldName('source');
        const requireClause = node.namedChildren.find((child) => child?.type === 'import_require_clause');
        const module = source
          ? stringValue(source)
          : requireClause
            ? stringValue(requireClause.childForFieldName('source') ?? requireClause)
            : null;
        if (module === null) return false;
        program.imports.push({ node, module });
        if (requireClause) {
          const name = requireClause.namedChildren.find((child) => child?.type === 'identifier');
          if (name) bind(root, identifierName(name), { kind: 'import', module, imported: '*' });
          return false;
        }
        const clause = node.namedChildren.find((child) => child?.type === 'import_clause');
        for (const part of clause?.namedChildren ?? []) {
          if (!part) continue;
          if (part.type === 'identifier')
            bind(root, identifierName(part), { kind: 'import', module, imported: 'default' });
          else if (part.type === 'namespace_import') {
            const name = part.namedChildren.find((child) => child?.type === 'identifier');
            if (name) bind(root, identifierName(name), { kind: 'import', module, imported: '*' });
          } else if (part.type === 'named_imports') {
            for (const specifier of part.namedChildren) {
              if (
                !specifier ||
                specifier.type !== 'import_specifier' ||
                specifier.children.some((child) => child?.type === 'type')
              )
                continue;
              const imported = specifier.childForFieldName('name');
              const alias = specifier.childForFieldName('alias') ?? imported;
              if (!imported || !alias) continue;
              const importedName = stringValue(imported) ?? identifierName(imported);
              bind(root, identifierName(alias), { kind: 'import', module, imported: importedName });
            }
          }
        }
        return false;
      }
      case 'export_statement': {
        if (node.children.some((child) => child?.type === 'type')) return false;
        const source = node.childForFieldName('source');
        const module = source ? stringValue(source) : null;
        if (module !== null) program.imports.push({ node, module });
        program.esmExports.push({ node, scope: scopeAt(node) });
        return;
      }
      case 'return_statement': {
        const argument = node.namedChildren.find((child) => child?.type !== 'comment');
        const fn = argument ? enclosingFunction(node) : null;
        if (argument && fn) returned(fn, { node: argument, scope: scopeAt(node) });
        return;
      }
      case 'call_expression': {
        const scope = scopeAt(node);
        program.calls.push({ node, scope });
        const callee = node.childForFieldName('function');
        const method = callee?.type === 'member_expression' ? callee.childForFieldName('property')?.text : undefined;
        if (method === 'then' || (method && ITERATORS.has(method))) {
          const callback = node.childForFieldName('arguments')?.namedChildren[0];
          const init = callee?.childForFieldName('object');
          if (callback && init && FUNCTION_SCOPES.has(callback.type))
            callbacks.set(callback.id, { init, scope, path: method === 'then' ? [] : ['*'] });
        }
        return;
      }
      case 'new_expression':
        program.news.push({ node, scope: scopeAt(node) });
        return;
      case 'member_expression': {
        const object = node.childForFieldName('object');
        if (object?.type === 'identifier') program.members.push({ node, scope: scopeAt(node) });
        return;
      }
      case 'subscript_expression': {
        const use = { node, scope: scopeAt(node) };
        program.subscripts.push(use);
        if (node.childForFieldName('object')?.type === 'identifier') program.members.push(use);
        return;
      }
      case 'spread_element':
        program.spreads.push({ node, scope: scopeAt(node) });
        return;
      case 'with_statement': {
        const object = node.childForFieldName('object');
        if (object) program.withs.push({ node: object, scope: scopeAt(node) });
        return;
      }
      case 'unary_expression':
        if (checkFuck && /^(?:!!?|\+)\[\]$/.test(node.text)) program.fuckAtoms.push(node);
        return;
      default:
        return;
    }
  });
  return program;
}

/** `module.exports`, `module.exports.x`, `exports.x`, `exports['x']`. */
function isExportsTarget(node: SyntaxNode): boolean {
  if (node.text === 'module.exports') return node.type === 'member_expression';
  if (node.type !== 'member_expression' && node.type !== 'subscript_expression') return false;
  const object = node.childForFieldName('object');
  return object?.type === 'identifier' ? object.text === 'exports' : object?.text === 'module.exports';
}

/** The function a `return` belongs to. */
function enclosingFunction(node: SyntaxNode): SyntaxNode | null {
  for (let current = node.parent; current; current = current.parent)
    if (FUNCTION_SCOPES.has(current.type)) return current;
  return null;
}

/** The binding `name` has in `scope` or an enclosing one, or null for a global. */
export function lookup(scope: Scope, name: string): Binding | null {
  for (let current: Scope | null = scope; current; current = current.parent) {
    const binding = current.bindings.get(name);
    if (binding) return binding;
  }
  return null;
}

/**
 * The modules a bundle leaves to Node, by the id its loader calls them with: webpack and ncc wrap
 * `require("child_process")` as `2081: (module) => { module.exports = require("child_process") }`
 * and call `__webpack_require__(2081)`.
 */
export function bundledModules(program: JsProgram): Map<string, string> {
  const modules = new Map<string, string>();
  for (const assignment of program.exports) {
    if (assignment.childForFieldName('left')?.text !== 'module.exports') continue;
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
