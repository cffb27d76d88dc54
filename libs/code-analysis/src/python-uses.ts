/**
 * Reads every place a followed name is used (an import of `os`, `eval`, an alias of `os.system`)
 * and decides what the use means: a call the rules interpret, an alias to follow in turn, the
 * environment copied or sent away, or a dangerous function passed on where its call cannot be seen.
 */
import type { SyntaxNode } from './grammars';
import type { ArgumentList } from './python-call-site';
import type { PythonEvaluator } from './python-evaluator';
import type { Occurrence } from './python-names';
import { CREDENTIAL_WORDS } from './credential-paths';
import { CREDENTIAL_HINT, looksLikePath, pathCredential, pathOf } from './python-paths';
import {
  DANGEROUS_NAMESPACES,
  FORWARDERS,
  FORWARDING_METHODS,
  INSPECTORS,
  isFollowed,
  ruleFor,
  type Forwarder,
  type RuleCategory,
} from './python-rules';
import { UNKNOWN, alternatives, refNames, type Value } from './python-values';

/** Attributes that reach the interpreter's own namespaces and frames, whatever object they are read on. */
const INTERNAL_ATTRIBUTES = new Set([
  '__globals__',
  '__subclasses__',
  '__builtins__',
  'func_globals',
  'f_globals',
  'f_builtins',
  'f_locals',
]);

/** Wrappers that pass their operand's value through (`(x)`, `await x`, `a if c else b`, `a or b`). */
const TRANSPARENT = new Set(['parenthesized_expression', 'await', 'conditional_expression', 'boolean_operator']);

/** Where a value is handed on: to a call, into a container, returned, stored in an attribute, given as a default. */
const PASSED_ON = new Set([
  'argument_list',
  'keyword_argument',
  'list',
  'tuple',
  'set',
  'expression_list',
  'pair',
  'dictionary',
  'list_splat',
  'dictionary_splat',
  'return_statement',
  'yield',
  'lambda',
  'assignment',
  'augmented_assignment',
  'named_expression',
  'default_parameter',
  'typed_default_parameter',
  'subscript',
]);

/** Statements whose first child is written to, not read. */
const STORES = new Set(['assignment', 'augmented_assignment']);

const COPIERS = new Set([
  'builtins.dict',
  'copy.copy',
  'copy.deepcopy',
  'types.MappingProxyType',
  'collections.ChainMap',
]);

const isEnvironment = (option: Value): boolean =>
  option.kind === 'ref' && (option.name === 'os.environ' || option.name === 'os.environb');

export class PythonUses {
  private readonly followed = new Set<string>();
  private readonly pending: string[] = [];
  private readonly seen = new Set<number>();
  /** Functions whose returned copy of the environment was followed to their calls. */
  private readonly followedReturns = new Set<number>();

  constructor(private readonly py: PythonEvaluator) {}

  private parent(node: SyntaxNode): SyntaxNode | null {
    return this.py.names.parent(node);
  }

  /** Reads every use of `name` (once). */
  follow(name: string): void {
    if (this.followed.has(name)) return;
    this.followed.add(name);
    this.pending.push(name);
  }

  run(): void {
    for (const name of INTERNAL_ATTRIBUTES)
      for (const attribute of this.py.names.attributeReads(name))
        this.py.findings.issue('dynamic-code', attribute, `Reaches the interpreter's internals through .${name}.`);
    for (let name = this.pending.pop(); name !== undefined; name = this.pending.pop())
      for (const occurrence of this.py.names.occurrences(name)) this.occurrence(occurrence);
  }

  /**
   * String literals in code that name a credential store, whatever is done with them (a path
   * handed to a library the rules do not know is still a credential read). Docstrings and
   * comments are text, not code.
   */
  credentialStrings(): void {
    const { py } = this;
    const strings = new Set<number>();
    for (const match of py.source.matchAll(CREDENTIAL_WORDS)) {
      let node = py.names.nodeAt(match.index, match.index + match[0].length);
      while (
        node &&
        (node.type === 'string_content' || node.type === 'escape_sequence' || node.type === 'interpolation')
      )
        node = this.parent(node);
      if (!node || node.type !== 'string' || strings.has(node.id)) continue;
      strings.add(node.id);
      const holder = this.parent(node);
      const literal = holder?.type === 'concatenated_string' ? holder : node;
      if (this.parent(literal)?.type === 'expression_statement') continue;
      const value = py.evaluate(literal);
      const text = value.kind === 'str' ? value.text : null;
      if (text !== null && !looksLikePath(text)) continue;
      if (pathCredential(pathOf(value))) py.checkCredentialPath(literal, pathOf(value));
    }
  }

  private occurrence(occurrence: Occurrence): void {
    const top = this.chainTop(occurrence.node);
    if (this.seen.has(top.id)) return;
    this.seen.add(top.id);
    const subject = this.pathExpression(top);
    if (subject !== top) {
      if (!this.seen.has(subject.id) && CREDENTIAL_HINT.test(this.py.text(subject))) this.py.evaluate(subject);
      this.seen.add(subject.id);
    }
    if (top.type === 'call' && this.onlyBuildsValues(top)) return;
    const value = this.py.evaluate(top);
    // `Path(a) / "b"`: the joined path is what gets bound and used, or called (`(Path(a) / "b").write_text(…)`).
    if (subject !== top && alternatives(value).some((option) => option.kind === 'ref' && option.path)) {
      const used = this.chainTop(subject);
      this.context(used, this.py.evaluate(used));
    } else this.context(top, value);
  }

  /** The outermost expression a name starts: `os` in `os.path.join(a, b).strip()` starts the whole chain. */
  private chainTop(node: SyntaxNode): SyntaxNode {
    let current = node;
    for (;;) {
      const parent = this.parent(current);
      if (!parent) return current;
      const type = parent.type;
      // The object of an attribute, the function of a call and the value of a subscript all start where their parent does.
      const continues =
        type === 'parenthesized_expression' ||
        ((type === 'attribute' || type === 'call' || type === 'subscript') && parent.startIndex === current.startIndex);
      if (!continues) return current;
      current = parent;
    }
  }

  /** `Path.home() / ".ssh" / "id_rsa"`: the path a chain is the start of. */
  private pathExpression(top: SyntaxNode): SyntaxNode {
    let current = top;
    for (
      let up = this.parent(current);
      up?.type === 'binary_operator' && up.startIndex === current.startIndex;
      up = this.parent(current)
    )
      current = up;
    return current;
  }

  /**
   * A call of path, string and decoding helpers means nothing until its value reaches a call that
   * matters (which then evaluates it), unless its text may name a credential store.
   */
  private onlyBuildsValues(call: SyntaxNode): boolean {
    const rules = this.py.calleeRules(call);
    if (rules.some((rule) => rule?.category !== 'pure' && rule?.category !== 'builder')) return false;
    if (CREDENTIAL_HINT.test(this.py.text(call))) return false;
    return rules.every((rule) => rule?.category === 'pure') || (this.aliasesOf(call) === null && !this.joined(call));
  }

  /** `Path(a) / "b"`: a path object joined further is followed as the joined path. */
  private joined(node: SyntaxNode): boolean {
    const parent = this.parent(node);
    return parent?.type === 'binary_operator' && parent.startIndex === node.startIndex;
  }

  private context(top: SyntaxNode, value: Value): void {
    const options = alternatives(value);
    if (options.some(isEnvironment)) {
      this.environmentUse(top);
      return;
    }
    // A name bound in a class body is an attribute (`self.run(…)`, `A.run(…)`), which is not followed: a use.
    const aliases = this.py.names.scopeAt(top.startIndex).kind === 'class' ? null : this.aliasesOf(top);
    if (aliases) {
      if (carriesFollowed(value, 0)) for (const alias of aliases) this.follow(alias);
      return;
    }
    for (const option of options) if (option.kind === 'ref') this.valueUse(top, option.name);
  }

  /** The names a value is bound to when an expression is the right side of an assignment (or `with … as`, walrus). */
  private aliasesOf(node: SyntaxNode): string[] | null {
    let current = node;
    for (let up = this.parent(current); up && TRANSPARENT.has(up.type); up = this.parent(current)) {
      if (up.type === 'conditional_expression' && this.py.children(up)[1]?.id === current.id) return null;
      current = up;
    }
    const parent = this.parent(current);
    if (!parent) return null;
    // `for name in <node>`: the loop's targets are bound to its items.
    if (
      (parent.type === 'for_statement' || parent.type === 'for_in_clause') &&
      parent.childForFieldName('right')?.id === current.id
    ) {
      const left = parent.childForFieldName('left');
      return left ? this.targetNames(left) : null;
    }
    const names: string[] = [];
    if (parent.type === 'assignment' && parent.startIndex !== current.startIndex) {
      const left = parent.childForFieldName('left');
      if (left?.type === 'identifier') names.push(this.py.names.nameOf(left));
      else return null;
      let outer: SyntaxNode = parent;
      for (
        let up = this.parent(outer);
        up?.type === 'assignment' && up.startIndex !== outer.startIndex;
        up = this.parent(outer)
      ) {
        outer = up;
        const target = outer.childForFieldName('left');
        if (target?.type === 'identifier') names.push(this.py.names.nameOf(target));
      }
      return names;
    }
    const grandparent = this.parent(parent);
    if (parent.type === 'expression_list' && grandparent?.type === 'assignment') {
      const left = grandparent.childForFieldName('left');
      const index = this.py.children(parent).findIndex((child) => child.id === current.id);
      const target = left && left.type === 'pattern_list' ? this.py.children(left)[index] : undefined;
      return target?.type === 'identifier' ? [this.py.names.nameOf(target)] : null;
    }
    if (parent.type === 'named_expression' && parent.startIndex !== current.startIndex) {
      const name = parent.childForFieldName('name');
      return name ? [this.py.names.nameOf(name)] : null;
    }
    if (parent.type === 'as_pattern' && grandparent?.type === 'with_item') {
      const target = parent.childForFieldName('alias');
      const name = target ? this.py.children(target)[0] : undefined;
      return name?.type === 'identifier' ? [this.py.names.nameOf(name)] : null;
    }
    return null;
  }

  /** The names a loop's target pattern binds (`name`, `root, dirs, files`, `i, (k, v)`). */
  private targetNames(pattern: SyntaxNode): string[] {
    if (pattern.type === 'identifier') return [this.py.names.nameOf(pattern)];
    return this.py.children(pattern).flatMap((child) => this.targetNames(child));
  }

  /**
   * The environment (or a copy of it) used as a whole: handed to a child process it stays there;
   * copied, it is judged by what the copy is used for; sent, printed or iterated, it is read whole.
   */
  private environmentUse(top: SyntaxNode): void {
    let current = top;
    for (;;) {
      const parent = this.parent(current);
      if (!parent) break;
      const type = parent.type;
      const grandparent = type === 'argument_list' || type === 'dictionary_splat' ? this.parent(parent) : null;
      if (type === 'parenthesized_expression' || type === 'await') {
        current = parent;
        continue;
      }
      if (type === 'argument_list' && grandparent?.type === 'call') {
        const call = grandparent;
        const callees = this.calleeNames(call);
        if (callees.some((name) => COPIERS.has(name)) && this.py.children(parent)[0]?.id === current.id) {
          current = call;
          continue;
        }
        if (callees.some((name) => /^os\.(exec|spawn)\w*e$|^os\.posix_spawnp?$/.test(name))) return;
        break;
      }
      if (type === 'dictionary_splat' && grandparent?.type === 'dictionary') {
        current = grandparent;
        continue;
      }
      if (type === 'binary_operator' && parent.childForFieldName('operator')?.type === '|') {
        current = parent;
        continue;
      }
      if (type === 'keyword_argument') {
        const name = parent.childForFieldName('name');
        if (name && this.py.names.nameOf(name) === 'env') return;
        break;
      }
      if (type === 'comparison_operator') {
        this.py.findings.capability('env_read', parent);
        return;
      }
      // `return env` from a helper (`def child_env(): env = dict(os.environ); …; return env`): the
      // copy is judged where the helper's result is used, when the file calls it.
      if (type === 'return_statement') {
        const calls = this.callsOfEnclosingFunction(parent);
        if (calls.length > 0) {
          for (const call of calls) this.environmentUse(call);
          return;
        }
        break;
      }
      const aliases = this.aliasesOf(current);
      if (aliases) {
        for (const alias of aliases) this.follow(alias);
        return;
      }
      break;
    }
    this.py.findings.capability('env_read', current);
    this.py.findings.wholeEnvironmentRead(current);
  }

  /** Calls in this file of the function a `return` is in (by its name), each followed once. */
  private callsOfEnclosingFunction(statement: SyntaxNode): SyntaxNode[] {
    let definition = this.parent(statement);
    while (definition && definition.type !== 'function_definition') definition = this.parent(definition);
    const name = definition?.childForFieldName('name')?.text;
    if (!definition || !name || this.followedReturns.has(definition.id)) return [];
    this.followedReturns.add(definition.id);
    return this.py.root.descendantsOfType('call').filter((call): call is SyntaxNode => {
      const callee = call?.childForFieldName('function');
      const called = callee?.type === 'attribute' ? callee.childForFieldName('attribute')?.text : callee?.text;
      return call !== null && called === name;
    });
  }

  private calleeNames(call: SyntaxNode): string[] {
    const callee = call.childForFieldName('function');
    return callee ? refNames(this.py.evaluate(callee)) : [];
  }

  /** A dangerous function or module used as a value: passed somewhere its call cannot be seen. */
  private valueUse(top: SyntaxNode, name: string): void {
    const category = categoryOf(name);
    if (!category) return;
    let value = top;
    for (let up = this.parent(value); up && TRANSPARENT.has(up.type); up = this.parent(value)) value = up;
    const parent = this.parent(value);
    // Only a value handed on can be called out of sight: discarded, compared or named in an annotation it goes nowhere.
    if (!parent || !PASSED_ON.has(parent.type)) return;
    if (STORES.has(parent.type) && parent.startIndex === value.startIndex) return;
    const holder = parent.type === 'keyword_argument' ? this.parent(parent) : parent;
    const call = holder?.type === 'argument_list' ? this.parent(holder) : null;
    if (call?.type === 'call') {
      if (parent.type === 'argument_list' && this.calleeNames(call).some((callee) => INSPECTORS.has(callee))) return;
      if (this.forwards(call, value, name)) return;
    }
    const { findings } = this.py;
    switch (category) {
      case 'process':
        findings.capability('process_exec', top);
        findings.issue('shell-from-input', top, `Passes ${name} on, so the command it runs cannot be seen.`);
        return;
      case 'dynamic':
        findings.issue('dynamic-code', top, `Passes ${name} on, so the code it runs cannot be seen.`);
        return;
      case 'namespace':
        findings.issue('dynamic-code', top, `Passes ${name} on, so what is looked up in it cannot be seen.`);
        return;
      case 'native':
        findings.issue('native-code', top, `Uses ${name}, which calls native code.`);
        return;
      case 'network':
        findings.capability('network', top);
        return;
      case 'inbound':
        findings.capability('network_inbound', top);
        return;
      case 'env':
        findings.capability('env_read', top);
        return;
      case 'file_read':
      case 'file_write':
        findings.capability(category, top);
        return;
    }
  }

  /** `asyncio.to_thread(subprocess.run, [...])`: the forwarded call is interpreted as if written directly. */
  private forwards(call: SyntaxNode, fn: SyntaxNode, name: string): boolean {
    const spec = this.forwarderOf(call);
    if (!spec) return false;
    const list = this.py.argumentList(call);
    const keyword = spec.fnKeyword ? list.keywords.get(spec.fnKeyword) : undefined;
    const argument = keyword ?? list.positional[spec.fn];
    if (!argument || !('node' in argument) || argument.node.id !== fn.id) return false;
    for (const args of this.forwardedArguments(spec, list)) this.py.callName(call, name, null, args);
    return true;
  }

  private forwarderOf(call: SyntaxNode): Forwarder | null {
    for (const callee of this.calleeNames(call)) {
      const spec = FORWARDERS.get(callee);
      if (spec) return spec;
    }
    const callee = call.childForFieldName('function');
    const method = callee?.type === 'attribute' ? callee.childForFieldName('attribute') : null;
    return method ? (FORWARDING_METHODS.get(this.py.names.nameOf(method)) ?? null) : null;
  }

  private forwardedArguments(spec: Forwarder, list: ArgumentList): ArgumentList[] {
    const keywords = new Map(spec.keywords ? [...list.keywords].filter(([key]) => key !== spec.fnKeyword) : []);
    const { args } = spec;
    if ('from' in args) return [{ positional: list.positional.slice(args.from), keywords, hidden: list.hidden }];
    if ('tuple' in args) {
      const argument = list.keywords.get(args.keyword) ?? list.positional[args.tuple];
      const value = argument ? this.py.argumentValue(argument) : null;
      if (!value) return [{ positional: [], keywords, hidden: list.hidden }];
      if (value.kind === 'seq')
        return [{ positional: value.items.map((item) => ({ value: item })), keywords, hidden: false }];
      return [{ positional: [], keywords, hidden: true }];
    }
    const iterable = list.positional[args.each];
    const items = iterable ? this.py.argumentValue(iterable) : UNKNOWN;
    const each = items.kind === 'seq' ? items.items : [UNKNOWN];
    return each.map((item) => ({ positional: [{ value: item }], keywords, hidden: false }));
  }
}

/** What using a name as a value (not calling it) means. */
function categoryOf(name: string): RuleCategory | null {
  const category = ruleFor(name)?.category;
  if (category && category !== 'pure' && category !== 'watch' && category !== 'builder') return category;
  const namespace = name.endsWith('.__dict__') ? name.slice(0, -'.__dict__'.length) : name;
  return DANGEROUS_NAMESPACES.has(namespace) ? 'namespace' : null;
}

/** Whether a value, or an item of a list, tuple or dictionary it is (a loop's items), is a name the rules follow. */
function carriesFollowed(value: Value, depth: number): boolean {
  return alternatives(value).some((option) => {
    if (option.kind === 'ref') return isFollowed(option.name);
    if (depth >= 3) return false;
    if (option.kind === 'seq') return option.items.some((item) => carriesFollowed(item, depth + 1));
    if (option.kind === 'dict')
      return [...option.keys, ...option.values].some((item) => carriesFollowed(item, depth + 1));
    return false;
  });
}
