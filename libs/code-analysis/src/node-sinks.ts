/**
 * The one table of what Node's core modules and the globals of a JavaScript runtime can be made to
 * run: programs (child_process), code from strings (vm, eval, the Function constructor, the
 * inspector, the REPL), native code (process.dlopen, SQLite extensions) and modules loaded by name
 * (`require`, `module._load`, `process.getBuiltinModule`). Every module of
 * `require('module').builtinModules` is listed, in NODE_SINKS or in NODE_WITHOUT_SINKS (a unit
 * test fails on one that is in neither), so a new spelling of a sink is found by name, not by
 * shape. What the other modules do (network, files) is a capability, judged in javascript-rules.ts.
 */

export type SinkKind =
  /** Runs a command line through /bin/sh (`exec`, `execSync`). */
  | 'shell'
  /** Runs a program with an argument list (`spawn`, `execFile`, `process.execve`). */
  | 'argv'
  /** Starts a process whose command is not in its arguments (`fork`, `cluster.fork`). */
  | 'process'
  /** Turns a string into code and runs it, or runs code no reader can check (`vm.Script`, WebAssembly, the inspector). */
  | 'code'
  /** Runs its first argument as code when it is a string (`setTimeout('…')`). */
  | 'timer'
  /** Starts a worker thread, which runs a string with `eval: true` or a `data:` URL as code. */
  | 'worker'
  /** Loads native code (`process.dlopen`, `DatabaseSync#loadExtension`). */
  | 'native'
  /** Loads the module its first argument names and returns it (`require`, `module._load`). */
  | 'load'
  /** Returns a `require` function (`module.createRequire(import.meta.url)`). */
  | 'make-require';

/**
 * Core modules (and, under their own names, the globals eval, Function, the timers, WebAssembly,
 * Worker and require) and what their members do when called or constructed. A member is named by its
 * path from the module; an instance's method is reached through its class (`DatabaseSync.loadExtension`
 * is `new DatabaseSync(f).loadExtension`), `''` is the module or global itself.
 */
export const NODE_SINKS: ReadonlyMap<string, Readonly<Record<string, SinkKind>>> = new Map<
  string,
  Readonly<Record<string, SinkKind>>
>([
  [
    'child_process',
    {
      exec: 'shell',
      execSync: 'shell',
      execFile: 'argv',
      execFileSync: 'argv',
      spawn: 'argv',
      spawnSync: 'argv',
      fork: 'process',
      ChildProcess: 'process',
      _forkChild: 'process',
    },
  ],
  ['cluster', { fork: 'process' }],
  ['inspector', { Session: 'code', open: 'code' }],
  ['inspector/promises', { Session: 'code', open: 'code' }],
  [
    'module',
    {
      createRequire: 'make-require',
      _load: 'load',
      // The `module` global of a CommonJS file has the same name as the core module.
      require: 'load',
      _compile: 'code',
      _extensions: 'code',
      register: 'code',
      runMain: 'code',
    },
  ],
  [
    'process',
    {
      binding: 'code',
      _linkedBinding: 'code',
      dlopen: 'native',
      execve: 'argv',
      getBuiltinModule: 'load',
      'mainModule.require': 'load',
    },
  ],
  ['repl', { start: 'code', REPLServer: 'code' }],
  ['sqlite', { 'DatabaseSync.loadExtension': 'native' }],
  ['test', { run: 'process' }],
  ['timers', { setTimeout: 'timer', setInterval: 'timer', setImmediate: 'timer' }],
  ['v8', { setFlagsFromString: 'code' }],
  [
    'vm',
    {
      runInContext: 'code',
      runInNewContext: 'code',
      runInThisContext: 'code',
      compileFunction: 'code',
      createScript: 'code',
      Script: 'code',
      SourceTextModule: 'code',
      SyntheticModule: 'code',
    },
  ],
  ['wasi', { WASI: 'code' }],
  ['worker_threads', { Worker: 'worker' }],
  // Globals.
  ['eval', { '': 'code' }],
  ['Function', { '': 'code' }],
  ['setTimeout', { '': 'timer' }],
  ['setInterval', { '': 'timer' }],
  ['setImmediate', { '': 'timer' }],
  [
    'WebAssembly',
    {
      instantiate: 'code',
      instantiateStreaming: 'code',
      compile: 'code',
      compileStreaming: 'code',
      Module: 'code',
      Instance: 'code',
    },
  ],
  ['Worker', { '': 'worker' }],
  ['require', { '': 'load', 'main.require': 'load' }],
]);

/**
 * Core modules none of whose members runs a program or code or loads native code or a module by
 * name: files, network, streams, encodings, diagnostics. (`fs` can write a file a later `require`
 * runs; that `require` is the sink.)
 */
export const NODE_WITHOUT_SINKS: ReadonlySet<string> = new Set([
  '_http_agent',
  '_http_client',
  '_http_common',
  '_http_incoming',
  '_http_outgoing',
  '_http_server',
  '_stream_duplex',
  '_stream_passthrough',
  '_stream_readable',
  '_stream_transform',
  '_stream_wrap',
  '_stream_writable',
  '_tls_common',
  '_tls_wrap',
  'assert',
  'assert/strict',
  'async_hooks',
  'buffer',
  'console',
  'constants',
  'crypto',
  'dgram',
  'diagnostics_channel',
  'dns',
  'dns/promises',
  'domain',
  'events',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'net',
  'os',
  'path',
  'path/posix',
  'path/win32',
  'perf_hooks',
  'punycode',
  'querystring',
  'readline',
  'readline/promises',
  'sea',
  'stream',
  'stream/consumers',
  'stream/promises',
  'stream/web',
  'string_decoder',
  'sys',
  'test/reporters',
  'timers/promises',
  'tls',
  'trace_events',
  'tty',
  'url',
  'util',
  'util/types',
  'zlib',
]);

/** The order in which a member picked by a computed name is assumed to be the worst its module has. */
const SEVERITY: readonly SinkKind[] = ['code', 'shell', 'argv', 'native', 'load', 'process', 'worker', 'timer'];

/**
 * What calling `root.path` does, or null when it is no sink. Methods of an instance (`()`) and
 * reads through `prototype` name the class's method, but an instance or a call's result itself is
 * no sink; a computed member name (`*`, as in `cp[name]` or `const {[name]: run} = cp`) is the
 * worst member of the module.
 */
export function sinkOf(root: string, path: readonly string[]): SinkKind | null {
  const members = NODE_SINKS.get(root);
  const last = path[path.length - 1];
  if (!members || last === '()' || last === 'prototype') return null;
  const key = path.filter((part) => part !== '()' && part !== 'prototype');
  if (key.length === 1 && key[0] === '*') return worstOf(members);
  return members[key.join('.')] ?? null;
}

/** How bad calling a sink is, for picking the worst of several: higher is worse, 0 for none. */
export function severity(kind: SinkKind | null): number {
  const rank = kind === null ? -1 : SEVERITY.indexOf(kind);
  return rank < 0 ? 0 : SEVERITY.length - rank;
}

/** The worst of a module's own members (not the module itself, nor members of members). */
function worstOf(members: Readonly<Record<string, SinkKind>>): SinkKind | null {
  const kinds = new Set(
    Object.entries(members)
      .filter(([name]) => name !== '' && !name.includes('.'))
      .map(([, kind]) => kind),
  );
  return SEVERITY.find((kind) => kinds.has(kind)) ?? null;
}
