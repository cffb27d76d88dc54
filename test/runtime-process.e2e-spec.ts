/**
 * The agent-runtime as its own process: its gateway over stdio (stdout carries only MCP;
 * logs go to stderr), in front of a server-everything it reaches over SSE with a bearer
 * token. Runs dist/ (built if missing).
 */
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { stringify } from 'yaml';
import { sparePort, waitFor } from './support/private-redis';
import { untilEverySkillLoaded } from './support/runtime-log';

const ROOT = join(__dirname, '..');
const RUNTIME_MAIN = join(ROOT, 'dist/apps/agent-runtime/src/main.js');
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

describe('agent-runtime process', () => {
  let dir: string;
  let sseServer: ChildProcess;
  let port: number;

  beforeAll(async () => {
    if (!existsSync(RUNTIME_MAIN)) execSync('npm run build', { cwd: ROOT, stdio: 'ignore' });
    dir = mkdtempSync(join(tmpdir(), 'skillhub-runtime-process-'));
    port = await sparePort();
    sseServer = spawn(process.execPath, [EVERYTHING, 'sse'], {
      env: { ...process.env, PORT: String(port) },
      stdio: 'ignore',
    });
    await waitFor(
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/sse`, { signal: AbortSignal.timeout(500) }).catch(() => null);
        await res?.body?.cancel();
        return res?.ok;
      },
      20_000,
      'the SSE server',
    );
  });
  afterAll(() => {
    sseServer.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves MCP on stdio, with upstream servers reached over SSE, and logs nothing to stdout', async () => {
    const config = join(dir, 'runtime.yaml');
    writeFileSync(
      config,
      stringify({
        state_dir: join(dir, 'state'),
        mcp_servers: [
          {
            name: 'sse',
            transport: 'sse',
            url: `http://127.0.0.1:${port}/sse`,
            auth: { type: 'bearer', token: 'upstream-token-123' },
          },
        ],
        gateway: { stdio: true },
      }),
    );
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [RUNTIME_MAIN],
      env: { ...process.env, RUNTIME_CONFIG: config, KAZMA_HUB_URL: 'http://127.0.0.1:1' } as Record<string, string>,
      stderr: 'pipe',
    });
    let logged = '';
    transport.stderr?.on('data', (chunk: Buffer) => (logged += chunk.toString('utf8')));
    await client.connect(transport);
    try {
      await untilEverySkillLoaded(() => logged);
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('mcp__sse__get-sum');
      const result = (await client.callTool({
        name: 'mcp__sse__get-sum',
        arguments: { a: 4, b: 5 },
      })) as CallToolResult;
      expect(result.content.map((c) => (c.type === 'text' ? c.text : '')).join('')).toContain('9');
      const gated = (await client.callTool({ name: 'mcp__sse__echo', arguments: { message: 'x' } })) as CallToolResult;
      expect(gated.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
