/**
 * What JavaScript expressions are worth, as far as a file tells: a module or global object reached
 * through imports, requires, aliases, destructuring, bundler wrappers and constant keys
 * (`cp['ex' + 'ec']` is `child_process.exec`); a constant string (`path.join(os.homedir(), '.ssh')`
 * is `~/.ssh`); or something unknown, marked when it was decoded from base64, hex or char codes.
 */
import type { SyntaxNode } from './grammars';
import {
  identifierName,
  lookup,
  stringValue,
  unescapeJs,
  type PathKey,
  type Scope,
  type Use,
} from './javascript-program';
import { severity, sinkOf } from './node-sinks';

export type JsValue =
  /** A module (`child_process`) or a global (`process`) and the members reached from it; `()` is a call's result. */
  | { kind: 'ref'; root: string; path: readonly string[]; module: boolean }
  /** A constant string; `home` and `own` strings are paths under `~` and under the skill's own folder. */
  | { kind: 'str'; text: string; base: 'plain' | 'home' | 'own' }
  | { kind: 'arr'; items: readonly JsValue[] }
  /** A function; `returns` says what calling it gives, when the analysis can tell. */
  | { kind: 'fn'; returns?: () => JsValue }
  /** An object whose members the analysis can read (`{r: cp.exec}`, stores `o.r = …`, a local module's exports). */
  | { kind: 'obj'; member: (key: string) => JsValue }
  | { kind: 'unknown'; decoded: boolean };

/** How deep values are evaluated inside one another (aliases of aliases, members of members). */
const MAX_DEPTH = 48;

export const UNKNOWN: JsValue = { kind: 'unknown', decoded: false };
const DECODED: JsValue = { kind: 'unknown', decoded: true };
const FUNCTION: JsValue = { kind: 'fn' };
/** A function that returns the global object. */
const GLOBAL_GETTER: JsValue = { kind: 'fn', returns: () => ref('globalThis') };
/** The body of `Function('return this')`, the sloppy-mode way to the global object. */
const RETURNS_THIS = /^\s*return\s+this\s*;?\s*$/;

const str = (text: string, base: 'plain' | 'home' | 'own' = 'plain'): JsValue => ({ kind: 'str', text, base });
export type Ref = Extract<JsValue, { kind: 'ref' }>;

const ref = (root: string, path: readonly string[] = [], module = false): Ref => ({
  kind: 'ref',
  root,
  path,
  module,
});

/** A member of an object literal; a spread's key is null (it may hold any). */
interface ObjectMember {
  key: string | null;
  value: () => JsValue;
}

/** What a call really calls: see JsValues.invocation. */
export interface Invocation {
  target: JsValue;
  /** The argument nodes, or null when the list is not written out (`f.apply(t, list)`). */
  args: SyntaxNode[] | null;
  construct: boolean;
  /** `f.apply(this, arguments)`: the call hands on its function's own arguments; its callers are the calls to judge. */
  forwarded: boolean;
}

/** `child_process.exec`, `fs.promises.readFile`, `express.().listen`. */
export const refKey = (value: Ref): string => [value.root, ...value.path].join('.');

/** Globals the rules know; a local binding of the same name hides them. */
const GLOBALS = new Set(
  'process globalThis window global self require module Buffer Symbol atob btoa eval Function fetch WebSocket XMLHttpRequest EventSource setTimeout setInterval setImmediate Bun Deno WebAssembly String Object Reflect JSON Array Number Boolean URL Worker importScripts queueMicrotask decodeURIComponent decodeURI unescape Proxy Promise'.split(
    ' ',
  ),
);

/** Node's built-in modules, which `node -e` and the REPL expose as globals of the same name. */
const BUILTIN_MODULE_GLOBALS = new Set(
  'child_process fs vm http https http2 net tls dgram dns os path module worker_threads zlib util'.split(' '),
);

/** Names through which a script reaches the global object (and so every global). */
const GLOBAL_OBJECTS = new Set(['globalThis', 'window', 'global', 'self']);

/** Helpers TypeScript, Babel and esbuild wrap a `require` in: they return what they are given. */
const INTEROP_HELPERS = new Set(
  '__importStar __importDefault __toESM __toCommonJS _interopRequireDefault _interopRequireWildcard _interop_require_default _interop_require_wildcard __importWildcard'.split(
    ' ',
  ),
);

/** Function names bundlers give their module loader (`__webpack_require__(2081)`). */
const BUNDLER_REQUIRE =
  /^(?:__webpack_require__|__nccwpck_require__|__require|_require|__vite_require__|\w*_require__)$/;

const DECODERS = new Set([
  'atob',
  'String.fromCharCode',
  'String.fromCodePoint',
  'decodeURIComponent',
  'decodeURI',
  'unescape',
  'zlib.inflateSync',
  'zlib.inflateRawSync',
  'zlib.gunzipSync',
  'zlib.unzipSync',
  'zlib.brotliDecompressSync',
]);

/** A module specifier as the rules name it: `node:fs/promises` is `fs.promises`, fs-extra is fs. */
export function moduleRef(specifier: string): JsValue {
  const name = specifier.replace(/^node:/, '');
  if (name === 'fs/promises') return ref('fs', ['promises'], true);
  if (/^(?:fs-extra|fs-extra\/esm|graceful-fs|original-fs)$/.test(name)) return ref('fs', [], true);
  if (/^path\/(?:posix|win32)$/.test(name)) return ref('path', [], true);
  const promises = /^(dns|timers|readline|stream)\/promises$/.exec(name);
  if (promises) return ref(promises[1] as string, ['promises'], true);
  return ref(name, [], true);
}

export class JsValues {
  private readonly memo = new Map<number, JsValue>();
  private readonly active = new Set<number>();
  private depth = 0;

  constructor(
    /** Module ids of a bundle's loader (`2081` → `child_process`). */
    private readonly bundled: ReadonlyMap<string, string>,
    /** Whether `$` is zx's (a script run by zx, or one importing `zx/globals`). */
    private readonly zxGlobals: boolean,
    /** What each function returns (JsProgram.returns). */
    private readonly returns: ReadonlyMap<number, readonly Use[]> = new Map(),
    /** What a relative specifier (`./util.js`) loads: another module of the bundle, as its exports (javascript-modules.ts). */
    private readonly local: (specifier: string) => JsValue | null = () => null,
  ) {}

  value(node: SyntaxNode | null | undefined, scope: Scope): JsValue {
    if (!node) return UNKNOWN;
    const memo = this.memo.get(node.id);
    if (memo) return memo;
    if (this.active.has(node.id) || this.depth > MAX_DEPTH) return UNKNOWN;
    this.active.add(node.id);
    this.depth++;
    try {
      const value = this.compute(node, scope);
      this.memo.set(node.id, value);
      return value;
    } finally {
      this.active.delete(node.id);
      this.depth--;
    }
  }

  /** Evaluates a member of an object or a function's result (closures over other values), within the depth limit. */
  private nested(evaluate: () => JsValue): JsValue {
    if (this.depth > MAX_DEPTH) return UNKNOWN;
    this.depth++;
    try {
      return evaluate();
    } finally {
      this.depth--;
    }
  }

  /** What a name stands for in `scope`: a binding's value, a known global, or unknown. */
  name(name: string, scope: Scope): JsValue {
    const binding = lookup(scope, name);
    if (!binding) {
      if (name === '__dirname' || name === '__filename') return str('', 'own');
      if (name === '$' && this.zxGlobals) return ref('zx', ['$'], false);
      if (BUILTIN_MODULE_GLOBALS.has(name)) return moduleRef(name);
      return GLOBALS.has(name) ? ref(name) : UNKNOWN;
    }
    if (binding.kind === 'import') {
      const module = this.module(binding.module);
      // A module's default export is the module, unless it is one of the bundle's (an object of its exports).
      return binding.imported === '*' || (binding.imported === 'default' && module.kind === 'ref')
        ? module
        : this.member(module, binding.imported);
    }
    if (binding.kind === 'local') return UNKNOWN;
    let value = binding.init ? this.value(binding.init, binding.scope) : UNKNOWN;
    for (const key of binding.path) value = this.member(value, this.keyName(key, binding.scope));
    // Stores into a module or a global (monkey-patching) leave what its members were; they are judged where made.
    if (binding.stores.length > 0 && binding.path.length === 0 && value.kind !== 'ref')
      value = this.withStores(value, binding.stores);
    if (binding.assignments.length === 0) return value;
    // Reassigned: a module or global it may hold still counts (`let cp; cp = require('child_process')`),
    // so does what a function it may hold returns (Babel's lazy `function _vm() { … _vm = () => data; … }`);
    // a string no longer is a constant.
    if (value.kind === 'ref') return value;
    const values = [value];
    for (const { node, path } of binding.assignments) {
      let assigned = this.value(node.childForFieldName('right'), binding.scope);
      for (const key of path) assigned = this.member(assigned, this.keyName(key, binding.scope));
      if (assigned.kind === 'ref') return assigned;
      values.push(assigned);
    }
    if (values.every((one) => one.kind === 'fn'))
      return {
        kind: 'fn',
        returns: () => worst(values.map((one) => (one.kind === 'fn' && one.returns?.()) || UNKNOWN)),
      };
    return value.kind === 'unknown' ? value : UNKNOWN;
  }

  member(object: JsValue, key: string): JsValue {
    // `module.constructor` (or `process.mainModule`'s) is Module, which `require('module').Module` names too.
    if (
      object.kind === 'ref' &&
      ((key === 'constructor' && isModuleObject(object)) ||
        (key === 'Module' && object.module && refKey(object) === 'module'))
    )
      return moduleRef('module');
    if (key === 'constructor') {
      // `(function(){}).constructor`, `[]['filter']['constructor']`: the Function constructor, reached without its name.
      if (object.kind === 'fn') return ref('Function');
      if (object.kind === 'arr') return ref('Array');
      if (object.kind === 'str') return ref('String');
      if (
        object.kind === 'ref' &&
        /^(?:Array|String|Object|Number|Boolean|Function)$/.test(object.root) &&
        object.path.length === 0
      )
        return ref('Function');
      if (object.kind === 'ref' && object.root === 'Object' && object.path[0] === 'getPrototypeOf')
        return ref('Function');
      // `Function.prototype.constructor` is Function, `String.prototype.constructor` String.
      if (
        object.kind === 'ref' &&
        /^(?:Array|String|Object|Number|Boolean|Function)$/.test(object.root) &&
        object.path.length === 1 &&
        object.path[0] === 'prototype'
      )
        return ref(object.root);
    }
    switch (object.kind) {
      case 'ref':
        if (object.module && key === 'default') return object;
        if (object.path.length === 0 && GLOBAL_OBJECTS.has(object.root) && key !== '*') return this.globalRef(key);
        return ref(object.root, [...object.path, key]);
      case 'str':
        if (/^\d+$/.test(key)) return str(object.text[Number(key)] ?? '');
        return key === 'length' ? str(String(object.text.length)) : UNKNOWN;
      case 'arr':
        if (/^\d+$/.test(key)) return object.items[Number(key)] ?? UNKNOWN;
        if (key === '*') return worst(object.items);
        return /^(?:filter|map|flat|at|concat|join|reverse|sort|fill|find|some|every|forEach|reduce|push|pop|slice|splice|includes|indexOf|entries|keys|values)$/.test(
          key,
        )
          ? FUNCTION
          : UNKNOWN;
      case 'fn':
        // `f.call(t)` and `f.apply(t)` run f; `f.bind(t)` gives it back.
        if (key === 'call' || key === 'apply') return object;
        return key === 'bind' ? { kind: 'fn', returns: () => object } : UNKNOWN;
      case 'obj':
        return this.nested(() => object.member(key));
      default:
        return object.decoded ? DECODED : UNKNOWN;
    }
  }

  /**
   * What a call really calls, and with what: `f.call(t, a)`, `f.apply(t, [a])`, `Reflect.apply(f, t, [a])`
   * and `Function.prototype.call.call(f, t, a)` all call `f(a)`; `Reflect.construct(C, [a])` is
   * `new C(a)`. A reference's receiver is the reference it was read from (`cp.execSync` for
   * `cp.execSync.call`), which is what `call` and `apply` invoke.
   */
  invocation(target: JsValue, args: SyntaxNode[], scope: Scope, construct = false): Invocation {
    let receiver =
      target.kind === 'ref' && target.path.length > 0 ? ref(target.root, target.path.slice(0, -1)) : UNKNOWN;
    let list: SyntaxNode[] | null = args;
    let forwarded = false;
    const items = (node: SyntaxNode | undefined): SyntaxNode[] | null => {
      forwarded ||= node?.type === 'identifier' && node.text === 'arguments';
      return this.listItems(node, scope);
    };
    for (let depth = 0; depth < 8 && target.kind === 'ref'; depth++) {
      const last = target.path[target.path.length - 1];
      if (target.root === 'Reflect' && target.path.length === 1 && (last === 'apply' || last === 'construct')) {
        const given: SyntaxNode[] = list ?? [];
        construct = last === 'construct';
        target = this.value(given[0], scope);
        receiver = construct ? UNKNOWN : this.value(given[1], scope);
        list = list && items(given[construct ? 1 : 2]);
      } else if (last === 'call' || last === 'apply') {
        target = receiver;
        receiver = this.value(list?.[0], scope);
        list = list && (last === 'call' ? list.slice(1) : items(list[1]));
      } else break;
    }
    return { target, args: list, construct, forwarded };
  }

  /** The items of an argument list given as an array: a literal, or a constant bound to one; null when unknown. */
  private listItems(node: SyntaxNode | undefined, scope: Scope): SyntaxNode[] | null {
    if (node?.type === 'identifier') {
      const binding = lookup(scope, identifierName(node));
      if (binding?.kind !== 'value' || binding.path.length > 0 || binding.assignments.length > 0) return null;
      return binding.init?.type === 'array' ? this.listItems(binding.init, binding.scope) : null;
    }
    if (node?.type !== 'array') return null;
    return node.namedChildren.filter((child): child is SyntaxNode => child !== null && child.type !== 'comment');
  }

  /** A member name as written, or computed: a constant key is its text, any other is `*`. */
  private keyName(key: PathKey, scope: Scope): string {
    if (typeof key === 'string') return key;
    const value = this.value(key, scope);
    return value.kind === 'str' ? value.text : '*';
  }

  /** An object with what was stored into it later (`o.r = cp.exec`): the last store of a member wins. */
  private withStores(object: JsValue, stores: readonly Use[]): JsValue {
    const stored = (key: string): JsValue[] =>
      stores
        .filter(({ node, scope }) => key === '*' || this.storedKey(node, scope) === key)
        .map(({ node, scope }) => this.value(node.childForFieldName('right'), scope));
    return objectOf((key) => {
      const values = stored(key);
      if (key === '*') return worst([...values, this.member(object, key)]);
      return values[values.length - 1] ?? this.member(object, key);
    });
  }

  /** The member name an assignment `o.k = v` or `o[k] = v` stores into. */
  private storedKey(assignment: SyntaxNode, scope: Scope): string {
    const left = assignment.childForFieldName('left');
    const property = left?.childForFieldName(left.type === 'member_expression' ? 'property' : 'index');
    if (!property) return '*';
    return left?.type === 'member_expression' ? identifierName(property) : this.keyName(property, scope);
  }

  /**
   * An object literal, its members read lazily: the last one written wins, a spread (`{...cp}`)
   * holds the members of what it copies, and a computed key reads the worst of them.
   */
  private objectLiteral(node: SyntaxNode, scope: Scope): JsValue {
    const members = (): ObjectMember[] =>
      node.namedChildren.flatMap((child): ObjectMember[] => {
        if (child?.type === 'pair') {
          const key = child.childForFieldName('key');
          const name = !key
            ? '*'
            : key.type === 'computed_property_name'
              ? this.keyName(key.namedChildren[0] ?? '*', scope)
              : (stringValue(key) ?? identifierName(key));
          return [{ key: name, value: () => this.value(child.childForFieldName('value'), scope) }];
        }
        if (child?.type === 'shorthand_property_identifier')
          return [{ key: identifierName(child), value: () => this.name(identifierName(child), scope) }];
        if (child?.type === 'spread_element')
          return [{ key: null, value: () => this.value(child.namedChildren[0], scope) }];
        if (child?.type === 'method_definition') {
          const name = child.childForFieldName('name');
          return name ? [{ key: identifierName(name), value: () => this.value(child, scope) }] : [];
        }
        return [];
      });
    return objectOf((key) => {
      const all = members();
      if (key === '*')
        return worst(all.map((member) => (member.key === null ? this.member(member.value(), '*') : member.value())));
      for (const member of all.reverse()) {
        if (member.key === key) return member.value();
        const copied = member.key === null ? this.member(member.value(), key) : UNKNOWN;
        if (copied.kind !== 'unknown') return copied;
      }
      return UNKNOWN;
    });
  }

  /** `Object.assign(a, b)`: an object with the members of each part, the worst where several have one. */
  private merged(parts: readonly JsValue[]): JsValue {
    return objectOf((key) =>
      worst(parts.map((part) => this.member(part, key)).filter((value) => value.kind !== 'unknown')),
    );
  }

  /**
   * A function as a value: what calling it returns (the worst of its `return`s), or, for a wrapper
   * that hands on its arguments (`return f.apply(this, arguments)`), `f` itself.
   */
  private functionValue(node: SyntaxNode): JsValue {
    const uses = this.returns.get(node.id) ?? [];
    const only = uses.length === 1 ? uses[0] : undefined;
    const callee = only?.node.type === 'call_expression' ? only.node.childForFieldName('function') : null;
    const list = only?.node.type === 'call_expression' ? argumentsOf(only.node)[1] : undefined;
    if (only && callee?.type === 'member_expression' && list?.text === 'arguments') {
      const invoked = this.invocation(this.value(callee, only.scope), argumentsOf(only.node), only.scope);
      if (invoked.forwarded && invoked.target.kind === 'ref') return invoked.target;
    }
    if (uses.length === 0) return FUNCTION;
    // `(function () { return this })()`: called bare, a sloppy-mode function's `this` is the global object.
    if (only?.node.type === 'this' && (node.type === 'function_expression' || node.type === 'function'))
      return GLOBAL_GETTER;
    return { kind: 'fn', returns: () => worst(uses.map(({ node: use, scope }) => this.value(use, scope))) };
  }

  private globalRef(name: string): JsValue {
    if (name === '__dirname' || name === '__filename') return str('', 'own');
    return ref(name);
  }

  private compute(node: SyntaxNode, scope: Scope): JsValue {
    switch (node.type) {
      case 'identifier':
      case 'shorthand_property_identifier':
        return this.name(identifierName(node), scope);
      case 'string':
        return str(stringValue(node) ?? '');
      case 'number':
        return str(String(Number(node.text.replace(/_/g, ''))));
      case 'true':
      case 'false':
        return str(node.type);
      case 'template_string':
        return this.template(node, scope);
      case 'member_expression': {
        const object = node.childForFieldName('object');
        const property = node.childForFieldName('property');
        if (!property) return UNKNOWN;
        const key = identifierName(property);
        if (object?.type === 'meta_property' && /^(?:url|dirname|filename)$/.test(key)) return str('', 'own');
        return this.member(this.value(object, scope), key);
      }
      case 'subscript_expression': {
        const object = this.value(node.childForFieldName('object'), scope);
        const index = node.childForFieldName('index');
        // `process[err ? 'stderr' : 'stdout']`: one of two names written out.
        if (index?.type === 'ternary_expression') {
          const keys = ['consequence', 'alternative'].map((field) => this.value(index.childForFieldName(field), scope));
          if (keys.every((key) => key.kind === 'str'))
            return worst(keys.map((key) => this.member(object, (key as { text: string }).text)));
        }
        const key = this.value(index, scope);
        return this.member(object, key.kind === 'str' ? key.text : '*');
      }
      case 'call_expression':
        return this.call(node, scope);
      case 'new_expression': {
        const constructor = this.value(node.childForFieldName('constructor'), scope);
        return this.result(this.invocation(constructor, argumentsOf(node), scope, true), scope);
      }
      case 'parenthesized_expression':
      case 'sequence_expression': {
        const children = node.namedChildren.filter((child) => child && child.type !== 'comment');
        return this.value(children[children.length - 1], scope);
      }
      case 'await_expression':
      case 'as_expression':
      case 'satisfies_expression':
      case 'non_null_expression':
      case 'type_assertion':
        return this.value(
          node.namedChildren.find((child) => child && !/type|predefined/.test(child.type)),
          scope,
        );
      case 'assignment_expression':
        return this.value(node.childForFieldName('right'), scope);
      case 'unary_expression': {
        // `!0` is true: the minifier's (and the evader's) spelling of a boolean.
        const operand = this.value(node.childForFieldName('argument'), scope);
        if (node.childForFieldName('operator')?.type !== '!' || operand.kind !== 'str') return UNKNOWN;
        return str(String(!(operand.text !== '' && operand.text !== '0' && operand.text !== 'false')));
      }
      case 'binary_expression': {
        if (node.childForFieldName('operator')?.type !== '+') return UNKNOWN;
        return concat(
          this.value(node.childForFieldName('left'), scope),
          this.value(node.childForFieldName('right'), scope),
        );
      }
      case 'ternary_expression': {
        const a = this.value(node.childForFieldName('consequence'), scope);
        const b = this.value(node.childForFieldName('alternative'), scope);
        if (a.kind === 'ref' && b.kind !== 'ref') return a;
        if (b.kind === 'ref' && a.kind !== 'ref') return b;
        return (a.kind === 'unknown' && a.decoded) || (b.kind === 'unknown' && b.decoded)
          ? DECODED
          : a.kind === 'str' && b.kind === 'str' && a.text === b.text
            ? a
            : UNKNOWN;
      }
      case 'object': {
        // `{...process.env, A: '1'}` is a copy of the environment: where it goes matters as for the original.
        const spread = node.namedChildren.find((child) => child?.type === 'spread_element');
        const copied = spread ? this.value(spread.namedChildren[0], scope) : UNKNOWN;
        return copied.kind === 'ref' &&
          copied.root === 'process' &&
          copied.path.length === 1 &&
          copied.path[0] === 'env'
          ? copied
          : this.objectLiteral(node, scope);
      }
      case 'array':
        return {
          kind: 'arr',
          items: node.namedChildren
            .filter((child) => child && child.type !== 'comment')
            .map((child) => (child?.type === 'spread_element' ? UNKNOWN : this.value(child, scope))),
        };
      case 'arrow_function':
      case 'function_expression':
      case 'function':
      case 'function_declaration':
      case 'method_definition':
        return this.functionValue(node);
      case 'generator_function':
      case 'generator_function_declaration':
      case 'class':
        return FUNCTION;
      default:
        return UNKNOWN;
    }
  }

  private template(node: SyntaxNode, scope: Scope): JsValue {
    let text = '';
    let decoded = false;
    let known = true;
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'string_fragment') text += child.text;
      else if (child.type === 'escape_sequence') text += unescapeJs(child.text);
      else if (child.type === 'template_substitution') {
        const value = this.value(child.namedChildren[0], scope);
        if (value.kind === 'str') text += value.text;
        else {
          known = false;
          decoded ||= value.kind === 'unknown' && value.decoded;
        }
      }
    }
    return known ? str(text) : decoded ? DECODED : UNKNOWN;
  }

  private call(node: SyntaxNode, scope: Scope): JsValue {
    const callee = node.childForFieldName('function');
    const argsNode = node.childForFieldName('arguments');
    if (!callee || !argsNode || argsNode.type === 'template_string') return UNKNOWN;
    const args = argumentsOf(node);
    if (callee.type === 'import') return this.required(args[0], scope);
    if (callee.type === 'identifier') {
      const name = identifierName(callee);
      if (INTEROP_HELPERS.has(name)) return this.value(args[0], scope);
      if (isRequireName(name)) return this.required(args[0], scope);
      const bundled = this.bundledModule(name, args[0], scope);
      if (bundled) return bundled;
    }
    let target: JsValue;
    if (callee.type === 'member_expression') {
      const object = this.value(callee.childForFieldName('object'), scope);
      const property = callee.childForFieldName('property');
      const method = property ? identifierName(property) : '';
      const computed = constantMethod(
        object,
        method,
        args.map((arg) => this.value(arg, scope)),
      );
      if (computed) return computed;
      target = this.member(object, method);
    } else {
      target = this.value(callee, scope);
    }
    return this.result(this.invocation(target, args, scope), scope);
  }

  /** What an invocation returns. */
  private result({ target, args: list, construct }: Invocation, scope: Scope): JsValue {
    const args = list ?? [];
    if (target.kind === 'fn') return this.nested(() => target.returns?.() ?? UNKNOWN);
    if (target.kind === 'unknown') return target.decoded ? DECODED : UNKNOWN;
    if (target.kind !== 'ref') return UNKNOWN;
    const key = refKey(target);
    // `Function('return this')`: a function that returns the global object (a sloppy-mode `this`).
    if (key === 'Function' && args.length === 1) {
      const code = this.value(args[0], scope);
      if (code.kind === 'str' && RETURNS_THIS.test(code.text)) return GLOBAL_GETTER;
    }
    if (construct) return this.constructed(target, args, scope);
    const sink = sinkOf(target.root, target.path);
    if (sink === 'load') return this.required(args[0], scope);
    if (sink === 'make-require') return ref('require');
    // `f.bind(t)` is `f`; `Function.prototype.call.bind(f)` is `f.call`.
    if (target.path[target.path.length - 1] === 'bind') {
      const bound = ref(target.root, target.path.slice(0, -1));
      const last = bound.path[bound.path.length - 1];
      if (last !== 'call' && last !== 'apply') return bound;
      const self = this.value(args[0], scope);
      return self.kind === 'ref' ? ref(self.root, [...self.path, last]) : UNKNOWN;
    }
    if (key === 'Reflect.get') return this.member(this.value(args[0], scope), this.keyName(args[1] ?? '*', scope));
    if (key === 'Promise.resolve') return this.value(args[0], scope);
    if (key === 'Object.assign') return this.merged(args.map((arg) => this.value(arg, scope)));
    if (key === 'Object.values') return { kind: 'arr', items: [this.member(this.value(args[0], scope), '*')] };
    if (key === 'Object.getOwnPropertyDescriptor' || key === 'Reflect.getOwnPropertyDescriptor') {
      const member = this.member(this.value(args[0], scope), this.keyName(args[1] ?? '*', scope));
      return { kind: 'obj', member: (name) => (name === 'value' || name === 'get' ? member : UNKNOWN) };
    }
    // `promisify(exec)` runs what it wraps.
    if (key === 'util.promisify') return this.value(args[0], scope);
    if (DECODERS.has(key) || /^zlib\.\w*(?:inflate|gunzip|unzip|decompress)\w*Sync$/i.test(key)) return DECODED;
    if (key === 'Buffer.from') {
      const encoding = this.value(args[1], scope);
      return encoding.kind === 'str' && /^(?:base64|base64url|hex)$/i.test(encoding.text) ? DECODED : UNKNOWN;
    }
    if (/^path(?:\.posix|\.win32)?\.(?:join|resolve|normalize)$/.test(key))
      return joinPaths(
        args.map((arg) => this.value(arg, scope)),
        key.endsWith('resolve'),
      );
    if (/^path(?:\.posix)?\.dirname$/.test(key) || key === 'url.fileURLToPath') {
      const path = this.value(args[0], scope);
      return path.kind === 'str' && path.base === 'own'
        ? path
        : path.kind === 'str' && key !== 'url.fileURLToPath'
          ? str(path.text.replace(/\/[^/]*$/, ''), path.base)
          : UNKNOWN;
    }
    if (key === 'os.homedir') return str('~', 'home');
    if (key === 'os.tmpdir') return str('/tmp');
    if (key === 'process.cwd') return str('.');
    return ref(target.root, [...target.path, '()']);
  }

  /** What `new target(...args)` gives: an instance, a URL (kept when it is under the skill's folder), a proxy's target. */
  private constructed(target: Ref, args: SyntaxNode[], scope: Scope): JsValue {
    if (target.root === 'URL' && target.path.length === 0) {
      const base = this.value(args[1], scope);
      return base.kind === 'str' && base.base === 'own' ? base : UNKNOWN;
    }
    if (target.root === 'Proxy' && target.path.length === 0) return this.value(args[0], scope);
    return ref(target.root, [...target.path, '()']);
  }

  /** What `require(specifier)` or `import(specifier)` returns: the module, when the specifier is a constant. */
  private required(specifier: SyntaxNode | undefined, scope: Scope): JsValue {
    const value = this.value(specifier, scope);
    if (value.kind !== 'str') return UNKNOWN;
    return this.module(value.base === 'own' ? `./${value.text}` : value.text);
  }

  /** A module by its specifier: one of the bundle's own modules as what it exports, any other by name. */
  module(specifier: string): JsValue {
    return (/^\.{1,2}\//.test(specifier) ? this.local(specifier) : null) ?? moduleRef(specifier);
  }

  /** `__webpack_require__(2081)` (or a minified loader passed as a parameter) for a module the bundle left out. */
  private bundledModule(name: string, arg: SyntaxNode | undefined, scope: Scope): JsValue | null {
    if (!arg || (arg.type !== 'number' && arg.type !== 'string') || this.bundled.size === 0) return null;
    const binding = lookup(scope, name);
    if (binding && binding.kind !== 'local' && !BUNDLER_REQUIRE.test(name)) return null;
    if (!binding && !BUNDLER_REQUIRE.test(name)) return null;
    const key = arg.type === 'number' ? arg.text : (stringValue(arg) ?? '');
    const module = this.bundled.get(key);
    return module ? moduleRef(module) : null;
  }
}

/**
 * `require`, and esbuild's `__require` shim: called with a string, whatever binds the name, they
 * load a module (a bundler's loader parameter named `require` takes module ids, which are no strings).
 */
export const isRequireName = (name: string): boolean => name === 'require' || name === '__require';

/**
 * An object whose members are read by `member`, each once: a member read while it is being read
 * (an object that spreads or stores itself) is unknown.
 */
function objectOf(member: (key: string) => JsValue): JsValue {
  const read = new Map<string, JsValue>();
  return {
    kind: 'obj',
    member: (key) => {
      const known = read.get(key);
      if (known) return known;
      read.set(key, UNKNOWN);
      const value = member(key);
      read.set(key, value);
      return value;
    },
  };
}

/**
 * The global `module`, `process.mainModule` and `require.main`: module objects, whose constructor
 * is Module (an unbound `module` may also name the core module, see BUILTIN_MODULE_GLOBALS).
 */
const isModuleObject = (value: Ref): boolean => /^(?:module|process\.mainModule|require\.main)$/.test(refKey(value));

/**
 * Of values one of which is used (a computed member, a function's returns): the reference whose
 * call is worst (node-sinks.ts), or the first reference, or what is known of the rest.
 */
function worst(values: readonly JsValue[]): JsValue {
  const refs = values.filter((value): value is Ref => value.kind === 'ref');
  if (refs.length > 0)
    return refs.reduce((a, b) => (severity(sinkOf(b.root, b.path)) > severity(sinkOf(a.root, a.path)) ? b : a));
  if (values.some((value) => value.kind === 'unknown' && value.decoded)) return DECODED;
  return values.length === 1 ? (values[0] as JsValue) : UNKNOWN;
}

/** A call's arguments, without comments (and without the tag of a tagged template). */
export function argumentsOf(node: SyntaxNode): SyntaxNode[] {
  const args = node.childForFieldName('arguments');
  if (!args || args.type === 'template_string') return [];
  return args.namedChildren.filter((child): child is SyntaxNode => child !== null && child.type !== 'comment');
}

function concat(left: JsValue, right: JsValue): JsValue {
  if (left.kind === 'str' && right.kind === 'str') return str(left.text + right.text, left.base);
  if ((left.kind === 'unknown' && left.decoded) || (right.kind === 'unknown' && right.decoded)) return DECODED;
  return UNKNOWN;
}

/** String and array methods whose result is known from constants (`'a'.concat('b')`, `['e','v'].join('')`). */
function constantMethod(object: JsValue, method: string, args: readonly JsValue[]): JsValue | null {
  if (object.kind === 'unknown' && object.decoded) return DECODED;
  const texts = args.map((arg) => (arg.kind === 'str' ? arg.text : null));
  if (object.kind === 'str') {
    switch (method) {
      case 'concat':
        return texts.every((text) => text !== null) ? str(object.text + texts.join(''), object.base) : UNKNOWN;
      case 'toString':
      case 'valueOf':
      case 'trim':
        return str(method === 'trim' ? object.text.trim() : object.text, object.base);
      case 'toLowerCase':
      case 'toUpperCase':
        return str(method === 'toLowerCase' ? object.text.toLowerCase() : object.text.toUpperCase());
      case 'split':
        return texts[0] !== null && texts[0] !== undefined
          ? { kind: 'arr', items: object.text.split(texts[0]).map((part) => str(part)) }
          : null;
      case 'replace':
      case 'replaceAll':
        if (texts[0] === null || texts[0] === undefined || texts[1] === null || texts[1] === undefined) return UNKNOWN;
        return str(
          method === 'replace'
            ? object.text.replace(texts[0], () => texts[1] as string)
            : object.text.split(texts[0]).join(texts[1]),
        );
      default:
        return null;
    }
  }
  if (object.kind === 'arr') {
    if (method === 'join') {
      const separator = texts[0] ?? ',';
      const items = object.items.map((item) => (item.kind === 'str' ? item.text : null));
      if (items.every((item) => item !== null)) return str(items.join(separator));
      return object.items.some((item) => item.kind === 'unknown' && item.decoded) ? DECODED : UNKNOWN;
    }
    if (method === 'reverse') return { kind: 'arr', items: [...object.items].reverse() };
  }
  return null;
}

/** `path.join` / `path.resolve` of constants: `~` and the skill's folder are kept as the base. */
function joinPaths(parts: readonly JsValue[], resolve: boolean): JsValue {
  let base: 'plain' | 'home' | 'own' = 'plain';
  const segments: string[] = [];
  for (const [i, part] of parts.entries()) {
    if (part.kind !== 'str') return part.kind === 'unknown' && part.decoded ? DECODED : UNKNOWN;
    if (i === 0) base = part.base;
    if (resolve && i > 0 && part.text.startsWith('/')) {
      base = 'plain';
      segments.length = 0;
    }
    if (part.text !== '') segments.push(part.text);
  }
  const text = segments.join('/').replace(/\/{2,}/g, '/');
  return str(base === 'home' ? text.replace(/^~(?=[^/])/, '~/') : text, base);
}
