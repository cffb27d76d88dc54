/**
 * One upstream MCP server: connected through the SDK over the transport its connector opens
 * (a sandboxed stdio server, a plain one, SSE or Streamable HTTP), with connect and call
 * timeouts. Its tools are what it lists (every page), less any whose name cannot be namespaced
 * and any name listed twice, each dropped with a warning. A server that fails to start, or
 * stops later, is remembered with its reason (secrets masked) and tried again after growing
 * delays; concurrent callers share one connection attempt.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  type ReadResourceResult,
  type Resource,
  type Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { backoffDelayMs } from '@skillhub/retry';
import { type ServerTrust, type TierSetting, toolDefinitionHash, toolNameProblem } from '@skillhub/gate';
import { maskSecrets } from './server-environment';

/** How to reach a server: opening a transport may install and sandbox it. */
export interface UpstreamConnector {
  /** A fresh transport for one connection attempt. */
  open(): Promise<Transport>;
  /** Why the attempt failed or the connection ended, from the error and what the transport saw (exit, stderr). */
  explain(error: Error, transport: Transport | null): string;
  /**
   * The server can change its tools without telling the runtime (a remote server, whose code
   * nothing pins, need send no `list_changed`): they are listed again before every call, so the
   * call is checked against the definition the server serves now.
   */
  relistsBeforeCalls?: boolean;
}

/** The tool pins one certificate records for a skill's server (null: none were recorded). */
export interface ServerCertification {
  /** `author/name@version`. */
  certifiedAs: string;
  tools: Readonly<Record<string, string>> | null;
}

/** How a skill server's own tools are offered (the server planner keeps it up to date as skills join). */
export interface ServerGovernance {
  /** Every tool of it is offered under its name, because a skill naming it offers whole servers (Kazma). */
  offered: boolean;
  /** The operator's tiers for the skills that offer it that way. */
  tiers: TierSetting[];
}

/** Who vouches for the server's tools: its skills' certificates, or nobody (the operator's own server). */
export type UpstreamOrigin =
  | { kind: 'operator'; trust: ServerTrust }
  | { kind: 'skill'; certifications: readonly ServerCertification[]; governance: ServerGovernance };

export interface UpstreamSpec {
  /** The `<server>` of `mcp__<server>__<tool>`. */
  name: string;
  origin: UpstreamOrigin;
  connector: UpstreamConnector;
  /** Values masked in every reason reported. */
  secrets: readonly string[];
}

export interface UpstreamOptions {
  connectTimeoutMs: number;
  callTimeoutMs: number;
  /** Retry delays grow from this, doubling, up to maxRetryDelayMs. */
  retryDelayMs: number;
  maxRetryDelayMs: number;
  /** Told about dropped tools and servers that stop. */
  warn?: (message: string) => void;
  /** Told when the server comes up, changes its tools, or goes (the gateway tells its clients). */
  changed?: () => void;
}

export type UpstreamState =
  | { status: 'idle' }
  | { status: 'connected'; tools: Tool[] }
  | { status: 'failed'; reason: string; failures: number; retryAt: number };

/** More than any real server lists; a server that pages on forever is cut here. */
const MAX_TOOLS = 1000;

export class UpstreamServer {
  private client: Client | null = null;
  private connecting: Promise<UpstreamState> | null = null;
  state: UpstreamState = { status: 'idle' };

  constructor(
    readonly spec: UpstreamSpec,
    private readonly options: UpstreamOptions,
    private readonly now: () => number = Date.now,
  ) {}

  get name(): string {
    return this.spec.name;
  }

  /** Skill servers are never `trusted`: approvals stay the operator's call for servers they configure. */
  get trust(): ServerTrust {
    return this.spec.origin.kind === 'operator' ? this.spec.origin.trust : 'approval_required';
  }

  /** Connects unless connected, or failed and still waiting for its next try. */
  ensureConnected(): Promise<UpstreamState> {
    if (this.state.status === 'connected') return Promise.resolve(this.state);
    if (this.state.status === 'failed' && this.now() < this.state.retryAt) return Promise.resolve(this.state);
    this.connecting ??= this.connect().finally(() => (this.connecting = null));
    return this.connecting;
  }

  /**
   * As ensureConnected, for a call: a server that can change its tools silently has them listed
   * again first (a listing that fails is the call's failure, not the server's).
   */
  async stateForCall(): Promise<UpstreamState> {
    const state = await this.ensureConnected();
    const client = this.client;
    if (state.status !== 'connected' || !client || !this.spec.connector.relistsBeforeCalls) return state;
    try {
      const tools = await this.listTools(client);
      if (this.client === client) this.state = { status: 'connected', tools };
      return { status: 'connected', tools };
    } catch (error) {
      const reason = `its tools could not be listed again before the call: ${(error as Error).message}`;
      return { status: 'failed', reason, failures: 0, retryAt: this.now() };
    }
  }

  /** As ensureConnected, without waiting for a connection already under way (its state until then). */
  readyState(): Promise<UpstreamState> {
    return this.connecting ? Promise.resolve(this.state) : this.ensureConnected();
  }

  /**
   * `timeoutMs` (default: the runtime's call timeout): past it the call is cancelled on the server
   * (`notifications/cancelled`) and rejected with an McpError RequestTimeout; so is a call whose
   * `signal` aborts.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { timeoutMs?: number; signal?: AbortSignal; checked?: Tool } = {},
  ): Promise<CallToolResult> {
    const client = this.client;
    if (!client) throw new Error(`server ${this.name} is not connected`);
    // A server that can change its tools silently is asked again right before the call, on the
    // client that makes it: the definition checked (before an approval, a retry) must still be the one served.
    if (this.spec.connector.relistsBeforeCalls && options.checked) {
      const live = (await this.listTools(client)).find((tool) => tool.name === name);
      if (!live || !sameDefinition(live, options.checked)) {
        throw new Error(`the definition of ${name} changed since the call was checked; it was not called`);
      }
    }
    return (await client.callTool({ name, arguments: args }, undefined, {
      timeout: options.timeoutMs ?? this.options.callTimeoutMs,
      signal: options.signal,
    })) as CallToolResult;
  }

  /** The server's resources, when it offers any (an empty list otherwise). */
  async listResources(): Promise<Resource[]> {
    if (!this.client?.getServerCapabilities()?.resources) return [];
    return (await this.client.listResources(undefined, { timeout: this.options.callTimeoutMs })).resources;
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    if (!this.client) throw new Error(`server ${this.name} is not connected`);
    return this.client.readResource({ uri }, { timeout: this.options.callTimeoutMs });
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.state = { status: 'idle' };
    await client?.close().catch(() => undefined);
  }

  private async connect(): Promise<UpstreamState> {
    const failures = this.state.status === 'failed' ? this.state.failures : 0;
    // No sampling capability is declared: an upstream server's sampling requests are refused.
    const client = new Client({ name: 'skillhub-agent-runtime', version: '0.1.0' });
    let transport: Transport | null = null;
    try {
      transport = await this.spec.connector.open();
      await withTimeout(client.connect(transport), this.options.connectTimeoutMs, 'connect');
      const tools = await withTimeout(this.listTools(client), this.options.connectTimeoutMs, 'tools/list');
      this.client = client;
      this.state = { status: 'connected', tools };
      const opened = transport;
      client.onclose = () => {
        if (this.client !== client) return;
        this.client = null;
        this.options.warn?.(`${this.name}: ${this.fail(new Error('the server closed the connection'), opened, 0)}`);
        this.options.changed?.();
      };
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        try {
          const changed = await this.listTools(client);
          if (this.client === client) this.state = { status: 'connected', tools: changed };
          this.options.changed?.();
        } catch (err) {
          this.options.warn?.(`${this.name}: its changed tool list could not be read: ${(err as Error).message}`);
        }
      });
      this.options.changed?.();
    } catch (err) {
      // Read how it ended before closing, which kills it and would report that instead.
      this.fail(err as Error, transport, failures);
      await client.close().catch(() => undefined);
      await transport?.close().catch(() => undefined);
    }
    return this.state;
  }

  /** Records the failure and returns its reason. */
  private fail(error: Error, transport: Transport | null, failures: number): string {
    // Never sooner than retryDelayMs: a failing server is not started again on the very next call.
    const { retryDelayMs, maxRetryDelayMs } = this.options;
    const delay =
      retryDelayMs +
      backoffDelayMs(failures, { baseDelayMs: retryDelayMs, maxDelayMs: maxRetryDelayMs - retryDelayMs });
    const reason = maskSecrets(this.spec.connector.explain(error, transport), [...this.spec.secrets]);
    this.state = { status: 'failed', reason, failures: failures + 1, retryAt: this.now() + delay };
    return reason;
  }

  /** Every page, less the names that cannot be namespaced and the repeats (each said once per listing). */
  private async listTools(client: Client): Promise<Tool[]> {
    const tools: Tool[] = [];
    const seen = new Set<string>();
    const cursors = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor }, {
        timeout: this.options.connectTimeoutMs,
      });
      for (const tool of page.tools) {
        const problem = toolNameProblem(tool.name);
        if (problem) {
          this.options.warn?.(`${this.name}: the tool ${JSON.stringify(tool.name)} is dropped: ${problem}`);
        } else if (seen.has(tool.name)) {
          this.options.warn?.(`${this.name}: the tool ${tool.name} is listed twice: only its first definition is used`);
        } else {
          seen.add(tool.name);
          tools.push(tool);
        }
      }
      cursor = page.nextCursor;
      if (cursor !== undefined && cursors.has(cursor)) throw new Error('its tools/list pages repeat a cursor');
      if (cursor !== undefined) cursors.add(cursor);
      if (tools.length > MAX_TOOLS) throw new Error(`it lists more than ${MAX_TOOLS} tools`);
    } while (cursor !== undefined);
    return tools;
  }
}

/** The fields a tool's pin covers (libs/gate's toolDefinitionHash), compared as the pin would. */
const sameDefinition = (a: Tool, b: Tool): boolean =>
  toolDefinitionHash({
    name: a.name,
    description: a.description,
    inputSchema: a.inputSchema,
    annotations: a.annotations,
  }) ===
  toolDefinitionHash({
    name: b.name,
    description: b.description,
    inputSchema: b.inputSchema,
    annotations: b.annotations,
  });

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
