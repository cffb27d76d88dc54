/**
 * The JavaScript and TypeScript rules: what each resolved call, `new`, member access and import
 * does (runs a program, runs code built at run time, loads native code, uses the network, reads
 * the environment or files), with the constant command lines handed to a shell analysed as shell.
 */
import type { AnalyzerContext } from './analyzer-context';
import type { SyntaxNode } from './grammars';
import {
  collectProgram,
  identifierName,
  lookup,
  stringValue,
  type JsProgram,
  type Scope,
  type Use,
} from './javascript-program';
import { JsValues, argumentsOf, isRequireName, refKey, type JsValue, type Ref } from './javascript-values';
import { NODE_SINKS, sinkOf, type SinkKind } from './node-sinks';
import { CREDENTIAL_WORDS, ENV_FILE, credentialIn } from './credential-paths';
import { SHELLS, codeSource, interpreterOf, programName, shellSource } from './shell-commands';
import type { Findings } from './findings';
import { firstSyntaxError, lineOf } from './syntax';

/** What a call or `new` of a resolved function does. */
type Api =
  | { kind: 'shell' }
  | { kind: 'argv' }
  /** `process.execve(file, argv)`: the list starts with the program's own name. */
  | { kind: 'execve' }
  | { kind: 'command-line' }
  | { kind: 'fork' }
  | { kind: 'bun-spawn' }
  | { kind: 'deno-command' }
  | { kind: 'deno-run' }
  | { kind: 'shelljs'; command: string }
  | { kind: 'dynamic'; what: string }
  | { kind: 'timer' }
  | { kind: 'native'; what: string }
  | { kind: 'worker' }
  | { kind: 'network' }
  /** A browser started (Playwright, Puppeteer): a program run, and the network it browses. */
  | { kind: 'browser' }
  | { kind: 'inbound' }
  /** Writes the paths at `writes`, reading those at `reads` (`copyFile(from, to)`). */
  | { kind: 'write'; reads: readonly number[]; writes: readonly number[] }
  | { kind: 'read' }
  | { kind: 'env'; whole: boolean };

/** HTTP clients and socket libraries: any call into them goes to the network. */
const NETWORK_MODULES = new Set(
  'axios got node-fetch cross-fetch isomorphic-fetch undici superagent needle request ky ofetch phin make-fetch-happen wretch bent socket.io-client ssh2 ftp basic-ftp nodemailer'.split(
    ' ',
  ),
);

/**
 * Database clients and the calls that connect them (`new Client()`, `createPool()`, `MongoClient`):
 * a database is a server, reached over the network (a local socket included).
 */
const DATABASE_CONNECTS: ReadonlyMap<string, RegExp> = new Map([
  ['pg', /^(?:Client|Pool|native)$/],
  ['pg-pool', /^$/],
  ['postgres', /^$/],
  ['mysql', /^(?:createConnection|createPool|createPoolCluster)$/],
  ['mysql2', /^(?:createConnection|createPool|createPoolCluster)$/],
  ['mysql2/promise', /^(?:createConnection|createPool|createPoolCluster)$/],
  ['mongodb', /^MongoClient$/],
  ['mongoose', /^(?:connect|createConnection)$/],
  ['ioredis', /^(?:|Cluster|Redis)$/],
  ['redis', /^(?:createClient|createCluster)$/],
  ['@elastic/elasticsearch', /^Client$/],
]);

/** Browser automation: the members that start a browser (`chromium.launch()`, `puppeteer.launch()`). */
const BROWSER_MODULES = new Set('playwright playwright-core @playwright/test puppeteer puppeteer-core'.split(' '));
const BROWSER_LAUNCH = /^(?:launch|launchPersistentContext|launchServer)$/;

const SERVER_MODULES = new Set('express fastify koa polka restify connect hapi @hapi/hapi'.split(' '));

/** Modules that load native code or bind C functions. */
const NATIVE_MODULES = new Set(
  'ffi-napi ffi @napi-ffi/ffi-napi koffi node-gyp-build bindings ref-napi @mapbox/node-pre-gyp node-pre-gyp node-addon-api sbffi'.split(
    ' ',
  ),
);

/** Expressions whose value, handed on, may be a module or one of its functions. */
const HANDED_ON = new Set(['identifier', 'member_expression', 'subscript_expression']);

/** How messages name the Function constructor (and how the rules recognise its calls). */
const FUNCTION_CONSTRUCTOR = 'the Function constructor';

const FS_WRITES = new Set(
  'writeFile appendFile createWriteStream mkdir mkdtemp rm rmdir unlink rename copyFile cp symlink link truncate chmod chown lchown utimes outputFile outputJson outputJSON writeJson writeJSON ensureDir ensureFile mkdirp mkdirs remove emptyDir emptydir move copy ensureLink ensureSymlink'.split(
    ' ',
  ),
);
const FS_READS = new Set('readFile createReadStream readdir opendir readJson readJSON readlink open'.split(' '));

/** Environment variables that describe the run, not secrets (NODE_ENV is read by most bundled libraries). */
const CONTEXT_VARIABLES = new Set('NODE_ENV HOME PATH USER PWD TMPDIR TMP TEMP SHELL LANG TERM'.split(' '));

/**
 * `.execSync(`, `.spawnSync(` on an object the analysis could not resolve (a bundler's module):
 * still child_process, whose synchronous runners no other common API spells the same.
 */
const UNMISTAKABLE_METHODS = new Set(
  Object.keys(NODE_SINKS.get('child_process') ?? {}).filter((name) => name.endsWith('Sync')),
);

/** Credential literals looked at per file: past that, a file is built to wear the analyser out. */
const MAX_CREDENTIAL_WORDS = 200;

/** Depth of code inside code (`eval("eval('…')")`) beyond which nothing is believed. */
const MAX_NESTING = 4;

/** Where an inspector reports: its own lines, or the one line of the string its code came from. */
interface Nesting {
  line: number | null;
  depth: number;
}

export class JsInspector {
  constructor(
    private readonly program: JsProgram,
    private readonly values: JsValues,
    private readonly context: AnalyzerContext,
    private readonly findings: Findings,
    private readonly tree: SyntaxNode,
    private readonly source: string,
    private readonly nesting: Nesting = { line: null, depth: 0 },
  ) {}

  private line(node: SyntaxNode): number {
    return this.nesting.line ?? lineOf(node);
  }

  run(): void {
    for (const { node, module } of this.program.imports) this.importRules(module, node);
    for (const use of this.program.calls) this.call(use);
    for (const use of this.program.news) this.construct(use);
    for (const use of this.program.subscripts) this.computedAccess(use);
    for (const use of this.program.members) this.memberRead(use);
    for (const use of this.program.spreads) this.spread(use);
    for (const use of this.program.patterns) this.destructuring(use);
    for (const use of this.program.withs) this.withObject(use);
    this.names();
    this.credentialLiterals();
  }

  // --- calls ------------------------------------------------------------------------------------

  private call({ node, scope }: Use): void {
    const callee = node.childForFieldName('function');
    const argsNode = node.childForFieldName('arguments');
    if (!callee || !argsNode) return;
    if (argsNode.type === 'template_string') {
      this.taggedTemplate(this.values.value(callee, scope), argsNode, node);
      return;
    }
    const written = argumentsOf(node);
    for (const arg of written) this.handedOn(arg, scope);
    if (callee.type === 'import') {
      this.moduleLoad(written[0], this.values.value(written[0], scope), node, 'import()');
      return;
    }
    if (callee.type === 'identifier' && isRequireName(identifierName(callee))) {
      this.moduleLoad(written[0], this.values.value(written[0], scope), node, 'require()');
      return;
    }
    const invocation = this.values.invocation(this.values.value(callee, scope), written, scope);
    const args = invocation.args ?? [];
    let target = invocation.target;
    if (target.kind !== 'ref') {
      const property = callee.type === 'member_expression' ? callee.childForFieldName('property') : null;
      const method = property ? identifierName(property) : '';
      if (!UNMISTAKABLE_METHODS.has(method) || target.kind === 'fn') return;
      target = { kind: 'ref', root: 'child_process', path: [method], module: false };
    }
    this.wholeEnvArguments(target, args, scope);
    const key = refKey(target);
    if (
      key === 'Function' &&
      /^(?:member|subscript)_expression$/.test(callee.type) &&
      /constructor['"`]?\]?$/.test(callee.text)
    ) {
      this.findings.issue(
        'obfuscation',
        this.line(node),
        'Reaches the Function constructor through .constructor, without naming it.',
        node.text,
      );
    }
    const sink = sinkOf(target.root, target.path);
    if (sink && target.path.includes('*')) {
      const message = `Calls a member of ${target.root} picked by a name computed at run time.`;
      this.findings.issue('dynamic-code', this.line(node), message, node.text);
    }
    // `Reflect.get(cp, name)` picks a member as `cp[name]` does.
    if (key === 'Reflect.get' && args[1]) this.computedMember(this.values.value(args[0], scope), args[1], node, scope);
    if (sink === 'load') {
      this.internalLoader(target, node);
      // A wrapper's body (`return require.apply(this, arguments)`): the names are those its callers give.
      if (!invocation.forwarded) this.moduleLoad(args[0], this.values.value(args[0], scope), node, `${key}()`);
      return;
    }
    const api = apiOf(target, invocation.construct);
    if (api) this.apply(api, node, invocation.args, scope);
  }

  private construct({ node, scope }: Use): void {
    const constructor = this.values.value(node.childForFieldName('constructor'), scope);
    const written = argumentsOf(node);
    for (const arg of written) this.handedOn(arg, scope);
    const invocation = this.values.invocation(constructor, written, scope, true);
    const target = invocation.target;
    if (target.kind !== 'ref') return;
    const api = apiOf(target, invocation.construct);
    if (api) this.apply(api, node, invocation.args, scope);
  }

  /**
   * A sink handed on as a value (any argument; a member read such as `cp.exec` also as an array
   * item, an object member or a value stored into a member), which the analysis may not follow to
   * where it is called: what it can do is recorded where it is handed on. A program runner, or a
   * module that has one, is the process_exec capability. A function that runs code or loads native
   * code handed to another function (`arr.map(eval)`, `new Map([['dl', process.dlopen]])`) is
   * refused; in a list or an object that stays here it is judged where it is read back and called
   * (`[Object, eval].forEach(…)` lists builtins). The Function constructor, which code names as a
   * type, and prototypes are not judged.
   */
  private handedOn(node: SyntaxNode, scope: Scope): void {
    if (!HANDED_ON.has(node.type)) return;
    const value = this.values.value(node, scope);
    if (value.kind !== 'ref') return;
    const member = sinkOf(value.root, value.path);
    const whole = value.path.length === 0 && value.module ? sinkOf(value.root, ['*']) : null;
    const runs = [member, whole].some((kind) => kind === 'shell' || kind === 'argv' || kind === 'process');
    const evaluates = (member === 'code' || member === 'native') && value.root !== 'Function';
    if ((!runs && !evaluates) || value.path.includes('prototype') || !isHandedOn(node)) return;
    const line = this.line(node);
    const evidence = (node.parent?.type === 'arguments' ? node.parent.parent : null) ?? node;
    if (runs) this.findings.capability('process_exec', line, evidence.text);
    if (!evaluates || !inArguments(node)) return;
    const name = refKey(value);
    if (member === 'code')
      this.findings.issue('dynamic-code', line, `Hands ${name}, which runs code, on as a value.`, evidence.text);
    else
      this.findings.issue('native-code', line, `Hands ${name}, which loads native code, on as a value.`, evidence.text);
  }

  /** `with (cp) { exec(x) }`: every member of a module or of the global object becomes a name no rule sees resolved. */
  private withObject({ node, scope }: Use): void {
    const object = this.values.value(node, scope);
    if (object.kind !== 'ref' || object.path.length > 0) return;
    if (!/^(?:globalThis|window|global|self)$/.test(object.root) && sinkOf(object.root, ['*']) === null) return;
    const message = `Puts the members of ${object.root} in scope (with), which hides which one is used.`;
    this.findings.issue('dynamic-code', this.line(node), message, node.parent?.text ?? node.text);
  }

  /** `module._load(name)`, `Module._load`: a module loaded through Node's internals instead of `require`. */
  private internalLoader(target: Ref, node: SyntaxNode): void {
    if (!target.path.some((part) => part.startsWith('_'))) return;
    const message = `Loads a module through Node's internal loader (${refKey(target)}).`;
    this.findings.issue('dynamic-code', this.line(node), message, node.text);
  }

  /** Judges a call of `api`; `list` is null when the arguments are not written out (`Reflect.apply(f, t, args)`). */
  private apply(api: Api, node: SyntaxNode, list: SyntaxNode[] | null, scope: Scope): void {
    const line = this.line(node);
    const evidence = node.text;
    const args = list ?? [];
    const value = (i: number): JsValue => this.values.value(args[i], scope);
    switch (api.kind) {
      case 'shell':
        this.findings.capability('process_exec', line, evidence);
        this.shellLine(value(0), line, evidence, 'Runs a shell command line built at run time');
        return;
      case 'argv':
      case 'execve':
      case 'bun-spawn':
      case 'deno-command':
      case 'deno-run': {
        this.findings.capability('process_exec', line, evidence);
        const { argv, options } = this.argvOf(api.kind, args, scope);
        this.argv(argv, options, scope, line, evidence);
        return;
      }
      case 'command-line':
        this.findings.capability('process_exec', line, evidence);
        this.shellLine(value(0), line, evidence, 'Runs a command line built at run time');
        return;
      case 'fork':
        this.findings.capability('process_exec', line, evidence);
        return;
      case 'shelljs': {
        const values = args.map((_, i) => value(i));
        this.findings.capability(
          /^(?:cat|head|tail|grep|ls|find|which|echo|pwd|test)$/.test(api.command) ? 'process_exec' : 'file_write',
          line,
          evidence,
        );
        if (values.every((item) => item.kind === 'str')) {
          this.findings.merge(
            this.context.shell(
              [api.command, ...values.map((item) => quote((item as { text: string }).text))].join(' '),
              line,
            ),
          );
        }
        return;
      }
      case 'dynamic': {
        const values = args.map((_, i) => value(i));
        // `Function('return this')`, `eval('1 + 1')`: a constant is code like the rest of the file, analysed as such.
        const code =
          list === null
            ? null
            : api.what === FUNCTION_CONSTRUCTOR
              ? functionSource(values)
              : values.length === 1 && api.what === 'eval'
                ? values[0]
                : null;
        if (code?.kind === 'str' && this.constantCode(code.text, line, evidence)) return;
        this.findings.issue('dynamic-code', line, `Runs code built at run time (${api.what}).`, evidence);
        if (values.some(isDecoded)) {
          this.findings.issue(
            'obfuscation',
            line,
            'Decodes hidden code (base64, hex or char codes) and runs it.',
            evidence,
          );
        }
        return;
      }
      case 'timer': {
        const first = value(0);
        if (first.kind === 'str' && this.constantCode(first.text, line, evidence)) return;
        if (isDecoded(first) || this.stringy(args[0], scope)) {
          this.findings.issue('dynamic-code', line, 'Passes a string to a timer, which runs it as code.', evidence);
        }
        return;
      }
      case 'native':
        this.findings.issue('native-code', line, `Loads native code (${api.what}).`, evidence);
        return;
      case 'worker': {
        const options = objectArgument(args);
        const flag = options ? this.values.value(propertyValue(options, 'eval'), scope) : null;
        if (flag?.kind === 'str' && flag.text === 'true')
          this.findings.issue('dynamic-code', line, 'Starts a worker from a string of code (eval: true).', evidence);
        else if (isDataUrl(args[0], this.values, scope))
          this.findings.issue('dynamic-code', line, 'Starts a worker from a data: URL, a string of code.', evidence);
        return;
      }
      case 'network':
        this.findings.capability('network', line, evidence);
        return;
      case 'browser':
        this.findings.capability('process_exec', line, evidence);
        this.findings.capability('network', line, evidence);
        return;
      case 'inbound':
        this.findings.capability('network_inbound', line, evidence);
        return;
      case 'write':
        this.findings.capability('file_write', line, evidence);
        for (const i of api.reads) this.path(value(i), line, evidence, 'read');
        for (const i of api.writes) this.path(value(i), line, evidence, 'write');
        return;
      case 'read':
        this.path(value(0), line, evidence, 'read');
        return;
      case 'env':
        this.findings.capability('env_read', line, evidence);
        if (api.whole) this.findings.wholeEnvironmentRead(line, evidence);
        return;
    }
  }

  /** Whether an expression is a string, even one whose text is unknown (`process.argv[2] || 'x'`, `` `…${x}` ``). */
  private stringy(node: SyntaxNode | undefined, scope: Scope, depth = 0): boolean {
    if (!node || depth > 4) return false;
    const value = this.values.value(node, scope);
    if (value.kind === 'str') return true;
    if (
      value.kind === 'ref' &&
      value.root === 'process' &&
      /^(?:argv|env)$/.test(value.path[0] ?? '') &&
      value.path.length === 2
    )
      return true;
    switch (node.type) {
      case 'template_string':
        return true;
      case 'parenthesized_expression':
        return this.stringy(node.namedChildren[0] ?? undefined, scope, depth + 1);
      case 'binary_expression': {
        const operator = node.childForFieldName('operator')?.type ?? '';
        const sides = [node.childForFieldName('left'), node.childForFieldName('right')];
        if (operator === '+' || operator === '||' || operator === '??')
          return sides.some((side) => this.stringy(side ?? undefined, scope, depth + 1));
        return false;
      }
      case 'ternary_expression':
        return ['consequence', 'alternative'].some((field) =>
          this.stringy(node.childForFieldName(field) ?? undefined, scope, depth + 1),
        );
      case 'identifier': {
        const binding = lookup(scope, identifierName(node));
        return (
          binding?.kind === 'value' &&
          binding.path.length === 0 &&
          this.stringy(binding.init ?? undefined, binding.scope, depth + 1)
        );
      }
      default:
        return false;
    }
  }

  /** Code given as a constant string: parsed and judged like the file (at the string's line); false when it cannot be. */
  private constantCode(code: string, line: number, evidence: string): boolean {
    if (this.nesting.depth + 1 > MAX_NESTING) {
      this.findings.issue('obfuscation', line, `Nests code in strings more than ${MAX_NESTING} levels deep.`, evidence);
      return true;
    }
    const tree = this.context.grammars.parse('javascript', code);
    try {
      if (firstSyntaxError(tree.rootNode)) return false;
      const program = collectProgram(tree.rootNode, code);
      const nesting: Nesting = { line, depth: this.nesting.depth + 1 };
      new JsInspector(
        program,
        new JsValues(new Map(), false, program.returns),
        this.context,
        this.findings,
        tree.rootNode,
        code,
        nesting,
      ).run();
      return true;
    } finally {
      tree.delete();
    }
  }

  /** `exec(cmd)`: a constant line is parsed as shell, anything else is a line built at run time. */
  private shellLine(command: JsValue, line: number, evidence: string, message: string): void {
    if (command.kind === 'str') {
      this.findings.merge(this.context.shell(command.text, line));
      return;
    }
    if (isDecoded(command))
      this.findings.issue('obfuscation', line, 'Decodes hidden text and runs it as a shell command.', evidence);
    this.findings.issue('shell-from-input', line, `${message}, so what runs is decided by its input.`, evidence);
  }

  /** `spawn(file, args, {shell})`, `Bun.spawn([...])`, `new Deno.Command(file, {args})`. */
  private argvOf(kind: Api['kind'], args: SyntaxNode[], scope: Scope): { argv: JsValue[]; options: SyntaxNode | null } {
    const value = (node: SyntaxNode | null | undefined): JsValue => this.values.value(node, scope);
    const items = (list: JsValue): JsValue[] =>
      list.kind === 'arr' ? [...list.items] : list.kind === 'unknown' ? [list] : [];
    if (kind === 'bun-spawn') {
      const first = args[0];
      if (first?.type === 'object') return { argv: items(value(propertyValue(first, 'cmd'))), options: first };
      return { argv: items(value(first)), options: args[1] ?? null };
    }
    if (kind === 'deno-run') {
      const options = args[0] ?? null;
      return { argv: options ? items(value(propertyValue(options, 'cmd'))) : [], options };
    }
    if (kind === 'deno-command') {
      const options = args[1] ?? null;
      return { argv: [value(args[0]), ...(options ? items(value(propertyValue(options, 'args'))) : [])], options };
    }
    if (kind === 'execve') return { argv: [value(args[0]), ...items(value(args[1])).slice(1)], options: null };
    const second = args[1];
    const hasList = second !== undefined && second.type !== 'object';
    return { argv: [value(args[0]), ...(hasList ? items(value(second)) : [])], options: objectArgument(args.slice(1)) };
  }

  private argv(argv: JsValue[], options: SyntaxNode | null, scope: Scope, line: number, evidence: string): void {
    const texts = argv.map((item) => (item.kind === 'str' ? item.text : null));
    const file = texts[0];
    const shellOption = options ? propertyValue(options, 'shell') : null;
    if (shellOption) {
      // `shell: true` joins the arguments into a line for /bin/sh. An unknown value (`shell: isWindows`) counts
      // when the "file" is itself a command line.
      const flag = this.values.value(shellOption, scope);
      const truthy =
        flag.kind === 'str'
          ? flag.text !== 'false' && flag.text !== '' && flag.text !== '0'
          : /[\s|;&$<>`]/.test(file ?? '');
      if (truthy) {
        if (texts.every((text) => text !== null)) this.findings.merge(this.context.shell(texts.join(' '), line));
        else
          this.findings.issue(
            'shell-from-input',
            line,
            'Runs a shell command line (shell: true) built at run time.',
            evidence,
          );
        return;
      }
    }
    if (file === null || file === undefined) return;
    if (texts.every((text) => text !== null)) {
      this.findings.merge(this.context.shell((texts as string[]).map(quote).join(' '), line));
      return;
    }
    // Some arguments are unknown: what a shell or interpreter would run from them still shows.
    const program = programName(file);
    const args = texts.slice(1).map((text) => text ?? '');
    if (SHELLS.has(program)) {
      const source = shellSource(args);
      if (source.from === 'inline') {
        const code = texts[source.index + 1];
        if (code === null || code === undefined)
          this.findings.issue(
            'shell-from-input',
            line,
            'Runs a shell command line built at run time (sh -c).',
            evidence,
          );
        else this.findings.merge(this.context.shell(code, line));
      }
      return;
    }
    const interpreter = interpreterOf(program);
    if (interpreter) {
      const source = codeSource(interpreter, args);
      if (source.from === 'inline' || source.from === 'encoded') {
        this.findings.issue(
          'dynamic-code',
          line,
          `Runs inline ${program} code instead of a file in the bundle.`,
          evidence,
        );
      }
    }
  }

  /** zx's `` $`…` ``, `Bun.$`, execa's `$`: constant parts are shell, interpolations are input (zx quotes them). */
  private taggedTemplate(tag: JsValue, template: SyntaxNode, node: SyntaxNode): void {
    if (tag.kind !== 'ref') return;
    const key = refKey(tag);
    if (!/^(?:zx\.\$(?:\.sync)?|Bun\.\$|execa\.\$(?:\.sync)?|execa\.execa)$/.test(key)) return;
    const line = this.line(node);
    this.findings.capability('process_exec', line, node.text);
    let text = '';
    for (const child of template.namedChildren) {
      if (!child) continue;
      if (child.type === 'template_substitution') {
        if (text.trim() === '' || /[;&|]\s*$/.test(text)) {
          this.findings.issue(
            'shell-from-input',
            line,
            'Runs a command whose name comes from an interpolation.',
            node.text,
          );
          return;
        }
        text += "'x'";
      } else text += child.type === 'escape_sequence' ? child.text.slice(1) : child.text;
    }
    this.findings.merge(this.context.shell(text, line));
  }

  /** `require(x)`, `import(x)`: a computed name is dynamic code, a native addon is native code. */
  private moduleLoad(arg: SyntaxNode | undefined, specifier: JsValue, node: SyntaxNode, how: string): void {
    if (specifier.kind === 'ref' && specifier.module) return;
    if (specifier.kind !== 'str') {
      this.findings.issue(
        'dynamic-code',
        this.line(node),
        `Loads a module whose name is computed at run time (${how}).`,
        node.text,
      );
      return;
    }
    if (arg && arg.type !== 'string' && specifier.base === 'plain' && !/^\.{0,2}\//.test(specifier.text)) {
      this.findings.issue(
        'obfuscation',
        this.line(node),
        `Builds the name of the module it loads from pieces (${specifier.text}).`,
        node.text,
      );
    }
    this.importRules(specifier.base === 'own' ? `./${specifier.text}` : specifier.text, node);
  }

  private importRules(module: string, node: SyntaxNode): void {
    const line = this.line(node);
    const name = module.replace(/^node:/, '');
    if (NATIVE_MODULES.has(name) || /\.node$/.test(name)) {
      this.findings.issue('native-code', line, `Loads native code (${name}).`, node.text);
    } else if (/^https?:\/\//i.test(name)) {
      this.findings.issue(
        'download-and-run',
        line,
        'Imports code from a URL, which runs whatever the server sends.',
        node.text,
      );
    } else if (/^data:/i.test(name)) {
      this.findings.issue('dynamic-code', line, 'Imports code from a data: URL.', node.text);
    }
  }

  // --- files and environment ------------------------------------------------------------------------

  private path(path: JsValue, line: number, evidence: string, access: 'read' | 'write'): void {
    if (path.kind === 'str') {
      const escapes = path.base === 'own' && escapesFolder(path.text);
      const credential = path.base === 'own' && !escapes ? null : credentialIn(path.text);
      if (credential) {
        this.findings.issue(
          'credentials-access',
          line,
          `${access === 'read' ? 'Reads' : 'Writes'} ${credential} (${shown(path)}).`,
          evidence,
        );
      }
      const outside =
        path.base === 'home' || escapes || (path.base === 'plain' && /^(?:\/|[A-Za-z]:[\\/]|\\\\)/.test(path.text));
      if (access === 'read' && (outside || credential)) this.findings.capability('file_read', line, evidence);
      return;
    }
    if (access === 'read') this.findings.capability('file_read', line, evidence);
  }

  /** `process.env.X`, `env.X` (an alias), `process.env[name]`, and `process.env` handed on whole. */
  private memberRead({ node, scope }: Use): void {
    this.handedOn(node, scope);
    const value = this.values.value(node, scope);
    if (value.kind !== 'ref' || value.root !== 'process' || value.path[0] !== 'env') return;
    if (value.path.length >= 2) {
      if (!CONTEXT_VARIABLES.has(value.path[1] as string))
        this.findings.capability('env_read', this.line(node), node.text);
      return;
    }
    const parent = node.parent;
    if (
      parent &&
      (parent.type === 'member_expression' || parent.type === 'subscript_expression') &&
      parent.childForFieldName('object')?.id === node.id
    ) {
      const key = parent.type === 'member_expression' ? parent.childForFieldName('property')?.text : null;
      if (!key || !CONTEXT_VARIABLES.has(key)) this.findings.capability('env_read', this.line(parent), parent.text);
      return;
    }
    this.wholeEnvUse(node);
  }

  /** `f(env)` where `env` is `process.env`: the member route does not see aliases passed on. */
  private wholeEnvArguments(target: Ref, args: SyntaxNode[], scope: Scope): void {
    const key = refKey(target);
    args.forEach((arg, i) => {
      if (arg.type !== 'identifier' || (key === 'Object.assign' && i === 0)) return;
      if (isWholeEnv(this.values.value(arg, scope))) this.wholeEnvUse(arg);
    });
  }

  /**
   * `{...process.env}` is a copy of the environment, judged where the copy goes (a child's `env`,
   * a request body); `for (k in process.env)` reads every name.
   */
  private spread({ node, scope }: Use): void {
    const target = node.type === 'spread_element' ? node.namedChildren[0] : node;
    if (!target || !isWholeEnv(this.values.value(target, scope))) return;
    this.wholeEnvUse(node.type === 'spread_element' && node.parent?.type === 'object' ? node.parent : target);
  }

  /** `const {API_KEY, ...rest} = process.env`, `const {[name]: run} = cp`. */
  private destructuring({ node, scope }: Use): void {
    const declared = node.type === 'variable_declarator';
    const value = this.values.value(node.childForFieldName(declared ? 'value' : 'right'), scope);
    const pattern = node.childForFieldName(declared ? 'name' : 'left');
    if (pattern?.type === 'object_pattern') this.computedPattern(pattern, value, scope);
    if (!isWholeEnv(value)) return;
    const line = this.line(node);
    this.findings.capability('env_read', line, node.text);
    if (pattern?.namedChildren.some((child) => child?.type === 'rest_pattern'))
      this.findings.wholeEnvironmentRead(line, node.text);
  }

  /** The whole environment used as a value: sent, copied, iterated, serialised. Handing it to a child process is not reading it. */
  private wholeEnvUse(node: SyntaxNode): void {
    let current = node;
    let parent = node.parent;
    while (
      parent &&
      /^(?:parenthesized_expression|as_expression|satisfies_expression|non_null_expression)$/.test(parent.type)
    ) {
      current = parent;
      parent = parent.parent;
    }
    if (!parent) return;
    let whole: boolean;
    switch (parent.type) {
      case 'arguments': {
        const call = parent.parent;
        const callee = call?.childForFieldName('function')?.text ?? '';
        whole = !(callee === 'Object.assign' && parent.namedChildren[0]?.id === current.id);
        break;
      }
      case 'assignment_expression':
        // Exported, it is read wherever another module uses it: the analyser follows no value across files.
        if (!/^(?:module\.)?exports\b/.test(parent.childForFieldName('left')?.text ?? '')) return;
        whole = true;
        break;
      case 'variable_declarator':
      case 'spread_element':
        // An alias or a copy: its uses are judged where they happen (spread() follows `{...process.env}`).
        return;
      case 'arrow_function':
        // `() => ({ ...process.env })` returns it.
        whole = parent.childForFieldName('body')?.id === current.id;
        break;
      case 'export_statement':
        whole = true;
        break;
      case 'pair':
        // `{env: process.env}` hands the environment to a child process, unless the object is sent on.
        whole = !/env/i.test(pairKey(parent) ?? '') || sentOnward(parent);
        break;
      case 'for_in_statement':
      case 'template_substitution':
      case 'binary_expression':
      case 'array':
      case 'return_statement':
        whole = true;
        break;
      default:
        whole = false;
    }
    const evidence = (parent.type === 'arguments' ? parent.parent : parent)?.text ?? node.text;
    const toChild = parent.type === 'pair' && !whole;
    if (!toChild) this.findings.capability('env_read', this.line(node), evidence);
    if (whole) this.findings.wholeEnvironmentRead(this.line(node), evidence);
  }

  // --- hiding -----------------------------------------------------------------------------------

  /** `globalThis[name]`, `cp[method]`: computed member names on globals and sensitive modules. */
  private computedAccess({ node, scope }: Use): void {
    const parent = node.parent;
    if (parent?.type === 'assignment_expression' && parent.childForFieldName('left')?.id === node.id) return;
    const index = node.childForFieldName('index');
    if (index) this.computedMember(this.values.value(node.childForFieldName('object'), scope), index, node, scope);
  }

  /** `const {[name]: run} = cp`: a computed key in a pattern picks a member as `cp[name]` does. */
  private computedPattern(pattern: SyntaxNode, object: JsValue, scope: Scope): void {
    for (const child of pattern.namedChildren) {
      const key = child?.type === 'pair_pattern' ? child.childForFieldName('key') : null;
      if (!child || !key) continue;
      if (key.type === 'computed_property_name') {
        const index = key.namedChildren[0];
        if (index) this.computedMember(object, index, child, scope);
        continue;
      }
      const value = child.childForFieldName('value');
      const nested = value?.type === 'assignment_pattern' ? value.childForFieldName('left') : value;
      if (nested?.type === 'object_pattern')
        this.computedPattern(nested, this.values.member(object, stringValue(key) ?? identifierName(key)), scope);
    }
  }

  /** `object[index]` at `node`, where the object is a module or a global. */
  private computedMember(object: JsValue, index: SyntaxNode, node: SyntaxNode, scope: Scope): void {
    if (index.type === 'string' || index.type === 'number') return;
    // The module or global itself (`cp[name]`, `globalThis[name]`), not one of its members (`process.argv[i]`).
    if (object.kind !== 'ref' || object.path.length > 0) return;
    const key = this.values.value(index, scope);
    if (key.kind === 'ref' && key.root === 'Symbol') return;
    // `process[err ? 'stderr' : 'stdout']`: one of two names written out.
    if (index.type === 'ternary_expression') {
      const options = ['consequence', 'alternative'].map((field) =>
        this.values.value(index.childForFieldName(field), scope),
      );
      if (options.every((option) => option.kind === 'str')) return;
    }
    // The global object, Reflect and the code runners' own members, and modules a member of which is a sink.
    const sensitive =
      /^(?:globalThis|window|global|self|Reflect|Function|eval)$/.test(object.root) ||
      sinkOf(object.root, ['*']) !== null;
    const line = this.line(node);
    if (key.kind === 'str') {
      if (sensitive && index.type !== 'template_string') {
        this.findings.issue(
          'obfuscation',
          line,
          `Builds the name of the member it uses from pieces (${key.text}).`,
          node.text,
        );
      }
      return;
    }
    if (sensitive) {
      this.findings.issue(
        'dynamic-code',
        line,
        `Reaches a member of ${object.root} by a name computed at run time.`,
        node.text,
      );
    }
  }

  private names(): void {
    for (const node of this.program.strangeNames) {
      const raw = node.text;
      const name = identifierName(node);
      const line = this.line(node);
      if (raw.includes('\\')) {
        this.findings.issue(
          'obfuscation',
          line,
          `Writes a name with \\u escapes, which hides that it is ${name}.`,
          raw,
        );
      }
      if (/[\u0080-\uFFFF]/.test(name)) {
        const folded = name.normalize('NFKC');
        const message = !/[\u0080-\uFFFF]/.test(folded)
          ? `Uses a name written in look-alike characters (${name} reads as ${folded}).`
          : `Uses a name with characters outside ASCII (${name}).`;
        this.findings.issue('obfuscation', line, message, raw);
      }
    }
    const atoms = this.program.fuckAtoms;
    if (atoms.length >= 8) {
      const first = atoms[0] as SyntaxNode;
      this.findings.issue(
        'obfuscation',
        this.line(first),
        'Builds code out of [] and ! (JSFuck-style), which only serves to hide it.',
        first.parent?.text ?? first.text,
      );
    }
  }

  /** String literals that name a credential store, however the path is then assembled. */
  private credentialLiterals(): void {
    let seen = 0;
    const done = new Set<number>();
    for (const match of this.source.matchAll(CREDENTIAL_WORDS)) {
      if (++seen > MAX_CREDENTIAL_WORDS) break;
      const fragment = this.tree.descendantForIndex(match.index ?? 0);
      if (!fragment || fragment.type !== 'string_fragment') continue;
      const literal = fragment.parent;
      if (!literal || done.has(literal.id)) continue;
      done.add(literal.id);
      const text = literal.type === 'string' ? (stringValue(literal) ?? '') : fragment.text;
      // A path, or a name only a key file has (`id_rsa`); `"cookies"` alone is a word, not a file.
      const pathLike = /[/~]|^\./.test(text) || /^id_/.test(text);
      const credential = /\s/.test(text.trim()) || !pathLike ? null : credentialIn(text);
      if (!credential || credential === ENV_FILE) continue;
      this.findings.issue('credentials-access', this.line(literal), `Names ${credential} (${text}).`, literal.text);
    }
  }
}

/** What calling (or, with `construct`, `new`-ing) a resolved reference does; null when nothing the rules care about. */
function apiOf(target: Ref, construct: boolean): Api | null {
  const sink = sinkOf(target.root, target.path);
  if (sink) return sinkApi(sink, target, construct);
  const { root, path } = target;
  const first = path[0] ?? '';
  const last = path[path.length - 1] ?? '';
  const bare = path.length === 0;
  switch (root) {
    case 'cross-spawn':
      return bare || first === 'sync' ? { kind: 'argv' } : null;
    case 'execa':
      if (bare || first === 'execa' || first === 'execaSync') return path.length <= 1 ? { kind: 'argv' } : null;
      if (first === 'execaCommand' || first === 'execaCommandSync') return { kind: 'command-line' };
      return first === 'execaNode' ? { kind: 'fork' } : null;
    case 'shelljs':
      if (path.length !== 1) return null;
      return first === 'exec'
        ? { kind: 'shell' }
        : /^(?:rm|mv|cp|mkdir|touch|sed|chmod|ln|cat|head|tail|grep|ls|find|echo|which|test)$/.test(first)
          ? { kind: 'shelljs', command: first }
          : null;
    case 'fetch':
    case 'WebSocket':
    case 'XMLHttpRequest':
    case 'EventSource':
      return bare ? { kind: 'network' } : null;
    case 'http':
    case 'https':
    case 'http2':
      if (/^(?:request|get|connect)$/.test(first)) return { kind: 'network' };
      return /^(?:createServer|createSecureServer|Server)$/.test(first) ? { kind: 'inbound' } : null;
    case 'net':
    case 'tls':
      if (/^(?:connect|createConnection|Socket)$/.test(first)) return { kind: 'network' };
      return /^(?:createServer|Server)$/.test(first) ? { kind: 'inbound' } : null;
    case 'dgram':
      return first === 'createSocket' ? { kind: 'network' } : null;
    case 'dns':
      return /^(?:lookup|resolve\w*|reverse|promises)$/.test(first) ? { kind: 'network' } : null;
    case 'ws':
      if (/^(?:Server|WebSocketServer)$/.test(first)) return { kind: 'inbound' };
      return bare || first === 'WebSocket' ? { kind: 'network' } : null;
    case 'fs': {
      const method = path.filter((part) => part !== 'promises')[0]?.replace(/Sync$/, '') ?? '';
      if (path.length > 2) return null;
      if (/^(?:rename|copyFile|cp|move|copy)$/.test(method)) return { kind: 'write', reads: [0], writes: [1] };
      if (/^(?:symlink|link|ensureLink|ensureSymlink)$/.test(method)) return { kind: 'write', reads: [], writes: [1] };
      if (FS_WRITES.has(method)) return { kind: 'write', reads: [], writes: [0] };
      return FS_READS.has(method) ? { kind: 'read' } : null;
    }
    case 'Bun':
      if (first === 'spawn' || first === 'spawnSync') return { kind: 'bun-spawn' };
      if (first === 'write') return { kind: 'write', reads: [], writes: [0] };
      if (first === 'file') return { kind: 'read' };
      return first === 'serve' ? { kind: 'inbound' } : null;
    case 'Deno':
      if (first === 'Command') return construct ? { kind: 'deno-command' } : null;
      if (first === 'run') return { kind: 'deno-run' };
      if (first === 'env') return { kind: 'env', whole: last === 'toObject' };
      if (/^(?:readTextFile|readFile|readTextFileSync|readFileSync|open|openSync)$/.test(first))
        return { kind: 'read' };
      if (/^(?:rename|renameSync|copyFile|copyFileSync)$/.test(first))
        return { kind: 'write', reads: [0], writes: [1] };
      if (/^(?:writeTextFile|writeFile|writeTextFileSync|writeFileSync|remove|removeSync|mkdir|mkdirSync)$/.test(first))
        return { kind: 'write', reads: [], writes: [0] };
      if (/^(?:connect|connectTls)$/.test(first)) return { kind: 'network' };
      if (/^(?:listen|listenTls|serve)$/.test(first)) return { kind: 'inbound' };
      return first === 'dlopen' ? { kind: 'native', what: 'Deno.dlopen' } : null;
    case '@hono/node-server':
      return first === 'serve' ? { kind: 'inbound' } : null;
    default:
      if (NETWORK_MODULES.has(root)) return { kind: 'network' };
      if (isDatabaseConnect(root, path)) return { kind: 'network' };
      if (BROWSER_MODULES.has(root) && BROWSER_LAUNCH.test(last)) return { kind: 'browser' };
      if (SERVER_MODULES.has(root) && last === 'listen' && path.includes('()')) return { kind: 'inbound' };
      return null;
  }
}

/** What calling a Node sink (node-sinks.ts) does; loaders are judged by the call rule itself. */
function sinkApi(sink: SinkKind, target: Ref, construct: boolean): Api | null {
  const name = [target.root, ...target.path.filter((part) => part !== '()')].join('.');
  switch (sink) {
    case 'shell':
      return { kind: 'shell' };
    case 'argv':
      return name === 'process.execve' ? { kind: 'execve' } : { kind: 'argv' };
    case 'process':
      return { kind: 'fork' };
    case 'code':
      return {
        kind: 'dynamic',
        what:
          name === 'Function'
            ? FUNCTION_CONSTRUCTOR
            : target.root === 'WebAssembly'
              ? `${name}, whose code cannot be read`
              : name,
      };
    case 'timer':
      return { kind: 'timer' };
    case 'worker':
      return construct ? { kind: 'worker' } : null;
    case 'native':
      return { kind: 'native', what: name };
    case 'load':
    case 'make-require':
      return null;
  }
}

/** Whether a value is handed on: an argument, an array item, an object member, a value stored into a member. */
function isHandedOn(node: SyntaxNode): boolean {
  const parent = node.parent;
  if (parent?.type === 'assignment_expression')
    return parent.childForFieldName('right')?.id === node.id && parent.childForFieldName('left')?.type !== 'identifier';
  return parent !== null && /^(?:arguments|array|pair|spread_element)$/.test(parent.type);
}

/** Whether a value is an argument of a call, or inside an array or object literal that is one. */
function inArguments(node: SyntaxNode): boolean {
  let parent = node.parent;
  while (parent && /^(?:array|object|pair|spread_element)$/.test(parent.type)) parent = parent.parent;
  return parent?.type === 'arguments';
}

/** `'data:text/javascript,' + code` or `new URL('data:…')`: code carried in the URL itself. */
function isDataUrl(node: SyntaxNode | undefined, values: JsValues, scope: Scope): boolean {
  let url = node?.type === 'new_expression' ? argumentsOf(node)[0] : node;
  while (url?.type === 'binary_expression' && url.childForFieldName('operator')?.type === '+')
    url = url.childForFieldName('left') ?? undefined;
  if (url?.type === 'template_string') return /^`data:/i.test(url.text);
  const value = values.value(url, scope);
  return value.kind === 'str' && /^data:/i.test(value.text);
}

/** `new pg.Client()`, `mysql.createPool()`, `new MongoClient(url)`, `MongoClient.connect(url)`, `new Redis()`. */
function isDatabaseConnect(root: string, path: readonly string[]): boolean {
  const members = path.filter((part) => part !== 'default');
  const connects = DATABASE_CONNECTS.get(root)?.test(members[0] ?? '') ?? false;
  return connects && (members.length <= 1 || (members.length === 2 && members[1] === 'connect'));
}

/** `new Function('a', 'b', 'return a + b')` as a function expression, when every part is a constant. */
function functionSource(values: readonly JsValue[]): JsValue | null {
  const texts = values.map((value) => (value.kind === 'str' ? value.text : null));
  if (texts.some((text) => text === null)) return null;
  const body = texts.length > 0 ? (texts[texts.length - 1] as string) : '';
  return { kind: 'str', text: `(function (${texts.slice(0, -1).join(', ')}) {\n${body}\n})`, base: 'plain' };
}

const isWholeEnv = (value: JsValue): boolean =>
  value.kind === 'ref' && value.root === 'process' && value.path.length === 1 && value.path[0] === 'env';

const isDecoded = (value: JsValue): boolean => value.kind === 'unknown' && value.decoded;

/**
 * Whether an object member ends up serialised or sent: inside `JSON.stringify(…)`, `fetch(…)`,
 * `.send(…)`, `.write(…)`, or under a request's `body`/`data`/`json`.
 */
function sentOnward(pair: SyntaxNode): boolean {
  let node: SyntaxNode | null = pair.parent;
  for (let depth = 0; node && depth < 8; depth++, node = node.parent) {
    if (node.type === 'pair' && /^(?:body|data|json|payload|form|content|params)$/.test(pairKey(node) ?? ''))
      return true;
    if (node.type === 'arguments') {
      const callee = node.parent?.childForFieldName('function')?.text ?? '';
      return /(?:^|\.)(?:stringify|send|write|post|put|patch|request|fetch|emit|end|serialize)$/.test(callee);
    }
    if (!/^(?:object|pair|array|parenthesized_expression|spread_element)$/.test(node.type)) return false;
  }
  return false;
}

/** The last argument that is an object literal (the options of spawn, fetch, Worker…). */
function objectArgument(args: readonly SyntaxNode[]): SyntaxNode | null {
  for (let i = args.length - 1; i >= 0; i--) if (args[i]?.type === 'object') return args[i] as SyntaxNode;
  return null;
}

/** The value node of `key: value` (or the shorthand `key`) in an object literal. */
function propertyValue(object: SyntaxNode, key: string): SyntaxNode | null {
  if (object.type !== 'object') return null;
  for (const child of object.namedChildren) {
    if (child?.type === 'pair' && pairKey(child) === key) return child.childForFieldName('value');
    if (child?.type === 'shorthand_property_identifier' && child.text === key) return child;
  }
  return null;
}

function pairKey(pair: SyntaxNode): string | null {
  const key = pair.childForFieldName('key');
  if (!key) return null;
  return stringValue(key) ?? (key.type === 'property_identifier' ? identifierName(key) : null);
}

/** One argument as a POSIX shell reads it back. */
const quote = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

/** Whether a path inside the skill's folder climbs out of it (`../../.ssh`). */
function escapesFolder(path: string): boolean {
  let depth = 0;
  for (const segment of path.split('/')) {
    if (segment === '..') depth--;
    else if (segment !== '.' && segment !== '') depth++;
    if (depth < 0) return true;
  }
  return false;
}

const shown = (path: Extract<JsValue, { kind: 'str' }>): string =>
  path.base === 'own' ? `<skill>/${path.text}` : path.text;
