/**
 * The agent runtime in the test's process, from a config written as its YAML, serving its gateway
 * over HTTP on a spare port; and an MCP client of that gateway with the token the runtime keeps.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { NestFactory } from '@nestjs/core';
import { stringify } from 'yaml';
import { loadConfig } from '@skillhub/config';
import { AgentRuntimeModule } from '../../apps/agent-runtime/src/agent-runtime.module';
import { loadRuntimeConfig } from '../../apps/agent-runtime/src/config/runtime-config';
import { sparePort } from './private-redis';
import type { TestHub } from './test-hub';

export interface RuntimeGateway {
  mcp: Client;
  /** The namespaced tools the gateway lists now. */
  tools(): Promise<string[]>;
  /** Resolves once the gateway lists `tool` (its server is installed and started in the background). */
  waitForTool(tool: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** `config` is the runtime's YAML less `hub`, `state_dir` (`<dir>/runtime-state`) and `gateway`. */
export async function startRuntimeGateway(
  hub: TestHub,
  dir: string,
  config: Record<string, unknown>,
): Promise<RuntimeGateway> {
  const port = await sparePort();
  const file = join(dir, 'runtime.yaml');
  const stateDir = join(dir, 'runtime-state');
  writeFileSync(
    file,
    stringify({ hub: hub.baseUrl, state_dir: stateDir, ...config, gateway: { http: { host: '127.0.0.1', port } } }),
  );
  const runtime = await NestFactory.createApplicationContext(
    AgentRuntimeModule.forRoot(
      loadConfig({ RUNTIME_CONFIG: file, KAZMA_HUB_URL: hub.baseUrl, HUB_LOG_ORIGIN: hub.config.HUB_LOG_ORIGIN }),
      { runtime: loadRuntimeConfig(file), stdio: null },
    ),
    { logger: false },
  );
  await runtime.init();
  const mcp = new Client({ name: 'runtime-gateway-test', version: '1.0.0' });
  try {
    const token = readFileSync(join(stateDir, 'gateway-token'), 'utf8').trim();
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
  } catch (error) {
    await runtime.close();
    throw error;
  }
  const tools = async (): Promise<string[]> => (await mcp.listTools()).tools.map((tool) => tool.name).sort();
  return {
    mcp,
    tools,
    async waitForTool(tool, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!(await tools()).includes(tool)) {
        if (Date.now() > deadline) throw new Error(`the gateway did not list ${tool} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async close() {
      await mcp.close();
      await runtime.close();
    },
  };
}
