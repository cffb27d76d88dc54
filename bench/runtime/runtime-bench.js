#!/usr/bin/env node
// The gateway's cost and the runtime's start, with skill servers in the sandbox.
// 1. A safe tool call (server-everything's get-sum) made directly with the SDK client to the
//    server over stdio, plain and in the bubblewrap sandbox (the baseline the gateway is
//    measured against), then through the gateway to that sandboxed server: in-process, over
//    stdio (the agent-runtime as its own process, its gateway on stdin/stdout), over Streamable
//    HTTP (an SDK client in a session; a bare JSON-RPC POST without one), and, as the floor of
//    any HTTP path, a bare fetch round trip to an echo server, all in one run.
// 2. The agent-runtime as its own process installing 5 certified skills from a hub (each with a
//    server-everything pinned by integrity, served as a real tarball by a local npm), its gateway on
//    stdio: spawn → `initialize` answered, → the first `tools/list` answered, → every tool listed,
//    and its peak RSS; once cold (its package cache empty: every skill still installing when the
//    client connects), then warm.
// `npm run bench:runtime` builds dist/ and dist-bench/ and runs it. BENCH_CALLS (default 500), BENCH_STARTS (default 3).
const { randomBytes } = require('node:crypto');
const { createServer } = require('node:http');
const { existsSync, mkdtempSync, readFileSync, writeFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { InMemoryTransport } = require('@modelcontextprotocol/sdk/inMemory.js');
const { stringify } = require('yaml');

const ROOT = join(__dirname, '../..');
const dist = (p) => require(`../../dist/${p}`);
const { Gateway } = dist('apps/agent-runtime/src/gateway/gateway');
const { serveGatewayHttp } = dist('apps/agent-runtime/src/gateway/gateway-http');
const { operatorUpstream } = dist('apps/agent-runtime/src/mcp/operator-connector');
const { mcpServerConfigSchema } = dist('apps/agent-runtime/src/mcp/mcp-server.config');
const { sandboxLimits } = dist('apps/agent-runtime/src/mcp/sandbox-setting');
const { EMPTY_PRE_APPROVAL_POLICY } = dist('libs/gate/src');
const { SandboxStdioTransport, nodeInSandbox, sandboxAvailable, sandboxEnforcement } = dist('libs/sandbox/src');
const { ServerEgress } = dist('apps/agent-runtime/src/mcp/server-egress');

const CALLS = Number(process.env.BENCH_CALLS ?? 500);
const STARTS = Number(process.env.BENCH_STARTS ?? 3);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const EVERYTHING_SPEC = '@modelcontextprotocol/server-everything@2026.8.31';
/** The repository's node_modules, mounted read-only where it is, so the sandboxed server finds its dependencies. */
const NODE_MODULES = join(ROOT, 'node_modules');
const LIMITS = sandboxLimits({ memory_mib: 1024, cpu_seconds: 3600, processes: 256, cpu_cores: 1, tmpfs_mib: 64 });
/** The HTTP gateway's bearer token, here chosen by the bench. */
const TOKEN = randomBytes(24).toString('hex');
const BEARER = { authorization: `Bearer ${TOKEN}` };

/** The fake registry and in-memory pins are test support, left out of the build: `npm run build:bench` compiles them into dist-bench/. */
const packageProbeTesting = () => require('../../dist-bench/libs/package-probe/src/testing');
const { MemoryToolPins } = require('../../dist-bench/apps/agent-runtime/src/gateway/testing/memory-tool-pins');
const { deleteRedisKeys } = require('../support/hub-process');

async function time(label, call) {
  for (let i = 0; i < 20; i++) await call(i); // warm-up
  const ms = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await call(i);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { label, p50: ms[Math.floor(ms.length / 2)], p99: ms[Math.floor(ms.length * 0.99)] };
}

const sum = (client, name) => (i) => client.callTool({ name, arguments: { a: i, b: 1 } });

/** server-everything as an operator server opted in to the sandbox: no network, node_modules read-only. */
const sandboxedServer = {
  name: 'everything',
  transport: 'stdio',
  command: ['node', EVERYTHING, 'stdio'],
  sandbox: { network: false, read_only: [NODE_MODULES] },
};

async function latency() {
  const direct = new Client({ name: 'direct', version: '1' });
  await direct.connect(
    new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }),
  );
  const node = nodeInSandbox();
  const directSandboxed = new Client({ name: 'direct-sandboxed', version: '1' });
  await directSandboxed.connect(
    new SandboxStdioTransport(
      {
        network: null,
        readOnly: [...node.mounts, { source: NODE_MODULES, target: NODE_MODULES }],
        tmpfs: [],
        env: {},
        cwd: '/home/sandbox',
        limits: LIMITS,
      },
      [node.path, EVERYTHING, 'stdio'],
    ),
  );

  const upstream = operatorUpstream(
    mcpServerConfigSchema.parse(sandboxedServer),
    {
      inheritEnv: false,
      runtimeEnv: process.env,
      sandbox: {
        mode: 'on',
        availability: await sandboxAvailable(),
        limits: LIMITS,
        enforcement: sandboxEnforcement(),
        egress: new ServerEgress({ allowAddresses: [], record: () => undefined }),
      },
    },
    { connectTimeoutMs: 30_000, callTimeoutMs: 30_000, retryDelayMs: 1000, maxRetryDelayMs: 1000 },
  );
  const gateway = new Gateway([upstream], {
    environment: { production: false, trustedInProdAllowed: false },
    preApproval: EMPTY_PRE_APPROVAL_POLICY,
    pins: new MemoryToolPins(),
  });
  const inProcess = new Client({ name: 'in-process', version: '1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await gateway.createServer().connect(b);
  await inProcess.connect(a);
  const http = await serveGatewayHttp(gateway, '127.0.0.1', 0, { token: TOKEN });
  const overHttp = new Client({ name: 'http', version: '1' });
  await overHttp.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: BEARER } }));

  // The runtime as its own process, its gateway on stdio, in front of the same sandboxed server.
  const stateDir = mkdtempSync(join(tmpdir(), 'skillhub-runtime-bench-stdio-'));
  writeFileSync(
    join(stateDir, 'runtime.yaml'),
    stringify({ state_dir: stateDir, mcp_servers: [sandboxedServer], gateway: { stdio: true } }),
  );
  const overStdio = new Client({ name: 'stdio', version: '1' });
  await overStdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'dist/apps/agent-runtime/src/main.js')],
      env: { ...process.env, RUNTIME_CONFIG: join(stateDir, 'runtime.yaml'), KAZMA_HUB_URL: 'http://127.0.0.1:1' },
      stderr: 'ignore',
    }),
  );

  const echo = createServer((req, res) => req.pipe(res));
  await new Promise((resolve) => echo.listen(0, '127.0.0.1', resolve));
  const post = (url, body) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...BEARER },
      body: JSON.stringify(body),
    }).then((res) => res.text());
  const stateless = (i) =>
    post(http.url, {
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'mcp__everything__get-sum', arguments: { a: i, b: 1 } },
    });

  const rows = [
    await time('direct SDK client → server (stdio, no sandbox)', sum(direct, 'get-sum')),
    await time('direct SDK client → server in the sandbox (stdio)', sum(directSandboxed, 'get-sum')),
    await time('through the gateway, in-process client → sandboxed server', sum(inProcess, 'mcp__everything__get-sum')),
    await time('through the agent-runtime over stdio → sandboxed server', sum(overStdio, 'mcp__everything__get-sum')),
    await time(
      'over Streamable HTTP, SDK client in a session → sandboxed server',
      sum(overHttp, 'mcp__everything__get-sum'),
    ),
    await time('over Streamable HTTP, bare POST without a session → sandboxed server', stateless),
    await time('floor: bare fetch round trip to an echo server, no MCP', (i) =>
      post(`http://127.0.0.1:${echo.address().port}/`, { i }),
    ),
  ];
  echo.close();
  await Promise.all([direct.close(), directSandboxed.close(), inProcess.close(), overHttp.close(), overStdio.close()]);
  await upstream.close();
  await http.close();
  rmSync(stateDir, { recursive: true, force: true });
  return rows;
}

async function main() {
  const sandbox = await sandboxAvailable();
  if (!sandbox.ok) throw new Error(`this bench runs servers in the sandbox: ${sandbox.reason}`);
  const rows = await latency();
  const base = rows[1];
  console.log(`\ntool call latency, ${CALLS} sequential calls each (get-sum, a safe tool)\n`);
  console.log('| path | p50 ms | p99 ms | p50 vs direct to the sandboxed server |');
  console.log('|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.label} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} | ${(r.p50 / base.p50).toFixed(2)}× (${r.p50 >= base.p50 ? '+' : ''}${(r.p50 - base.p50).toFixed(3)} ms) |`,
    );

  const starts = await runtimeStartup(5);
  const ms = (value) => `${value.toFixed(0)} ms`;
  console.log('\nagent-runtime with 5 skills from a hub (5 sandboxed servers), its gateway on stdio\n');
  console.log(
    '| start | initialize answered | first tools/list answered | every tool listed | initialize / every tool | peak RSS |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const s of starts)
    console.log(
      `| ${s.label} | ${ms(s.initialize)} | ${ms(s.firstList)} (${s.firstTools} tools) | ${ms(s.all)} (${s.tools} tools) | ${(s.initialize / s.all).toFixed(3)} | ${s.rss.toFixed(0)} MiB |`,
    );
}

/**
 * A hub on the embedded database (certifying in-process, with the live probe in the sandbox)
 * against a local npm serving server-everything's real tarballs; five published and certified
 * skills each declaring one `npx -y server-everything@<pinned> stdio`; then the runtime is
 * spawned with those five skills, its gateway on stdio: once cold (filling its package cache), then
 * STARTS more times warm (five offline-verified installs, five cache entries re-verified, five
 * sandboxed servers).
 */
async function runtimeStartup(skills) {
  const { FakeRegistries, packedRegistryFixtures } = packageProbeTesting();
  const { createHubApp } = dist('apps/hub-api/src/create-hub-app');
  const { loadConfig } = dist('libs/config/src');
  const { startEmbeddedDatabase } = dist('libs/database/src');
  const { writeBundle } = dist('libs/bundle/src');
  const work = mkdtempSync(join(tmpdir(), 'skillhub-runtime-bench-'));
  const registries = await FakeRegistries.start(
    packedRegistryFixtures({ fromNodeModules: [EVERYTHING_SPEC.slice(0, EVERYTHING_SPEC.lastIndexOf('@'))] }),
  );
  const db = await startEmbeddedDatabase(null);
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: undefined,
    HUB_ADMIN_TOKEN: randomBytes(24).toString('hex'),
    HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    REDIS_PREFIX: `skillhub-bench-runtime-${Date.now()}`,
    OUTBOX_POLL_MS: '100',
    LOG_LEVEL: 'error',
    NPM_REGISTRY_URL: registries.npm.baseUrl,
    PYPI_REGISTRY_URL: registries.pypi.baseUrl,
    LIVE_PROBE: '1',
    PACKAGE_CACHE_DIR: join(work, 'hub-packages'),
  });
  const hub = await createHubApp(config, { url: db.url, embedded: true, stop: () => db.stop() });
  await hub.listen(0, '127.0.0.1');
  const base = (await hub.getUrl()).replace('[::1]', '127.0.0.1');
  const api = async (method, path, body, headers = {}) => {
    const res = await fetch(base + path, { method, headers, body });
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}`);
    return res.json();
  };
  const { token } = await api('POST', '/api/v1/tokens', JSON.stringify({ namespace: 'bench-labs' }), {
    authorization: `Bearer ${config.HUB_ADMIN_TOKEN}`,
    'content-type': 'application/json',
  });
  const names = Array.from({ length: skills }, (_, i) => `runtime-bench-${i}`);
  for (const [i, name] of names.entries()) {
    const manifest = {
      name,
      version: '1.0.0',
      description: 'A benchmark skill whose MCP server the runtime starts.',
      author: 'bench-labs',
      license: 'MIT',
      mcp_servers: [{ name: `everything-${i}`, type: 'stdio', command: 'npx', args: ['-y', EVERYTHING_SPEC, 'stdio'] }],
    };
    const bundle = writeBundle([{ path: 'skill_manifest.yaml', content: stringify(manifest) }], { rootFolder: name });
    await api('POST', '/api/v1/skills', bundle, {
      authorization: `Bearer ${token}`,
      'content-type': 'application/gzip',
    });
  }
  for (const name of names) {
    for (;;) {
      const { status } = await api('GET', `/api/v1/skills/bench-labs/${name}/versions/1.0.0/certification`);
      if (status === 'certified') break;
      if (status !== 'pending') throw new Error(`${name} ended ${status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const stateDir = join(work, 'runtime-state');
  const file = join(work, 'runtime.yaml');
  writeFileSync(
    file,
    stringify({
      hub: base,
      state_dir: stateDir,
      npm_registry: registries.npm.baseUrl,
      skills: names.map((n) => `bench-labs/${n}@^1.0.0`),
      gateway: { stdio: true },
    }),
  );
  const start = async (label) => {
    const t0 = performance.now();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'dist/apps/agent-runtime/src/main.js')],
      env: { ...process.env, RUNTIME_CONFIG: file, KAZMA_HUB_URL: base, HUB_LOG_ORIGIN: config.HUB_LOG_ORIGIN },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'bench', version: '1' });
    try {
      await client.connect(transport, { timeout: 120_000 });
      const initialize = performance.now() - t0;
      const first = await client.listTools();
      const firstList = performance.now() - t0;
      for (;;) {
        const { tools } = await client.listTools();
        if (tools.length >= skills * 10) {
          const all = performance.now() - t0;
          const rss = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${transport.pid}/status`, 'utf8'))[1]) / 1024;
          return { label, initialize, firstList, firstTools: first.tools.length, all, tools: tools.length, rss };
        }
        if (performance.now() - t0 > 180_000) throw new Error('the runtime did not list every tool in 180 s');
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await client.close();
    }
  };
  try {
    const starts = [await start('cold: empty package cache, every skill installing')];
    if (!existsSync(join(stateDir, 'packages', 'entries'))) throw new Error('the package cache was not filled');
    for (let i = 0; i < STARTS; i++) starts.push(await start(`warm ${i + 1}`));
    return starts;
  } finally {
    await hub.close();
    await deleteRedisKeys(config.REDIS_URL, config.REDIS_PREFIX);
    await registries.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
