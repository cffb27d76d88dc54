/**
 * The runtime's life: read the YAML configuration, connect the MCP servers it names,
 * and serve them through the gateway (Streamable HTTP and/or stdio). Skill installation
 * from the hub is the next step of this issue; until then only configured servers run.
 */
import type { Server as HttpServer } from 'node:http';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { createPreApprovalPolicy, isTrustedInProdAllowed } from '@skillhub/gate';
import { loadRuntimeConfig } from './config/runtime-config';
import { Gateway } from './gateway/gateway';
import { serveGatewayHttp } from './gateway/gateway-http';
import { UpstreamServer } from './mcp/upstream-server';

@Injectable()
export class RuntimeService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('agent-runtime');
  private upstreams: UpstreamServer[] = [];
  private http: HttpServer | null = null;

  constructor(@Inject(HUB_CONFIG) private readonly config: HubConfig) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.RUNTIME_CONFIG) {
      this.logger.warn('RUNTIME_CONFIG is unset: no MCP server to serve (set it to a runtime YAML file).');
      return;
    }
    const runtime = loadRuntimeConfig(this.config.RUNTIME_CONFIG);
    this.upstreams = runtime.mcp_servers.map(
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
    const gateway = new Gateway(this.upstreams, {
      environment: {
        production: this.config.NODE_ENV === 'production',
        trustedInProdAllowed: isTrustedInProdAllowed(process.env.KAZMA_MCP_TRUSTED_IN_PROD),
      },
      preApproval: createPreApprovalPolicy(runtime.approvals),
      pinnedHashes: new Map(),
    });
    for (const upstream of this.upstreams) {
      const state = await upstream.ensureConnected();
      if (state.status === 'failed') this.logger.warn(`${upstream.config.name}: ${state.reason}`);
      else this.logger.log(`${upstream.config.name}: ${state.status === 'connected' ? state.tools.length : 0} tools`);
    }
    if (runtime.gateway.http) {
      const http = await serveGatewayHttp(gateway, runtime.gateway.http.host, runtime.gateway.http.port);
      this.http = http;
      this.logger.log(`gateway: ${http.url}`);
    }
    if (runtime.gateway.stdio) await gateway.createServer().connect(new StdioServerTransport());
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise((resolve) => (this.http ? this.http.close(resolve) : resolve(undefined)));
    await Promise.all(this.upstreams.map((u) => u.close()));
  }
}
