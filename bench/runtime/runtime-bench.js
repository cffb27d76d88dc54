#!/usr/bin/env node
// The gateway's cost: a safe tool call (server-everything's get-sum over stdio) made
// directly with the SDK client, through the gateway in-process, and through the
// gateway over Streamable HTTP, all in one run; then the agent-runtime as its own
// process with 5 MCP servers: time from spawn to tools-ready, and its peak RSS.
// Run `npm run build` first; `npm run bench:runtime`. BENCH_CALLS (default 500).
const { spawn } = require('node:child_process');
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

  const rows = [
    await time('direct SDK client → server (stdio)', sum(direct, 'get-sum')),
    await time('through the gateway, in-process client', sum(inProcess, 'mcp__everything__get-sum')),
    await time('through the gateway over Streamable HTTP', sum(overHttp, 'mcp__everything__get-sum')),
  ];
  await Promise.all([direct.close(), inProcess.close(), overHttp.close(), upstream.close()]);
  await new Promise((r) => http.close(r));

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
    `\nagent-runtime with 5 MCP servers: start → tools ready ${ready.ms.toFixed(0)} ms, ${ready.tools} tools, peak RSS ${ready.rss.toFixed(0)} MiB (its own process)`,
  );
}

/** Spawns dist/apps/agent-runtime with `servers` server-everything instances and polls until all tools are listed. */
async function runtimeStartup(servers) {
  const port = 39000 + Math.floor(Math.random() * 1000);
  const file = join(tmpdir(), `skillhub-runtime-bench-${process.pid}.yaml`);
  writeFileSync(
    file,
    stringify({
      mcp_servers: Array.from({ length: servers }, (_, i) => ({
        name: `everything-${i}`,
        transport: 'stdio',
        command,
      })),
      gateway: { http: { host: '127.0.0.1', port } },
    }),
  );
  const t0 = performance.now();
  const proc = spawn(process.execPath, ['dist/apps/agent-runtime/src/main.js'], {
    env: { ...process.env, RUNTIME_CONFIG: file, KAZMA_HUB_URL: 'http://127.0.0.1:1' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        const client = new Client({ name: 'probe', version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
        const { tools } = await client.listTools();
        await client.close();
        if (tools.length >= servers * 10) {
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
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
