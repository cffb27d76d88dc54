/**
 * The runtime's life: read the YAML configuration, install the certified skills it
 * names (verified offline), connect the MCP servers configured and those the skills
 * declare, and serve them through the gateway (Streamable HTTP and/or stdio), with
 * Agent Skills offered as prompts.
 */
import { join } from 'node:path';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { createPreApprovalPolicy, isTrustedInProdAllowed } from '@skillhub/gate';
import { HubClient } from '@skillhub/hub-client';
import { loadRuntimeConfig, parseSkillSpec, RuntimeConfigError, type RuntimeConfig } from './config/runtime-config';
import { type InstallResult, SkillInstaller, TrustState } from '@skillhub/installer';
import { skillPrompt, skillServers } from './install/installed-skill';
import { Gateway } from './gateway/gateway';
import { FileToolPins } from './gateway/tool-pins';
import { isLoopback, serveGatewayHttp, type GatewayHttpServer } from './gateway/gateway-http';
import { UpstreamServer } from './mcp/upstream-server';

@Injectable()
export class RuntimeService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('agent-runtime');
  private upstreams: UpstreamServer[] = [];
  private http: GatewayHttpServer | null = null;

  constructor(@Inject(HUB_CONFIG) private readonly config: HubConfig) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.RUNTIME_CONFIG) {
      this.logger.warn('RUNTIME_CONFIG is unset: no MCP server to serve (set it to a runtime YAML file).');
      return;
    }
    const runtime = loadRuntimeConfig(this.config.RUNTIME_CONFIG);
    const installed = await this.installSkills(runtime);
    const servers = [...runtime.mcp_servers, ...installed.flatMap((skill) => skillServers(skill))];
    this.upstreams = servers.map(
      (server) =>
        new UpstreamServer(server, {
          connectTimeoutMs: 30_000,
          callTimeoutMs: 60_000,
          retryDelayMs: 1_000,
          maxRetryDelayMs: 300_000,
          inheritEnv: process.env.KAZMA_MCP_INHERIT_ENV === '1',
          runtimeEnv: process.env,
        }),
    );
    const gateway = new Gateway(
      this.upstreams,
      {
        environment: {
          production: this.config.NODE_ENV === 'production',
          trustedInProdAllowed: isTrustedInProdAllowed(process.env.KAZMA_MCP_TRUSTED_IN_PROD),
        },
        preApproval: createPreApprovalPolicy(runtime.approvals),
        pins: new FileToolPins(join(runtime.state_dir, 'trust', 'tool-pins.json')),
      },
      installed.flatMap((skill) => skillPrompt(skill)),
    );
    for (const upstream of this.upstreams) {
      const state = await upstream.ensureConnected();
      if (state.status === 'failed') this.logger.warn(`${upstream.config.name}: ${state.reason}`);
      else this.logger.log(`${upstream.config.name}: ${state.status === 'connected' ? state.tools.length : 0} tools`);
    }
    if (runtime.gateway.http) {
      const { host, port, token_env, allowed_hosts } = runtime.gateway.http;
      const token = token_env === undefined ? undefined : process.env[token_env];
      if (token_env !== undefined && (token === undefined || token.length < 16)) {
        // Fail closed: a configured token that is missing would otherwise leave the gateway open.
        throw new RuntimeConfigError(`gateway.http.token_env: ${token_env} must hold a token of 16 characters or more`);
      }
      if (token === undefined && !isLoopback(host)) {
        throw new RuntimeConfigError(
          `gateway.http.host ${host} is reachable from other machines: set gateway.http.token_env, or use 127.0.0.1`,
        );
      }
      const http = await serveGatewayHttp(gateway, host, port, { token, allowedHosts: allowed_hosts });
      this.http = http;
      this.logger.log(`gateway: ${http.url}`);
    }
    if (runtime.gateway.stdio) await gateway.createServer().connect(new StdioServerTransport());
  }

  /** Installs every configured skill, verified offline; a refused one is logged with its reason and skipped. */
  private async installSkills(runtime: RuntimeConfig): Promise<Array<Extract<InstallResult, { ok: true }>>> {
    if (!runtime.skills.length) return [];
    const hub = new HubClient({ baseUrl: runtime.hub ?? this.config.KAZMA_HUB_URL });
    const installer = new SkillInstaller(hub, {
      installDir: join(runtime.state_dir, 'skills'),
      state: new TrustState(join(runtime.state_dir, 'trust')),
      logOrigin: this.config.HUB_LOG_ORIGIN,
      pinnedKeys: runtime.keys,
      kazmaSecret: this.config.KAZMA_SECRET,
    });
    const results: Array<Extract<InstallResult, { ok: true }>> = [];
    for (const spec of runtime.skills) {
      const { author, name, range } = parseSkillSpec(spec);
      const result = await installer.install(author, name, range).catch((err: Error): InstallResult => ({
        ok: false,
        author,
        name,
        reason: 'unreachable',
        message: err.message,
      }));
      if (result.ok) {
        this.logger.log(`installed ${author}/${name}@${result.version}`);
        results.push(result);
      } else {
        this.logger.error(`refused ${spec}: ${result.reason}: ${result.message}`);
      }
    }
    return results;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.http?.close();
    await Promise.all(this.upstreams.map((u) => u.close()));
  }
}
