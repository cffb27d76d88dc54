/**
 * What JavaScript expressions are worth, as far as a file tells: a module or global object reached
 * through imports, requires, aliases, destructuring, bundler wrappers and constant keys
 * (`cp['ex' + 'ec']` is `child_process.exec`); a constant string (`path.join(os.homedir(), '.ssh')`
 * is `~/.ssh`); or something unknown, marked when it was decoded from base64, hex or char codes.
 */
import type { SyntaxNode } from './grammars';
import { identifierName, lookup, stringValue, unescapeJs, type Scope } from './javascript-program';

export type JsValue =
  /** A module (`child_process`) or a global (`process`) and the members reached from it; `()` is a call's result. */
  | { kind: 'ref'; root: string; path: readonly string[]; module: boolean }
  /** A constant string; `home` and `own` strings are paths under `~` and under the skill's own folder. */
  | { kind: 'str'; text: string; base: 'plain' | 'home' | 'own' }
  | { kind: 'arr'; items: readonly JsValue[] }
  | { kind: 'fn' }
  | { kind: 'unknown'; decoded: boolean };

export const UNKNOWN: JsValue = { kind: 'unknown', decoded: false };
const DECODED: JsValue = { kind: 'unknown', decoded: true };
const FUNCTION: JsValue = { kind: 'fn' };

const str = (text: string, base: 'plain' | 'home' | 'own' = 'plain'): JsValue => ({ kind: 'str', text, base });
const ref = (root: string, path: readonly string[] = [], module = false): JsValue => ({
  kind: 'ref',
  root,
  path,
  module,
});

/** `child_process.exec`, `fs.promises.readFile`, `express.().listen`. */
export const refKey = (value: Extract<JsValue, { kind: 'ref' }>): string => [value.root, ...value.path].join('.');

/** Globals the rules know; a local binding of the same name hides them. */
const GLOBALS = new Set(
  'process globalThis window global self require module Buffer Symbol atob btoa eval Function fetch WebSocket XMLHttpRequest EventSource setTimeout setInterval setImmediate Bun Deno WebAssembly String Object Reflect JSON Array Number Boolean URL Worker importScripts queueMicrotask decodeURIComponent decodeURI unescape'.split(
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
  ) {}

  value(node: SyntaxNode | null | undefined, scope: Scope): JsValue {
    if (!node) return UNKNOWN;
    const memo = this.memo.get(node.id);
    if (memo) return memo;
    if (this.active.has(node.id) || this.depth > 48) return UNKNOWN;
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
      const module = moduleRef(binding.module);
      return binding.imported === '*' || binding.imported === 'default'
        ? module
        : this.member(module, binding.imported);
    }
    if (binding.kind === 'local') return UNKNOWN;
    let value = binding.init ? this.value(binding.init, binding.scope) : UNKNOWN;
    for (const key of binding.path) value = this.member(value, key);
    if (binding.assignments.length === 0) return value;
    // Reassigned: a module or global it may hold still counts (`let cp; cp = require('child_process')`),
    // a string no longer is a constant.
    if (value.kind === 'ref') return value;
    for (const assignment of binding.assignments) {
      const assigned = this.value(assignment.childForFieldName('right'), binding.scope);
      if (assigned.kind === 'ref') return assigned;
    }
    return value.kind === 'unknown' ? value : UNKNOWN;
  }

  member(object: JsValue, key: string): JsValue {
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
        return /^(?:filter|map|flat|at|concat|join|reverse|sort|fill|find|some|every|forEach|reduce|push|pop|slice|splice|includes|indexOf|entries|keys|values)$/.test(
          key,
        )
          ? FUNCTION
          : UNKNOWN;
      case 'fn':
        return /^(?:call|apply|bind)$/.test(key) ? FUNCTION : UNKNOWN;
      default:
        return object.decoded ? DECODED : UNKNOWN;
    }
  }

  private globalRef(name: string): JsValue {
    if (name === '__dirname' || name === '__filename') return str('', 'own');
    return ref(name);
  }

  private compute(node: SyntaxNode, scope: Scope): JsValue {
    switch (node.type) {
      case 'identifier':
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
        const index = this.value(node.childForFieldName('index'), scope);
        return this.member(
          this.value(node.childForFieldName('object'), scope),
          index.kind === 'str' ? index.text : '*',
        );
      }
      case 'call_expression':
        return this.call(node, scope);
      case 'new_expression': {
        const constructor = this.value(node.childForFieldName('constructor'), scope);
        const args = argumentsOf(node);
        if (constructor.kind === 'ref' && constructor.root === 'URL' && constructor.path.length === 0) {
          const base = this.value(args[1], scope);
          return base.kind === 'str' && base.base === 'own' ? base : UNKNOWN;
        }
        return constructor.kind === 'ref' ? ref(constructor.root, [...constructor.path, '()']) : UNKNOWN;
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
          : UNKNOWN;
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
      case 'generator_function':
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
    if (callee.type === 'import') {
      const specifier = this.value(args[0], scope);
      return specifier.kind === 'str' ? moduleRef(specifier.text) : UNKNOWN;
    }
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
    if (target.kind === 'unknown') return target.decoded ? DECODED : UNKNOWN;
    if (target.kind !== 'ref') return UNKNOWN;
    const key = refKey(target);
    if (isRequireKey(key)) return this.required(args[0], scope);
    if (key === 'module.createRequire') return ref('require');
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

  /** What `require(specifier)` returns: the module, when the specifier is a constant. */
  private required(specifier: SyntaxNode | undefined, scope: Scope): JsValue {
    const value = this.value(specifier, scope);
    if (value.kind !== 'str') return UNKNOWN;
    return moduleRef(value.base === 'own' ? `./${value.text}` : value.text);
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

/** `require`, `module.require`, and `process.mainModule.require` (the way out of a sandboxed `require`). */
export const isRequireKey = (key: string): boolean =>
  /^(?:require|module\.require|process\.mainModule\.require|require\.main\.require)$/.test(key);

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
