/**
 * Evaluates Python expressions to abstract values: names through their bindings, attributes and
 * calls to qualified names (`(o).system` is `os.system` after `import os as o`), constants folded.
 * Calls to names the rules know are interpreted as they are evaluated; each node is evaluated
 * once, so what it proves is recorded once.
 */
import type { ShellCommandAnalysis } from './analysis.types';
import { CallSite, type Argument, type ArgumentList, type Interpreter } from './python-call-site';
import type { SyntaxNode } from './grammars';
import type { PythonFindings } from './python-findings';
import {
  braceFormat,
  decodeEscapes,
  parseInteger,
  percentFormat,
  splitStringLiteral,
  type StringLiteral,
} from './python-literals';
import type { Binding, PythonNames, Scope } from './python-names';
import { environmentValue, joinPaths, parentOf, pathCredential, pathOf } from './python-paths';
import { NATIVE_MODULES, canonicalName, isFollowed, ruleFor, type Rule } from './python-rules';
import {
  DECODED,
  UNKNOWN,
  alternatives,
  combinations,
  constantStrings,
  elementsOf,
  itemAt,
  ref,
  str,
  taintOf,
  union,
  unknown,
  type PathInfo,
  type Value,
} from './python-values';

/** Nesting beyond which an expression is taken as computed (deep nesting only serves to hide). */
const MAX_DEPTH = 120;
const MAX_ITEMS = 256;
const MAX_FOLDED_LENGTH = 100_000;

/** Builtins whose names resolve to `builtins.<name>` when nothing in the file binds them. */
const BUILTIN_NAMES = new Set(
  (
    'abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex ' +
    'delattr dict dir divmod enumerate eval exec execfile filter float format frozenset getattr globals hasattr hash ' +
    'help hex id input int isinstance issubclass iter len list locals map max memoryview min next object oct open ' +
    'ord pow print property range reload repr reversed round set setattr slice sorted staticmethod str sum super ' +
    'tuple type vars zip __import__ __build_class__'
  ).split(' '),
);

/** Attributes of stdlib modules that are modules themselves (`subprocess.os` is `os`). */
const REEXPORTED_MODULES: ReadonlyMap<string, string> = new Map([
  ['os', 'os'],
  ['_os', 'os'],
  ['sys', 'sys'],
  ['_sys', 'sys'],
  ['builtins', 'builtins'],
  ['__builtins__', 'builtins'],
  ['subprocess', 'subprocess'],
  ['importlib', 'importlib'],
  ['ctypes', 'ctypes'],
  ['socket', 'socket'],
  ['pty', 'pty'],
]);

/**
 * Namespaces whose members can be looked up by a string (`globals()["x"]`, `sys.modules["os"]`,
 * a module's `__dict__`; an object's `__dict__` holds its own attributes, not code).
 */
const isNamespaceDict = (name: string): boolean =>
  name === 'builtins' ||
  name === 'sys.modules' ||
  name === 'builtins.globals()' ||
  name === 'builtins.locals()' ||
  (name.endsWith('.__dict__') && !name.includes('('));

const STORE_PARENTS = new Set(['assignment', 'augmented_assignment']);

/** Top-level statements that run code when the module loads (definitions and imports only bind names). */
function runsOnLoad(statement: SyntaxNode, py: PythonEvaluator): boolean {
  const type = statement.type;
  if (type === 'function_definition' || type.endsWith('import_statement')) return false;
  if (type !== 'expression_statement') return true;
  const first = py.children(statement)[0];
  return first?.type !== 'string' && first?.type !== 'concatenated_string';
}

export class PythonEvaluator implements Interpreter {
  private readonly memo = new Map<number, Value>();
  private readonly lookups = new Map<string, Value>();
  private readonly bound = new Map<string, Value>();
  private readonly argumentLists = new Map<number, ArgumentList>();
  private depth = 0;
  private reachBefore: number | null = null;

  constructor(
    readonly source: string,
    readonly root: SyntaxNode,
    readonly names: PythonNames,
    readonly findings: PythonFindings,
    /** The shell analyser, for constant command lines. */
    readonly shell: (command: string, line: number) => ShellCommandAnalysis,
  ) {}

  evaluate(node: SyntaxNode): Value {
    const cached = this.memo.get(node.id);
    if (cached) return cached;
    if (this.depth >= MAX_DEPTH) {
      // Past this depth nothing is followed, so what the expression reaches cannot be proven.
      this.findings.issue('obfuscation', node, `Nests an expression more than ${MAX_DEPTH} levels deep.`);
      return UNKNOWN;
    }
    this.memo.set(node.id, UNKNOWN);
    this.depth++;
    try {
      const value = this.compute(node);
      this.memo.set(node.id, value);
      return value;
    } finally {
      this.depth--;
    }
  }

  argumentValue(argument: Argument): Value {
    return 'node' in argument ? this.evaluate(argument.node) : argument.value;
  }

  text(node: SyntaxNode): string {
    return this.source.slice(node.startIndex, node.endIndex);
  }

  /** Named children without the comments tree-sitter places among them. */
  children(node: SyntaxNode): SyntaxNode[] {
    return node.namedChildren.filter((child): child is SyntaxNode => child !== null && child.type !== 'comment');
  }

  private compute(node: SyntaxNode): Value {
    switch (node.type) {
      case 'identifier': {
        const comprehension = this.names.comprehensionBinding(node);
        if (comprehension) return this.bindingValue(comprehension);
        return this.lookup(this.names.nameOf(node), this.names.scopeAt(node.startIndex), node.startIndex);
      }
      case 'attribute':
        return this.attribute(node);
      case 'call':
        return this.call(node);
      case 'subscript':
        return this.subscript(node);
      case 'string':
        return this.string(node);
      case 'concatenated_string':
        return this.concatenate(this.children(node).map((part) => this.evaluate(part)));
      case 'integer': {
        const value = parseInteger(this.text(node));
        return value === null ? UNKNOWN : { kind: 'int', value };
      }
      case 'true':
        return { kind: 'const', value: true };
      case 'false':
        return { kind: 'const', value: false };
      case 'none':
        return { kind: 'const', value: null };
      case 'parenthesized_expression':
      case 'await': {
        let inner: SyntaxNode | undefined = node;
        while (inner && (inner.type === 'parenthesized_expression' || inner.type === 'await'))
          inner = this.children(inner)[0];
        return inner ? this.evaluate(inner) : UNKNOWN;
      }
      case 'conditional_expression': {
        const [consequence, , alternative] = this.children(node);
        return union([consequence, alternative].map((part) => (part ? this.evaluate(part) : UNKNOWN)));
      }
      case 'boolean_operator':
        return union(this.operands(node, 'boolean_operator').map((part) => this.evaluate(part)));
      case 'binary_operator':
        return this.binary(node);
      case 'unary_operator': {
        const operand = node.childForFieldName('argument');
        const value = operand ? this.evaluate(operand) : UNKNOWN;
        return node.childForFieldName('operator')?.type === '-' && value.kind === 'int'
          ? { kind: 'int', value: -value.value }
          : unknown(taintOf(value));
      }
      case 'list':
      case 'tuple':
      case 'set':
      case 'expression_list':
        return this.sequence(node);
      case 'dictionary':
        return this.dictionary(node);
      case 'named_expression': {
        const value = node.childForFieldName('value');
        return value ? this.evaluate(value) : UNKNOWN;
      }
      case 'assignment': {
        const right = node.childForFieldName('right');
        return right ? this.evaluate(right) : UNKNOWN;
      }
      case 'generator_expression':
      case 'list_comprehension':
      case 'set_comprehension': {
        const body = node.childForFieldName('body');
        return unknown(body ? taintOf(this.evaluate(body)) : 0);
      }
      default:
        return UNKNOWN;
    }
  }

  /** Every value a name can have where it is read (all its bindings in the scope Python resolves it in). */
  lookup(name: string, scope: Scope, at: number): Value {
    const key = `${scope.id}:${name}`;
    const cached = this.lookups.get(key);
    if (cached) return cached;
    const values: Value[] = [];
    let current: Scope | null = this.names.isGlobalIn(name, scope) ? this.names.module : scope;
    let first = true;
    while (current) {
      if (!first && current.kind === 'class') {
        current = current.parent;
        continue;
      }
      const list = this.names.bindingsIn(name, current);
      if (current.kind === 'module') {
        if (list.length > 0) values.push(this.boundValue(current, name, list));
        for (const star of this.names.starImports) {
          const member = `${star.module}.${name}`;
          if (ruleFor(member) || isFollowed(member)) values.push(ref(member));
        }
        const builtin = this.builtinValue(name, scope, at);
        if (builtin) values.push(builtin);
        break;
      }
      if (list.length > 0) {
        values.push(this.boundValue(current, name, list));
        if (current.kind !== 'class') break;
      }
      current = current.parent;
      first = false;
    }
    const value = values.length > 0 ? union(values) : UNKNOWN;
    // A module-level read before a shadowing definition depends on where it is: not cached.
    if (scope.kind !== 'module' || this.names.definiteBindings(name).length === 0) this.lookups.set(key, value);
    return value;
  }

  /** The union of a name's bindings in one scope, computed once (a name bound in a cycle is unknown). */
  private boundValue(scope: Scope, name: string, list: readonly Binding[]): Value {
    const key = `${scope.id}:${name}`;
    const cached = this.bound.get(key);
    if (cached) return cached;
    this.bound.set(key, UNKNOWN);
    const value = union(list.map((binding) => this.bindingValue(binding)));
    this.bound.set(key, value);
    return value;
  }

  private bindingValue(binding: Binding): Value {
    switch (binding.kind) {
      case 'value':
        return this.evaluate(binding.node);
      case 'augmented':
        return unknown(taintOf(this.evaluate(binding.node)));
      case 'import':
        return ref(binding.name);
      case 'element':
        return binding.path.reduce(itemAt, elementsOf(this.evaluate(binding.node)));
      default:
        return UNKNOWN;
    }
  }

  /**
   * What a name means when the module does not bind it for sure: the builtin. A `def` or import
   * of the same name at the top of the module shadows it for the code that runs after it.
   */
  private builtinValue(name: string, scope: Scope, at: number): Value | null {
    let value: Value | null = null;
    if (name === '__builtins__') value = ref('builtins');
    else if (name === '__file__') value = unknown(0, { root: 'skill', text: '<skill>/__file__' });
    else if (name === '__name__') value = str('__main__');
    // A module's own package: `importlib.resources.files(__package__)` names no other.
    else if (name === '__package__') value = str('');
    else if (BUILTIN_NAMES.has(name)) value = ref(`builtins.${name}`);
    if (!value) return null;
    const definite = this.names.definiteBindings(name);
    if (definite.length === 0 || this.names.isDeleted(name)) return value;
    const shadowedAt = Math.min(...definite);
    const shadowed = scope.kind === 'module' ? shadowedAt < at : shadowedAt < this.firstReachingStatement();
    return shadowed ? null : value;
  }

  /**
   * Where the first top-level statement that can call the module's own functions starts: code in
   * a function can run before a later top-level `def` shadows a builtin only from there.
   */
  private firstReachingStatement(): number {
    if (this.reachBefore !== null) return this.reachBefore;
    const statements = this.children(this.root);
    const own = new Set<string>();
    for (const statement of statements) {
      const definition =
        statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
      const name = definition?.childForFieldName('name');
      if (name && (definition?.type === 'function_definition' || definition?.type === 'class_definition'))
        own.add(this.names.nameOf(name));
    }
    this.reachBefore = Number.POSITIVE_INFINITY;
    for (const statement of statements) {
      if (!runsOnLoad(statement, this)) continue;
      const text =
        statement.type === 'decorated_definition'
          ? this.children(statement)
              .filter((child) => child.type === 'decorator')
              .map((child) => this.text(child))
              .join('\n')
          : this.text(statement);
      const words = text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
      if (/[(@]/.test(text) && words.some((word) => own.has(word))) {
        this.reachBefore = statement.startIndex;
        break;
      }
    }
    return this.reachBefore;
  }

  private attribute(node: SyntaxNode): Value {
    const objectNode = node.childForFieldName('object');
    const attributeNode = node.childForFieldName('attribute');
    if (!objectNode || !attributeNode) return UNKNOWN;
    const name = this.names.nameOf(attributeNode);
    const object = this.evaluate(objectNode);
    return union(alternatives(object).map((option) => this.member(option, name)));
  }

  /** `value.name` for one alternative of the value. */
  member(value: Value, name: string): Value {
    if (value.kind === 'ref') {
      const module = !value.name.includes('(');
      if (name === '__dict__') return ref(`${value.name}.__dict__`);
      if (name === '__builtins__' || name === 'f_builtins') return ref('builtins');
      if (name === '__globals__' || name === 'f_globals' || name === 'func_globals') return ref('builtins.globals()');
      // `subprocess.os` is the os module, but `socket.socket` is socket's own class.
      const reexported = module ? REEXPORTED_MODULES.get(name) : undefined;
      if (reexported && reexported !== value.name) return ref(reexported);
      // `entry.path` of a folder listing (`os.scandir`) is the file's path.
      if (value.path && name === 'path') return unknown(value.taint, value.path);
      if (value.path && (name === 'parent' || name === 'parents'))
        return ref('pathlib.Path()', value.taint, parentOf(value.path));
      return ref(canonicalName(`${value.name}.${name}`), value.taint);
    }
    if (value.kind === 'unknown' && value.path && name === 'parent') return unknown(value.taint, parentOf(value.path));
    return unknown(taintOf(value));
  }

  private call(node: SyntaxNode): Value {
    const functionNode = node.childForFieldName('function');
    if (!functionNode) return UNKNOWN;
    if (functionNode.type === 'attribute') {
      const objectNode = functionNode.childForFieldName('object');
      const methodNode = functionNode.childForFieldName('attribute');
      if (!objectNode || !methodNode) return UNKNOWN;
      const method = this.names.nameOf(methodNode);
      const receiver = this.evaluate(objectNode);
      return union(alternatives(receiver).map((option) => this.callMethod(node, option, method)));
    }
    const callee = this.evaluate(functionNode);
    return union(
      alternatives(callee).map((option) =>
        option.kind === 'ref' ? this.callName(node, option.name, null) : unknown(taintOf(option)),
      ),
    );
  }

  private callMethod(node: SyntaxNode, receiver: Value, method: string): Value {
    if (receiver.kind === 'ref') {
      if (isNamespaceDict(receiver.name) && NAMESPACE_GETTERS.has(method)) {
        const key = this.argumentList(node).positional[0];
        return this.namespaceMember(node, receiver.name, key ? this.argumentValue(key) : UNKNOWN);
      }
      const member = this.member(receiver, method);
      return member.kind === 'ref' ? this.callName(node, member.name, receiver) : member;
    }
    if (receiver.kind === 'str') return this.stringMethod(node, receiver, method);
    if (receiver.kind === 'dict') return this.dictionaryMethod(node, receiver, method);
    const taint = taintOf(receiver);
    if (method === 'fileno') return ref('fileno()', taint);
    if (method === 'translate') return unknown(taint | DECODED);
    // A method of an open file or a path-like value (`open(p).read()`) keeps saying which file it is.
    return unknown(taint, receiver.kind === 'unknown' ? receiver.path : undefined);
  }

  /** A call of a qualified name: its rule's meaning, or an instance of what it names. */
  callName(node: SyntaxNode, name: string, receiver: Value | null, args?: ArgumentList): Value {
    const rule = ruleFor(name);
    const result = rule?.run(new CallSite(this, node, name, receiver, args ?? this.argumentList(node)));
    if (result) return result;
    return ref(`${name}()`, receiver && receiver.kind === 'ref' ? receiver.taint : 0, receiverPath(receiver));
  }

  /** The rule a call's callee resolves to, without interpreting the call (for deciding what to look at). */
  calleeRules(node: SyntaxNode): (Rule | undefined)[] {
    const functionNode = node.childForFieldName('function');
    if (!functionNode) return [];
    if (functionNode.type === 'attribute') {
      const objectNode = functionNode.childForFieldName('object');
      const methodNode = functionNode.childForFieldName('attribute');
      if (!objectNode || !methodNode) return [];
      const method = this.names.nameOf(methodNode);
      return alternatives(this.evaluate(objectNode)).map((option) => {
        const member = this.member(option, method);
        return member.kind === 'ref' ? ruleFor(member.name) : undefined;
      });
    }
    return alternatives(this.evaluate(functionNode)).map((option) =>
      option.kind === 'ref' ? ruleFor(option.name) : undefined,
    );
  }

  argumentList(node: SyntaxNode): ArgumentList {
    const cached = this.argumentLists.get(node.id);
    if (cached) return cached;
    const list: ArgumentList = { positional: [], keywords: new Map(), hidden: false };
    const argumentsNode = node.childForFieldName('arguments');
    if (argumentsNode?.type === 'generator_expression') list.positional.push({ node: argumentsNode });
    else if (argumentsNode) {
      for (const child of this.children(argumentsNode)) {
        if (child.type === 'keyword_argument') {
          const name = child.childForFieldName('name');
          const value = child.childForFieldName('value');
          if (name && value) list.keywords.set(this.names.nameOf(name), { node: value });
        } else if (child.type === 'dictionary_splat') {
          const spread = this.children(child)[0];
          if (!spread || !this.spreadKeywords(spread, list)) list.hidden = true;
        } else if (child.type === 'list_splat') {
          const spread = this.children(child)[0];
          const value = spread ? this.evaluate(spread) : UNKNOWN;
          if (value.kind === 'seq') list.positional.push(...value.items.map((item) => ({ value: item })));
          else list.hidden = true;
        } else {
          list.positional.push({ node: child });
        }
      }
    }
    this.argumentLists.set(node.id, list);
    return list;
  }

  /** `**{"shell": True}`: keywords spread from a dictionary display are keywords like any other. */
  private spreadKeywords(node: SyntaxNode, list: ArgumentList): boolean {
    if (node.type !== 'dictionary') return false;
    for (const pair of this.children(node)) {
      const key = pair.childForFieldName('key');
      const value = pair.childForFieldName('value');
      const name = key ? this.evaluate(key) : UNKNOWN;
      if (pair.type !== 'pair' || !value || name.kind !== 'str') return false;
      list.keywords.set(name.text, { node: value });
    }
    return true;
  }

  private subscript(node: SyntaxNode): Value {
    const valueNode = node.childForFieldName('value');
    const keys = node.childrenForFieldName('subscript').filter((key): key is SyntaxNode => key !== null);
    if (!valueNode) return UNKNOWN;
    const base = this.evaluate(valueNode);
    const keyNode = keys.length === 1 ? (keys[0] as SyntaxNode) : null;
    if (keyNode?.type === 'slice') return this.slice(base, keyNode);
    const key = keyNode ? this.evaluate(keyNode) : UNKNOWN;
    return union(alternatives(base).map((option) => this.item(node, option, key)));
  }

  /** `base[key]` for one alternative of the base. */
  private item(node: SyntaxNode, base: Value, key: Value): Value {
    if (base.kind === 'ref') {
      if (isNamespaceDict(base.name)) return this.namespaceMember(node, base.name, key);
      if (base.name === 'os.environ' || base.name === 'os.environb') {
        if (this.isStore(node)) return UNKNOWN;
        this.findings.capability('env_read', node);
        return environmentValue(key);
      }
      return unknown(base.taint);
    }
    if (base.kind === 'seq' && key.kind === 'int') {
      const item = base.items[key.value < 0 ? base.items.length + key.value : key.value];
      return item ?? unknown(taintOf(base));
    }
    if (base.kind === 'seq') return union(base.items.length > 0 ? base.items : [UNKNOWN]);
    if (base.kind === 'dict') return this.entry(base, key);
    return unknown(taintOf(base));
  }

  /** A member of a namespace looked up by string: a constant resolves, a computed one is dynamic code. */
  namespaceMember(node: SyntaxNode, namespace: string, key: Value): Value {
    const names = constantStrings(key);
    if (!names) {
      this.findings.issue(
        'dynamic-code',
        node,
        `Looks up a name in ${namespaceLabel(namespace)} computed at run time.`,
      );
      return UNKNOWN;
    }
    if (taintOf(key) & DECODED)
      this.findings.issue('obfuscation', node, 'Looks up a name decoded at run time, hiding what it reaches.');
    return union(names.map((name) => this.resolveMember(node, namespace, name)));
  }

  private resolveMember(node: SyntaxNode, namespace: string, name: string): Value {
    if (namespace === 'sys.modules') return this.importedModule(node, name);
    if (namespace === 'builtins') return name === '__builtins__' ? ref('builtins') : ref(`builtins.${name}`);
    if (namespace === 'builtins.globals()') return this.lookup(name, this.names.module, Number.POSITIVE_INFINITY);
    if (namespace === 'builtins.locals()')
      return this.lookup(name, this.names.scopeAt(node.startIndex), node.startIndex);
    return ref(canonicalName(`${namespace.slice(0, -'.__dict__'.length)}.${name}`));
  }

  /** A module reached by its name at run time (`__import__("os")`, `sys.modules["ctypes"]`). */
  importedModule(node: SyntaxNode, name: string): Value {
    const module = canonicalName(name);
    if (NATIVE_MODULES.has(module.split('.')[0] as string))
      this.findings.issue('native-code', node, `Loads native code through ${module}.`);
    return ref(module);
  }

  private slice(base: Value, node: SyntaxNode): Value {
    const text = this.text(node).replace(/\s+/g, '');
    const reversed = /^::-1$/.test(text);
    const range = /^(-?\d*):(-?\d*)$/.exec(text);
    return union(
      alternatives(base).map((option) => {
        if (option.kind === 'str' && reversed) return str([...option.text].reverse().join(''), option.taint | DECODED);
        if (option.kind === 'str' && range)
          return str(sliceText(option.text, range[1] as string, range[2] as string), option.taint);
        return unknown(taintOf(option) | (reversed ? DECODED : 0));
      }),
    );
  }

  private isStore(node: SyntaxNode): boolean {
    const parent = this.names.parent(node);
    if (!parent) return false;
    if (STORE_PARENTS.has(parent.type)) return parent.startIndex === node.startIndex;
    if (parent.type === 'delete_statement') return true;
    return parent.type === 'expression_list' && this.names.parent(parent)?.type === 'delete_statement';
  }

  private string(node: SyntaxNode): Value {
    const literal = splitStringLiteral(this.text(node));
    if (!literal) return UNKNOWN;
    if (literal.prefix.includes('f') || literal.prefix.includes('t')) return this.formatString(node, literal);
    const text = literal.prefix.includes('r')
      ? literal.body
      : decodeEscapes(literal.body, literal.prefix.includes('b'));
    return text === null ? UNKNOWN : str(text);
  }

  /** An f-string: constant when every interpolation is, else computed with what is known of its path. */
  private formatString(node: SyntaxNode, literal: StringLiteral): Value {
    const raw = literal.prefix.includes('r');
    const bodyStart =
      node.startIndex +
      literal.prefix.length +
      (this.text(node).length - literal.prefix.length - literal.body.length) / 2;
    const pieces: Value[] = [];
    let cursor = bodyStart;
    const literalPiece = (end: number): Value | null => {
      const body = this.source.slice(cursor, end).replace(/\{\{/g, '{').replace(/\}\}/g, '}');
      const text = raw ? body : decodeEscapes(body, false);
      return text === null ? null : str(text);
    };
    for (const child of this.children(node)) {
      if (child.type !== 'interpolation') continue;
      const before = literalPiece(child.startIndex);
      if (!before) return UNKNOWN;
      pieces.push(before);
      const expression = child.childForFieldName('expression');
      const formatted = child.childForFieldName('format_specifier') || child.childForFieldName('type_conversion');
      const value = expression ? this.evaluate(expression) : UNKNOWN;
      pieces.push(formatted && value.kind === 'str' ? unknown(value.taint) : value);
      cursor = child.endIndex;
    }
    const last = literalPiece(bodyStart + literal.body.length);
    if (!last) return UNKNOWN;
    pieces.push(last);
    return this.concatenate(pieces);
  }

  /** `a + b + …` for strings, lists and paths. */
  concatenate(parts: readonly Value[]): Value {
    if (parts.length === 0) return str('');
    if (parts.every((part) => part.kind === 'str')) {
      let text = '';
      let taint = 0;
      for (const part of parts) {
        if (part.kind !== 'str') continue;
        text += part.text;
        taint |= part.taint;
        if (text.length > MAX_FOLDED_LENGTH) return unknown(taint);
      }
      return str(text, taint);
    }
    if (parts.every((part) => part.kind === 'seq')) {
      const items = parts.flatMap((part) => (part.kind === 'seq' ? part.items : []));
      return { kind: 'seq', items: items.slice(0, MAX_ITEMS), taint: 0 };
    }
    const choices = parts.map(constantStrings);
    if (
      choices.every((choice) => choice !== null) &&
      choices.reduce((n, choice) => n * (choice as string[]).length, 1) <= 16
    ) {
      let texts = [''];
      for (const choice of choices as string[][]) texts = texts.flatMap((text) => choice.map((part) => text + part));
      const taint = parts.reduce((sum, part) => sum | taintOf(part), 0);
      return union(texts.map((text) => str(text, taint)));
    }
    const taint = parts.reduce((sum, part) => sum | taintOf(part), 0);
    const first = parts[0] as Value;
    const knownStart = first.kind === 'str' || ((first.kind === 'ref' || first.kind === 'unknown') && first.path);
    if (!knownStart) return unknown(taint);
    const start = pathOf(first);
    const text = parts.map((part) => pieceText(part)).join('');
    return unknown(taint, { root: start.root, text });
  }

  /**
   * The operands of `a + b + c` (or `a or b or c`), which nest to the left: the spine is walked
   * instead of recursing once per term.
   */
  private operands(node: SyntaxNode, type: string, operator?: string): SyntaxNode[] {
    const operands: SyntaxNode[] = [];
    let current: SyntaxNode | null = node;
    while (
      current?.type === type &&
      (operator === undefined || current.childForFieldName('operator')?.type === operator)
    ) {
      const right = current.childForFieldName('right');
      if (right) operands.push(right);
      current = current.childForFieldName('left');
    }
    if (current) operands.push(current);
    return operands.reverse();
  }

  private binary(node: SyntaxNode): Value {
    const operator = node.childForFieldName('operator')?.type;
    if (operator === '+')
      return this.concatenate(this.operands(node, 'binary_operator', '+').map((operand) => this.evaluate(operand)));
    if (operator !== '%' && operator !== '/' && operator !== '|') {
      // Arithmetic means nothing here but the taint of its operands.
      const taint = this.operands(node, 'binary_operator').reduce(
        (sum, operand) => sum | taintOf(this.evaluate(operand)),
        0,
      );
      return unknown(taint);
    }
    const leftNode = node.childForFieldName('left');
    const rightNode = node.childForFieldName('right');
    const left = leftNode ? this.evaluate(leftNode) : UNKNOWN;
    const right = rightNode ? this.evaluate(rightNode) : UNKNOWN;
    const taint = taintOf(left) | taintOf(right);
    if (operator === '%' && left.kind === 'str') {
      const args = right.kind === 'seq' ? right.items : [right];
      const constants = args.map((arg) => (arg.kind === 'str' ? arg.text : arg.kind === 'int' ? arg.value : null));
      if (constants.every((arg) => arg !== null)) {
        const text = percentFormat(left.text, constants as (string | number)[]);
        if (text !== null) return str(text, taint);
      }
      return unknown(taint);
    }
    if (operator === '/' && isPathObject(left)) {
      const pairs = combinations([left, right]) ?? [[left, right]];
      return union(
        pairs.map(([base, part]) => {
          const path = joinPaths([pathOf(base as Value), pathOf(part as Value)]);
          this.checkCredentialPath(node, path);
          return ref('pathlib.Path()', taint, path);
        }),
      );
    }
    if (operator === '|' && [left, right].some(isEnvironment)) return ref('os.environ');
    return unknown(taint);
  }

  private sequence(node: SyntaxNode): Value {
    const items: Value[] = [];
    for (const child of this.children(node)) {
      if (items.length >= MAX_ITEMS) break;
      if (child.type === 'list_splat') {
        const spread = this.children(child)[0];
        const value = spread ? this.evaluate(spread) : UNKNOWN;
        if (value.kind === 'seq') items.push(...value.items);
        else items.push(unknown(taintOf(value)));
      } else {
        items.push(this.evaluate(child));
      }
    }
    return { kind: 'seq', items, taint: 0 };
  }

  /** A copy of the environment (`{**os.environ, …}`), or a display of pairs with its keys and values. */
  private dictionary(node: SyntaxNode): Value {
    const keys: Value[] = [];
    const values: Value[] = [];
    let spread = false;
    for (const child of this.children(node)) {
      if (child.type === 'dictionary_splat') {
        const inner = this.children(child)[0];
        if (inner && isEnvironment(this.evaluate(inner))) return ref('os.environ');
        spread = true;
        continue;
      }
      const key = child.childForFieldName('key');
      const value = child.childForFieldName('value');
      if (child.type !== 'pair' || !key || !value || keys.length >= MAX_ITEMS) {
        spread = true;
        continue;
      }
      keys.push(this.evaluate(key));
      values.push(this.evaluate(value));
    }
    return spread ? UNKNOWN : { kind: 'dict', keys, values, taint: 0 };
  }

  /** `d.keys()`, `d.values()`, `d.items()`, `d.get(k)` of a dictionary display. */
  private dictionaryMethod(node: SyntaxNode, receiver: Value & { kind: 'dict' }, method: string): Value {
    const { keys, values } = receiver;
    switch (method) {
      case 'keys':
        return { kind: 'seq', items: keys, taint: 0 };
      case 'values':
        return { kind: 'seq', items: values, taint: 0 };
      case 'items':
        return {
          kind: 'seq',
          items: keys.map((key, index) => ({ kind: 'seq', items: [key, values[index] ?? UNKNOWN], taint: 0 })),
          taint: 0,
        };
      case 'get':
      case 'pop':
      case 'setdefault': {
        const site = this.argumentList(node);
        const key = site.positional[0];
        const fallback = site.positional[1];
        const found = this.entry(receiver, key ? this.argumentValue(key) : UNKNOWN);
        return union([found, fallback ? this.argumentValue(fallback) : { kind: 'const', value: null }]);
      }
      default:
        return unknown(taintOf(receiver));
    }
  }

  /** `d[key]`: the value of a constant key, or any of its values for a key computed at run time. */
  private entry(dict: Value & { kind: 'dict' }, key: Value): Value {
    const names = constantStrings(key);
    const found = names?.map(
      (name) => dict.values[dict.keys.findIndex((candidate) => candidate.kind === 'str' && candidate.text === name)],
    );
    if (found && found.every((value) => value !== undefined)) return union(found as Value[]);
    return dict.values.length > 0 ? union(dict.values) : unknown(dict.taint);
  }

  private stringMethod(node: SyntaxNode, receiver: { text: string; taint: number }, method: string): Value {
    const site = this.argumentList(node);
    const value = (index: number): Value => {
      const argument = site.positional[index];
      return argument ? this.argumentValue(argument) : UNKNOWN;
    };
    const taint = receiver.taint;
    const fold = (text: string): Value => str(text, taint);
    switch (method) {
      case 'join': {
        const parts = value(0);
        if (parts.kind === 'seq') {
          const texts = parts.items.map((item) => (item.kind === 'str' ? item.text : null));
          if (texts.every((text) => text !== null))
            return str((texts as string[]).join(receiver.text), taint | taintOf(parts));
        }
        return unknown(taint | taintOf(parts));
      }
      case 'format': {
        const args = site.positional.map((argument) => this.argumentValue(argument));
        const keywords = new Map<string, string>();
        for (const [name, argument] of site.keywords) {
          const keyword = this.argumentValue(argument);
          if (keyword.kind === 'str') keywords.set(name, keyword.text);
        }
        const constants = args.map((arg) =>
          arg.kind === 'str' ? arg.text : arg.kind === 'int' ? String(arg.value) : null,
        );
        const taints = args.reduce((sum, arg) => sum | taintOf(arg), taint);
        if (constants.every((arg) => arg !== null) && !site.hidden && keywords.size === site.keywords.size) {
          const text = braceFormat(receiver.text, constants as string[], keywords);
          if (text !== null) return str(text, taints);
        }
        return unknown(taints);
      }
      case 'replace': {
        const [from, to] = [value(0), value(1)];
        return from.kind === 'str' && to.kind === 'str' && from.text !== ''
          ? fold(receiver.text.split(from.text).join(to.text))
          : unknown(taint);
      }
      case 'lower':
      case 'casefold':
        return fold(receiver.text.toLowerCase());
      case 'upper':
        return fold(receiver.text.toUpperCase());
      case 'strip':
        return site.positional.length === 0 ? fold(receiver.text.trim()) : unknown(taint);
      case 'lstrip':
        return site.positional.length === 0 ? fold(receiver.text.trimStart()) : unknown(taint);
      case 'rstrip':
        return site.positional.length === 0 ? fold(receiver.text.trimEnd()) : unknown(taint);
      case 'decode':
      case 'encode':
        return fold(receiver.text);
      case 'split': {
        const separator = site.positional.length === 0 ? null : value(0);
        if (separator && separator.kind !== 'str') return unknown(taint);
        const parts = separator ? receiver.text.split(separator.text) : receiver.text.split(/\s+/).filter(Boolean);
        return { kind: 'seq', items: parts.slice(0, MAX_ITEMS).map(fold), taint: 0 };
      }
      case 'translate':
        return unknown(taint | DECODED);
      default:
        return unknown(taint);
    }
  }

  recursiveFolder(call: SyntaxNode, folder: SyntaxNode): Value | null {
    const scope = this.names.scopeAt(call.startIndex);
    const definition = scope.node;
    const nameNode = definition?.type === 'function_definition' ? definition.childForFieldName('name') : null;
    if (!definition || !nameNode) return null;
    const parameters = this.parameterNames(definition);
    const words = new Set(this.text(folder).match(/[\p{ID_Start}_][\p{ID_Continue}]*/gu) ?? []);
    const index = parameters.findIndex((parameter) => words.has(parameter));
    if (index < 0) return null;
    const calls = this.names.occurrences(this.names.nameOf(nameNode)).flatMap(({ node }) => {
      const parent = this.names.parent(node);
      return parent?.type === 'call' && parent.childForFieldName('function')?.id === node.id ? [parent] : [];
    });
    const inside = (node: SyntaxNode): boolean =>
      node.startIndex >= definition.startIndex && node.endIndex <= definition.endIndex;
    const outer = calls.filter((node) => !inside(node));
    if (!calls.some(inside) || outer.length === 0) return null;
    return union(
      outer.map((node) => {
        const list = this.argumentList(node);
        const argument = list.keywords.get(parameters[index] as string) ?? list.positional[index];
        return argument ? this.argumentValue(argument) : UNKNOWN;
      }),
    );
  }

  /** The name node of one parameter (`x`, `x: int`, `x=1`, `*args`), if it has one. */
  parameterName(parameter: SyntaxNode): SyntaxNode | undefined {
    return parameter.type === 'identifier'
      ? parameter
      : (parameter.childForFieldName('name') ?? this.children(parameter).find((child) => child.type === 'identifier'));
  }

  /** A function's positional parameter names, up to the first `*` (after which positions say nothing). */
  private parameterNames(definition: SyntaxNode): string[] {
    const names: string[] = [];
    for (const parameter of this.children(definition.childForFieldName('parameters') ?? definition)) {
      const name = this.parameterName(parameter);
      if (parameter.type.includes('splat') || !name || name.type !== 'identifier') break;
      names.push(this.names.nameOf(name));
    }
    return names;
  }

  /** Flags a path that names a credential store, wherever it is built. */
  checkCredentialPath(node: SyntaxNode, path: PathInfo): boolean {
    const what = pathCredential(path);
    if (!what) return false;
    this.findings.issue('credentials-access', node, `Reaches ${what} (${path.text}).`);
    this.findings.capability('file_read', node);
    return true;
  }

  /** A key that names the same file wherever it is used: its folded path, or the variable that holds it. */
  pathKey(argument: Argument | null, value: Value): string | null {
    if (value.kind === 'str') return `c:${value.text}`;
    if ((value.kind === 'ref' || value.kind === 'unknown') && value.path && value.path.text !== '*')
      return `p:${value.path.root}:${value.path.text}`;
    if (argument && 'node' in argument && argument.node.type === 'identifier')
      return `v:${this.names.scopeAt(argument.node.startIndex).id}:${this.names.nameOf(argument.node)}`;
    return null;
  }
}

/** Methods that read a namespace dictionary by key (`builtins.__dict__.get("exec")`). */
const NAMESPACE_GETTERS = new Set(['get', '__getitem__', 'pop', 'setdefault']);

const isEnvironment = (value: Value): boolean =>
  alternatives(value).some(
    (option) => option.kind === 'ref' && (option.name === 'os.environ' || option.name === 'os.environb'),
  );

const isPathObject = (value: Value): boolean =>
  alternatives(value).some((option) => option.kind === 'ref' && option.path !== undefined);

function receiverPath(receiver: Value | null): PathInfo | undefined {
  return receiver && (receiver.kind === 'ref' || receiver.kind === 'unknown') ? receiver.path : undefined;
}

function pieceText(value: Value): string {
  if (value.kind === 'str') return value.text;
  if ((value.kind === 'ref' || value.kind === 'unknown') && value.path) return value.path.text;
  return '*';
}

function sliceText(text: string, from: string, to: string): string {
  const chars = [...text];
  const index = (bound: string, fallback: number): number => {
    if (bound === '') return fallback;
    const value = Number(bound);
    return value < 0 ? Math.max(chars.length + value, 0) : Math.min(value, chars.length);
  };
  return chars.slice(index(from, 0), index(to, chars.length)).join('');
}

function namespaceLabel(namespace: string): string {
  if (namespace === 'sys.modules') return 'sys.modules';
  if (namespace === 'builtins') return 'the builtins';
  if (namespace === 'builtins.globals()') return 'globals()';
  if (namespace === 'builtins.locals()') return 'locals()';
  return namespace;
}
