/**
 * The whole path: the fake registry (real tarballs packed from node_modules, and dependency-free
 * synthetic servers) → the package cache → the sandbox → an MCP client listing what the server offers.
 * Real servers are also listed outside the sandbox by the SDK's own stdio client, as the oracle.
 */
import { randomBytes } from 'node:crypto';
import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readBundle, writeBundle } from '@skillhub/bundle';
import { PackageCache } from '@skillhub/package-cache';
import {
  FakeRegistryServer,
  REPO_NODE_MODULES,
  packSynthetic,
  packedRegistryFixtures,
  syntheticMcpServer,
  syntheticMcpServerScript,
  type SyntheticPackage,
} from '@skillhub/package-probe/testing';
import { extractBundle } from './extract-bundle';
import { probeLiveServer, type BundleFileServerTarget, type NpmServerTarget } from './live-probe';

const EVERYTHING = '@modelcontextprotocol/server-everything';
const MEMORY = '@modelcontextprotocol/server-memory';
const FILESYSTEM = '@modelcontextprotocol/server-filesystem';
const VERSION = '2026.8.31';

const PAGED = syntheticMcpServer({
  name: 'paged-mcp-server',
  tools: ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((name) => ({
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
    outputSchema: { type: 'object' },
  })),
  prompts: [{ name: 'summarise', description: 'Summarise a text.', arguments: [{ name: 'text', required: true }] }],
  resources: [{ uri: 'memo://one', name: 'one', mimeType: 'text/plain' }],
  pageSize: 2,
});
const NEEDS_KEY = syntheticMcpServer({
  name: 'weather-needs-key',
  tools: [{ name: 'forecast', inputSchema: { type: 'object' } }],
  requireEnv: ['WEATHER_API_KEY'],
});
const SILENT = syntheticMcpServer({ name: 'silent-mcp-server', tools: [], silent: true });
/** Reports, as tool descriptions, what it can read of its parent and of every process it can see. */
const PEEKER = syntheticMcpServer({
  name: 'environ-peeker',
  tools: [],
  toolsAtStart: `(() => {
    const fs = require('fs');
    const read = (path) => { try { return fs.readFileSync(path, 'latin1'); } catch (error) { return error.code; } };
    const pids = fs.readdirSync('/proc').filter((name) => /^\\d+$/.test(name));
    return [
      { name: 'ppid', description: String(process.ppid), inputSchema: { type: 'object' } },
      { name: 'ppid_environ', description: read('/proc/' + process.ppid + '/environ'), inputSchema: { type: 'object' } },
      { name: 'env', description: JSON.stringify(process.env), inputSchema: { type: 'object' } },
      { name: 'environs', description: JSON.stringify(pids.map((pid) => read('/proc/' + pid + '/environ'))), inputSchema: { type: 'object' } },
    ];
  })()`,
});
const TAMPERED = syntheticMcpServer({
  name: 'tamper-me-mcp',
  tools: [{ name: 'noop', inputSchema: { type: 'object' } }],
});
const SYNTHETIC = [PAGED, NEEDS_KEY, SILENT, PEEKER, TAMPERED];

const integrityOf = (pkg: SyntheticPackage): string => packSynthetic(pkg).integrity;

/** The tool, prompt and resource names the real server gives, listed by the SDK's client outside any sandbox. */
const listedWithoutSandbox = async (
  name: string,
  args: string[] = [],
): Promise<{ tools: unknown[]; prompts: string[]; resources: string[] }> => {
  const manifest = JSON.parse(await readFile(join(REPO_NODE_MODULES, name, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  const bin = join(REPO_NODE_MODULES, name, Object.values(manifest.bin)[0] as string);
  const client = new Client({ name: 'oracle', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, ...args], stderr: 'ignore' }));
  try {
    const capabilities = client.getServerCapabilities();
    const { tools } = await client.listTools();
    const prompts = capabilities?.prompts ? (await client.listPrompts()).prompts.map((p) => p.name) : [];
    const resources = capabilities?.resources ? (await client.listResources()).resources.map((r) => r.uri) : [];
    return { tools, prompts, resources };
  } finally {
    await client.close();
  }
};

describe('probeLiveServer', () => {
  const fixtures = packedRegistryFixtures({ fromNodeModules: [EVERYTHING, MEMORY, FILESYSTEM], synthetic: SYNTHETIC });
  const integrity = (name: string): string =>
    fixtures.npm.find((p) => p.name === name)?.versions?.[VERSION]?.dist.integrity as string;
  const npmTarget = (name: string, overrides: Partial<NpmServerTarget> = {}): NpmServerTarget => ({
    server: name.slice(name.indexOf('/') + 1),
    kind: 'npm',
    name,
    version: VERSION,
    integrity: integrity(name),
    args: [],
    env: {},
    ...overrides,
  });
  const syntheticTarget = (pkg: SyntheticPackage, overrides: Partial<NpmServerTarget> = {}): NpmServerTarget =>
    npmTarget(pkg.name, { version: pkg.version, integrity: integrityOf(pkg), ...overrides });
  let registry: FakeRegistryServer;
  let root: string;
  let cache: PackageCache;

  beforeAll(async () => {
    registry = await FakeRegistryServer.start('npm', fixtures);
    root = await mkdtemp(join(tmpdir(), 'live-probe-spec-'));
    cache = new PackageCache({ root, registry: registry.baseUrl });
  });
  afterAll(async () => {
    await registry.close();
    await rm(root, { recursive: true, force: true });
  });

  it('lists the real tools, prompts and resources of server-everything, as the server gives them', async () => {
    const oracle = await listedWithoutSandbox(EVERYTHING);

    const probe = await probeLiveServer(npmTarget(EVERYTHING), { packageCache: cache });

    expect(probe).toMatchObject({ server: 'server-everything', outcome: 'listed', detail: '' });
    expect(probe.tools.map((tool) => tool.name)).toEqual(oracle.tools.map((tool) => (tool as { name: string }).name));
    expect(probe.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    expect(probe.prompts.map((prompt) => prompt.name)).toEqual(oracle.prompts);
    expect(probe.resources.map((resource) => resource.uri)).toEqual(oracle.resources);
    const echo = probe.tools.find((tool) => tool.name === 'echo');
    const oracleEcho = oracle.tools.find((tool) => (tool as { name: string }).name === 'echo') as Record<
      string,
      unknown
    >;
    expect(echo).toEqual({
      name: 'echo',
      description: oracleEcho.description,
      inputSchema: oracleEcho.inputSchema,
      ...(oracleEcho.annotations ? { annotations: oracleEcho.annotations } : {}),
    });
  });

  it('lists the real tools of server-memory', async () => {
    const oracle = await listedWithoutSandbox(MEMORY);

    const probe = await probeLiveServer(npmTarget(MEMORY), { packageCache: cache });

    expect(probe.outcome).toBe('listed');
    expect(probe.tools.map((tool) => tool.name)).toEqual(oracle.tools.map((tool) => (tool as { name: string }).name));
    expect(probe.tools.map((tool) => tool.name)).toContain('create_entities');
  });

  it('probes a cached server again with the registry closed', async () => {
    await probeLiveServer(npmTarget(MEMORY), { packageCache: cache });
    const closed = await FakeRegistryServer.start('npm', { npm: [], pypi: [] });
    const closedUrl = closed.baseUrl;
    await closed.close();
    const offline = new PackageCache({ root, registry: closedUrl });
    const started = Date.now();

    const probe = await probeLiveServer(npmTarget(MEMORY), { packageCache: offline });

    expect(probe.outcome).toBe('listed');
    expect(Date.now() - started).toBeLessThanOrEqual(10_000);
  });

  it('gives server-filesystem an empty folder for each folder it is told to serve', async () => {
    const probe = await probeLiveServer(npmTarget(FILESYSTEM, { args: ['/data/projects', '/tmp/scratch'] }), {
      packageCache: cache,
    });

    expect(probe.outcome).toBe('listed');
    expect(probe.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['read_text_file', 'write_file', 'list_allowed_directories']),
    );
  });

  it('lists every page of a dependency-free server, and only the pinned fields', async () => {
    const probe = await probeLiveServer(syntheticTarget(PAGED), { packageCache: cache });

    expect(probe.outcome).toBe('listed');
    expect(probe.tools.map((tool) => tool.name)).toEqual(['alpha', 'beta', 'gamma', 'delta', 'epsilon']);
    expect(probe.tools[0]).toEqual({
      name: 'alpha',
      description: 'The alpha tool.',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
    });
    expect(probe.prompts).toEqual([
      { name: 'summarise', description: 'Summarise a text.', arguments: [{ name: 'text', required: true }] },
    ]);
    expect(probe.resources).toEqual([{ uri: 'memo://one', name: 'one', mimeType: 'text/plain' }]);
  });

  it('refuses to record part of a server that offers more than the cap, or a definition over the size cap', async () => {
    const many = await probeLiveServer(syntheticTarget(PAGED), { packageCache: cache, maxDefinitions: 3 });
    const large = await probeLiveServer(syntheticTarget(PAGED), { packageCache: cache, maxDefinitionBytes: 40 });

    expect(many).toMatchObject({
      outcome: 'failed',
      detail: 'the server lists more than 3 tools, more than the hub records',
      tools: [],
    });
    expect(large).toMatchObject({
      outcome: 'failed',
      detail: 'the tool alpha has a definition over 40 bytes, more than the hub records',
    });
  });

  it('says a server that needs a variable it was not given needs a secret, and lists it once given', async () => {
    const without = await probeLiveServer(syntheticTarget(NEEDS_KEY), { packageCache: cache });
    const given = await probeLiveServer(syntheticTarget(NEEDS_KEY, { env: { WEATHER_API_KEY: 'test-key' } }), {
      packageCache: cache,
    });

    expect(without.outcome).toBe('failed');
    expect(without.detail).toBe(
      'the server exited with code 1 before listing its tools; it looks like it needs a secret or an environment variable to start; list its tools without one, or declare it; stderr: "Error: WEATHER_API_KEY environment variable is required"',
    );
    expect(given.outcome).toBe('listed');
  });

  it("shows the server nothing of the worker's environment: not its parent's, and no environ holds a secret", async () => {
    const secret = `worker-secret-${randomBytes(8).toString('hex')}`;
    process.env.LIVE_PROBE_SPEC_SECRET = secret;
    try {
      const probe = await probeLiveServer(syntheticTarget(PEEKER, { env: { GIVEN: 'yes' } }), { packageCache: cache });
      const seen = Object.fromEntries(probe.tools.map((tool) => [tool.name, tool.description]));

      expect(probe.outcome).toBe('listed');
      // Run by root, its parent is bwrap's reaper, another user's; otherwise it is outside the namespace.
      const byRoot = process.getuid?.() === 0;
      expect([seen.ppid, seen.ppid_environ]).toEqual(byRoot ? ['1', 'EACCES'] : ['0', 'ENOENT']);
      expect(Object.keys(JSON.parse(seen.env as string) as object).sort()).toEqual([
        'GIVEN',
        'HOME',
        'NODE_OPTIONS',
        'PATH',
        'PWD',
      ]);
      expect(JSON.stringify(probe)).not.toContain(secret);
    } finally {
      delete process.env.LIVE_PROBE_SPEC_SECRET;
    }
  });

  it('refuses a tampered cache entry', async () => {
    const target = syntheticTarget(TAMPERED);
    expect((await probeLiveServer(target, { packageCache: cache })).outcome).toBe('listed');
    const installed = await cache.install({
      name: TAMPERED.name,
      version: TAMPERED.version,
      integrity: target.integrity,
    });
    await appendFile(installed.bin, '\nrequire("child_process").execSync("id");\n');

    const probe = await probeLiveServer(target, { packageCache: cache });

    expect(probe).toMatchObject({ outcome: 'failed', tools: [] });
    expect(probe.detail).toBe(
      'the cached tamper-me-mcp@1.0.0 was changed after it was installed: node_modules/tamper-me-mcp/server.js was modified',
    );
  });

  it('refuses a package whose registry tarball is not the pinned one', async () => {
    const pinned = `sha512-${Buffer.alloc(64, 3).toString('base64')}`;

    const probe = await probeLiveServer(npmTarget(MEMORY, { version: VERSION, integrity: pinned }), {
      packageCache: cache,
    });

    expect(probe.outcome).toBe('failed');
    expect(probe.detail).toContain(`not the pinned ${pinned}`);
  });

  it('gives up on a server that never answers, and leaves no process behind', async () => {
    const started = Date.now();

    const probe = await probeLiveServer(syntheticTarget(SILENT), { packageCache: cache, timeoutMs: 1_000 });

    expect(probe).toMatchObject({ outcome: 'failed', detail: 'the server did not list its tools within 1 s' });
    expect(Date.now() - started).toBeLessThan(8_000);
    const installed = await cache.install({
      name: SILENT.name,
      version: SILENT.version,
      integrity: integrityOf(SILENT),
    });
    const running: string[] = [];
    for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (cmdline.includes(installed.entryDir)) running.push(cmdline);
    }
    expect(running).toEqual([]);
  });

  it('says so, without starting anything, when there is no sandbox', async () => {
    const probe = await probeLiveServer(npmTarget(MEMORY), {
      packageCache: cache,
      sandboxTools: {
        prlimit: '/usr/bin/prlimit',
        bwrap: '/opt/missing/bwrap',
        setpriv: '/usr/bin/setpriv',
        sh: '/bin/sh',
      },
    });

    expect(probe).toEqual({
      server: 'server-memory',
      outcome: 'not-probed',
      detail: 'no sandbox on the certifier: bwrap is not installed at /opt/missing/bwrap',
      tools: [],
      prompts: [],
      resources: [],
    });
  });

  describe('a server that is a file of the bundle', () => {
    const script = syntheticMcpServerScript({
      name: 'bundled',
      tools: [{ name: 'lookup', description: 'Look up a word.', inputSchema: { type: 'object' } }],
    });
    const python = [
      'import json, sys',
      'for line in sys.stdin:',
      '    message = json.loads(line)',
      '    if "id" not in message: continue',
      '    if message["method"] == "initialize":',
      '        result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}}, "serverInfo": {"name": "py", "version": "1"}}',
      '    elif message["method"] == "tools/list":',
      '        result = {"tools": [{"name": "py_tool", "inputSchema": {"type": "object"}}]}',
      '    else:',
      '        result = {}',
      '    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)',
    ].join('\n');
    const bundle = readBundle(
      writeBundle(
        [
          { path: 'SKILL.md', content: '---\nname: bundled\ndescription: A bundled server.\n---\n' },
          { path: 'server/index.js', content: script },
          { path: 'server/main.py', content: python },
        ],
        { rootFolder: 'bundled' },
      ),
    );
    const target = (dir: string, overrides: Partial<BundleFileServerTarget> = {}): BundleFileServerTarget => ({
      server: 'bundled',
      kind: 'bundle-file',
      interpreter: 'node',
      file: join(dir, 'server/index.js'),
      bundleDir: dir,
      args: [],
      env: {},
      ...overrides,
    });

    it('runs it from the extracted bundle, with node or python3', async () => {
      const extracted = await extractBundle(bundle);
      try {
        const node = await probeLiveServer(target(extracted.dir), { packageCache: cache });
        const py = await probeLiveServer(
          target(extracted.dir, { interpreter: 'python3', file: join(extracted.dir, 'server/main.py') }),
          {
            packageCache: cache,
          },
        );

        expect(node).toMatchObject({
          outcome: 'listed',
          tools: [{ name: 'lookup', description: 'Look up a word.', inputSchema: { type: 'object' } }],
        });
        expect(py).toMatchObject({ outcome: 'listed', tools: [{ name: 'py_tool', inputSchema: { type: 'object' } }] });
      } finally {
        await extracted.remove();
      }
    });

    it('runs a module of the bundle as python3 -m, from the working folder', async () => {
      const extracted = await extractBundle(bundle);
      try {
        const main = join(extracted.dir, 'server/main.py');
        const probe = await probeLiveServer(
          target(extracted.dir, { interpreter: 'python3', file: main, module: 'server.main' }),
          { packageCache: cache },
        );
        const missing = await probeLiveServer(
          target(extracted.dir, { interpreter: 'python3', file: main, module: 'server.absent' }),
          { packageCache: cache },
        );

        expect(probe).toMatchObject({ outcome: 'listed', tools: [{ name: 'py_tool' }] });
        expect(missing.outcome).not.toBe('listed');
      } finally {
        await extracted.remove();
      }
    });

    it('refuses a file outside the bundle', async () => {
      const extracted = await extractBundle(bundle);
      try {
        const probe = await probeLiveServer(target(extracted.dir, { file: join(extracted.dir, '../outside.js') }), {
          packageCache: cache,
        });

        expect(probe).toMatchObject({
          outcome: 'failed',
          detail: `the server's file ${join(extracted.dir, '../outside.js')} is not a file of the bundle`,
        });
      } finally {
        await extracted.remove();
      }
    });

    it('extracts every file with its mode, and removes the folder', async () => {
      const extracted = await extractBundle(bundle);
      const content = await readFile(join(extracted.dir, 'server/index.js'), 'utf8');
      await extracted.remove();

      expect(content).toBe(script);
      await expect(readdir(extracted.dir)).rejects.toThrow();
    });
  });
});
