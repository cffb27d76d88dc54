/**
 * A server the operator configures (`mcp_servers:`), reached as it always was: a stdio process
 * with an allowlist of the runtime's environment plus its own `env`, SSE or Streamable HTTP with
 * its auth header. One that opts in with `sandbox:` runs in the sandbox skill servers get, with
 * only its own `env`, the program and the `read_only` paths it lists, and network only with
 * `network:` (through its egress proxy, like a skill's); without bubblewrap it does not start (the
 * operator asked for a sandbox).
 */
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  SANDBOX_HOME,
  SandboxStdioTransport,
  isSystemPath,
  nodeInSandbox,
  type SandboxMount,
  type SandboxPolicy,
} from '@skillhub/sandbox';
import { serverNetwork } from '../config/network-setting';
import type { McpServerConfig } from './mcp-server.config';
import { type SandboxSetting, noSandbox } from './sandbox-setting';
import { describeFailure } from './server-failure';
import { serverEnvironment } from './server-environment';
import { StderrTail } from './stderr-tail';
import { type UpstreamConnector, type UpstreamOptions, UpstreamServer } from './upstream-server';

export interface OperatorConnectorOptions {
  /** KAZMA_MCP_INHERIT_ENV=1: plain stdio servers get the runtime's whole environment. */
  inheritEnv: boolean;
  runtimeEnv: NodeJS.ProcessEnv;
  sandbox: SandboxSetting;
}

/** The operator's server as an upstream of the gateway: its tools pinned on first use, its trust as configured. */
export function operatorUpstream(
  config: McpServerConfig,
  options: OperatorConnectorOptions,
  upstream: UpstreamOptions,
): UpstreamServer {
  const secrets = [
    config.auth?.type === 'bearer' ? config.auth.token : config.auth?.value,
    ...Object.values(config.env),
  ];
  return new UpstreamServer(
    {
      name: config.name,
      origin: { kind: 'operator', trust: config.trust },
      connector: operatorConnector(config, options),
      secrets: secrets.filter((secret): secret is string => !!secret),
    },
    upstream,
  );
}

export function operatorConnector(config: McpServerConfig, options: OperatorConnectorOptions): UpstreamConnector {
  let stderr: StderrTail | null = null;
  return {
    async open(): Promise<Transport> {
      if (config.transport !== 'stdio') return remoteTransport(config);
      const [program, ...args] = config.command!;
      if (config.sandbox) {
        const missing = noSandbox(options.sandbox);
        if (missing) throw new Error(`${missing}; this server is configured to run in the sandbox`);
        const resolved = sandboxedProgram(program!, options.runtimeEnv.PATH);
        const mounts: SandboxMount[] = [
          ...resolved.mounts,
          ...config.sandbox.read_only.map((path) => ({ source: path, target: path })),
        ];
        const network = serverNetwork(false, config.sandbox.network);
        const policy: SandboxPolicy = {
          network: network && (await options.sandbox.egress.network(config.name, network)),
          readOnly: mounts,
          tmpfs: [],
          env: { ...config.env },
          cwd: SANDBOX_HOME,
          limits: options.sandbox.limits,
        };
        return new SandboxStdioTransport(policy, [resolved.path, ...args], { tools: options.sandbox.tools });
      }
      stderr = new StderrTail();
      const transport = new StdioClientTransport({
        command: program!,
        args,
        env: serverEnvironment(options.runtimeEnv, config.env, options.inheritEnv),
        stderr: 'pipe',
      });
      stderr.follow(transport.stderr);
      return transport;
    },
    explain(error, transport): string {
      const sandboxed = transport instanceof SandboxStdioTransport ? transport : null;
      return describeFailure({
        error: error.message,
        exit: sandboxed?.exit ?? null,
        stderr: sandboxed?.stderrTail ?? stderr?.text ?? '',
        network: config.transport !== 'stdio' || !config.sandbox || config.sandbox.network !== false,
        grantTo: [],
      });
    },
  };
}

function remoteTransport(config: McpServerConfig): Transport {
  const headers: Record<string, string> = {};
  if (config.auth?.type === 'bearer') headers.authorization = `Bearer ${config.auth.token}`;
  if (config.auth?.type === 'header') headers[config.auth.name] = config.auth.value;
  const url = new URL(config.url!);
  return config.transport === 'sse'
    ? new SSEClientTransport(url, { requestInit: { headers } })
    : new StreamableHTTPClientTransport(url, { requestInit: { headers } });
}

/**
 * The program as the sandbox sees it: this runtime's Node for `node`; otherwise the program found
 * on PATH (or given by path), its real path mounted when it is not in a system folder.
 */
function sandboxedProgram(program: string, path: string | undefined): { path: string; mounts: SandboxMount[] } {
  if (program === 'node') return nodeInSandbox();
  const candidates = isAbsolute(program)
    ? [program]
    : (path ?? '')
        .split(delimiter)
        .filter(isAbsolute)
        .map((dir) => join(dir, program));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      const real = realpathSync(candidate);
      return { path: real, mounts: isSystemPath(real) ? [] : [{ source: real, target: real }] };
    } catch {
      // Not there, or not executable: the next one.
    }
  }
  throw new Error(`${program} is not an executable program on this machine`);
}
