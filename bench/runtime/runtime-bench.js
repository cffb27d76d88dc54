#!/usr/bin/env node
// The gateway's cost: a safe tool call (server-everything's get-sum over stdio) made
// directly with the SDK client, through the gateway in-process, through the gateway over
// Streamable HTTP (an SDK client in a session; a bare JSON-RPC POST without one), and, as
// the floor of any HTTP path, a bare fetch round trip to an echo server, all in one run;
// then the agent-runtime as its own
// process installing 5 certified skills from a hub, each with an MCP server: time from
// spawn to tools-ready, and its peak RSS.
// Run `npm run build` first; `npm run bench:runtime`. BENCH_CALLS (default 500).
const { spawn } = require('node:child_process');
const { createServer } = require('node:http');
const { readFileSync, writeFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { InMemoryTransport } = require('@modelcontextprotocol/sdk/inMemory.js');
const { stringify } = require('yaml');

const dist = (p) => require(`../../dist/${p}`);
const { Gateway } = dist('apps/agent-runtime/src/gateway/gateway');
const { serveGatewayHttp } = dist('apps/agent-runtime/src/gateway/gateway-http');
const { MemoryToolPins } = dist('apps/agent-runtime/src/gateway/tool-pins');
const { UpstreamServer } = dist('apps/agent-runtime/src/mcp/upstream-server');
const { mcpServerConfigSchema } = dist('apps/agent-runtime/src/mcp/mcp-server.config');
const { EMPTY_PRE_APPROVAL_POLICY } = dist('libs/gate/src');

const CALLS = Number(process.env.BENCH_CALLS ?? 500);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const command = [process.execPath, EVERYTHING, 'stdio'];

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

async function main() {
  const direct = new Client({ name: 'direct', version: '1' });
  await direct.connect(new StdioClientTransport({ command: command[0], args: command.slice(1), stderr: 'ignore' }));

  const upstream = new UpstreamServer(
    mcpServerConfigSchema.parse({ name: 'everything', transport: 'stdio', command }),
    {
      connectTimeoutMs: 30_000,
      callTimeoutMs: 30_000,
      retryDelayMs: 1000,
      maxRetryDelayMs: 1000,
      inheritEnv: false,
      runtimeEnv: process.env,
    },
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
  const http = await serveGatewayHttp(gateway, '127.0.0.1', 0);
  const overHttp = new Client({ name: 'http', version: '1' });
  await overHttp.connect(new StreamableHTTPClientTransport(new URL(http.url)));

  const echo = createServer((req, res) => req.pipe(res));
  await new Promise((resolve) => echo.listen(0, '127.0.0.1', resolve));
  const post = (url, body) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
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
    await time('direct SDK client → server (stdio)', sum(direct, 'get-sum')),
    await time('through the gateway, in-process client', sum(inProcess, 'mcp__everything__get-sum')),
    await time(
      'through the gateway over Streamable HTTP, SDK client in a session',
      sum(overHttp, 'mcp__everything__get-sum'),
    ),
    await time('through the gateway over Streamable HTTP, bare POST without a session', stateless),
    await time('floor: bare fetch round trip to an echo server, no MCP', (i) =>
      post(`http://127.0.0.1:${echo.address().port}/`, { i }),
    ),
  ];
  echo.close();
  await Promise.all([direct.close(), inProcess.close(), overHttp.close(), upstream.close()]);
  await http.close();

  const ready = await runtimeStartup(5);
  const base = rows[0];
  console.log(`\ntool call latency, ${CALLS} sequential calls each (get-sum, a safe tool)\n`);
  console.log('| path | p50 ms | p99 ms | p50 vs direct |');
  console.log('|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.label} | ${r.p50.toFixed(3)} | ${r.p99.toFixed(3)} | ${(r.p50 / base.p50).toFixed(2)}× (+${(r.p50 - base.p50).toFixed(3)} ms) |`,
    );
  console.log(
    `\nagent-runtime with 5 installed skills (5 MCP servers): start → tools ready ${ready.ms.toFixed(0)} ms, ${ready.tools} tools, peak RSS ${ready.rss.toFixed(0)} MiB (its own process)`,
  );
}

/**
 * A hub on the embedded database (certifying in-process), five published and certified
 * skills each declaring one server-everything; then the runtime is spawned with those five
 * skills in its config: the time covers five offline-verified installs and five servers.
 */
async function runtimeStartup(skills) {
  const { randomBytes } = require('node:crypto');
  const { createHubApp } = dist('apps/hub-api/src/create-hub-app');
  const { loadConfig } = dist('libs/config/src');
  const { startEmbeddedDatabase } = dist('libs/registry/src');
  const { writeBundle } = dist('libs/bundle/src');
  const db = await startEmbeddedDatabase(null);
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: undefined,
    HUB_ADMIN_TOKEN: randomBytes(24).toString('hex'),
    HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    REDIS_PREFIX: `skillhub-bench-${Date.now()}`,
    OUTBOX_POLL_MS: '100',
    LOG_LEVEL: 'error',
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
      mcp_servers: [{ name: `everything-${i}`, type: 'stdio', command: command[0], args: command.slice(1) }],
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

  const port = 39000 + Math.floor(Math.random() * 1000);
  const stateDir = join(tmpdir(), `skillhub-runtime-bench-${process.pid}`);
  const file = `${stateDir}.yaml`;
  writeFileSync(
    file,
    stringify({
      hub: base,
      state_dir: stateDir,
      skills: names.map((n) => `bench-labs/${n}@^1.0.0`),
      gateway: { http: { host: '127.0.0.1', port } },
    }),
  );
  const t0 = performance.now();
  const proc = spawn(process.execPath, ['dist/apps/agent-runtime/src/main.js'], {
    env: { ...process.env, RUNTIME_CONFIG: file, KAZMA_HUB_URL: base, HUB_LOG_ORIGIN: config.HUB_LOG_ORIGIN },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        const client = new Client({ name: 'probe', version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
        const { tools } = await client.listTools();
        await client.close();
        if (tools.length >= skills * 10) {
          const ms = performance.now() - t0;
          const rss = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))[1]) / 1024;
          return { ms, tools: tools.length, rss };
        }
      } catch {
        if (proc.exitCode !== null) throw new Error(`the runtime exited with ${proc.exitCode}`);
      }
      if (performance.now() - t0 > 60_000) throw new Error('the runtime was not ready in 60 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    proc.kill('SIGTERM');
    rmSync(file, { force: true });
    rmSync(stateDir, { recursive: true, force: true });
    await hub.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
