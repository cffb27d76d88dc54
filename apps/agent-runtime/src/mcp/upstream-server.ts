/**
 * One upstream MCP server: connected through the SDK over stdio, SSE or Streamable
 * HTTP, with connect and call timeouts. A server that fails is remembered with its
 * reason (secrets masked) and tried again after growing delays.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, ReadResourceResult, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from './mcp-server.config';
import { maskSecrets, serverEnvironment } from './server-environment';

export interface UpstreamOptions {
  connectTimeoutMs: number;
  callTimeoutMs: number;
  /** Retry delays grow from this, doubling, up to maxRetryDelayMs. */
  retryDelayMs: number;
  maxRetryDelayMs: number;
  inheritEnv: boolean;
  runtimeEnv: NodeJS.ProcessEnv;
}

export type UpstreamState =
  | { status: 'idle' }
  | { status: 'connected'; tools: Tool[] }
  | { status: 'failed'; reason: string; failures: number; retryAt: number };

export class UpstreamServer {
  private client: Client | null = null;
  state: UpstreamState = { status: 'idle' };

  constructor(
    readonly config: McpServerConfig,
    private readonly options: UpstreamOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** Connects unless connected, or failed and still waiting for its next try. */
  async ensureConnected(): Promise<UpstreamState> {
    if (this.state.status === 'connected') return this.state;
    if (this.state.status === 'failed' && this.now() < this.state.retryAt) return this.state;
    const failures = this.state.status === 'failed' ? this.state.failures : 0;
    // No sampling capability is declared: an upstream server's sampling requests are refused.
    const client = new Client({ name: 'skillhub-agent-runtime', version: '0.1.0' });
    try {
      await withTimeout(client.connect(this.transport()), this.options.connectTimeoutMs, 'connect');
      const { tools } = await withTimeout(client.listTools(), this.options.connectTimeoutMs, 'tools/list');
      this.client = client;
      this.state = { status: 'connected', tools };
    } catch (err) {
      await client.close().catch(() => undefined);
      const delay = Math.min(this.options.retryDelayMs * 2 ** failures, this.options.maxRetryDelayMs);
      this.state = {
        status: 'failed',
        reason: maskSecrets((err as Error).message ?? String(err), this.secrets()),
        failures: failures + 1,
        retryAt: this.now() + delay,
      };
    }
    return this.state;
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    if (!this.client) throw new Error(`server ${this.config.name} is not connected`);
    return (await this.client.callTool({ name, arguments: args }, undefined, {
      timeout: this.options.callTimeoutMs,
    })) as CallToolResult;
  }

  /** The server's resources, when it offers any (an empty list otherwise). */
  async listResources(): Promise<Resource[]> {
    if (!this.client?.getServerCapabilities()?.resources) return [];
    return (await this.client.listResources(undefined, { timeout: this.options.callTimeoutMs })).resources;
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    if (!this.client) throw new Error(`server ${this.config.name} is not connected`);
    return this.client.readResource({ uri }, { timeout: this.options.callTimeoutMs });
  }

  async close(): Promise<void> {
    await this.client?.close().catch(() => undefined);
    this.client = null;
    this.state = { status: 'idle' };
  }

  private transport(): Transport {
    const { config } = this;
    if (config.transport === 'stdio') {
      const [command, ...args] = config.command!;
      return new StdioClientTransport({
        command: command!,
        args,
        env: serverEnvironment(this.options.runtimeEnv, config.env, this.options.inheritEnv),
        stderr: 'ignore',
      });
    }
    const headers: Record<string, string> = {};
    if (config.auth?.type === 'bearer') headers.authorization = `Bearer ${config.auth.token}`;
    if (config.auth?.type === 'header') headers[config.auth.name] = config.auth.value;
    const url = new URL(config.url!);
    return config.transport === 'sse'
      ? new SSEClientTransport(url, { requestInit: { headers } })
      : new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  }

  private secrets(): string[] {
    const auth = this.config.auth;
    return [auth?.type === 'bearer' ? auth.token : auth?.value, ...Object.values(this.config.env)].filter(
      (s): s is string => !!s,
    );
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
