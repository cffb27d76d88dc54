/**
 * The worker's Prometheus endpoint, when WORKER_METRICS_PORT is set: GET /metrics only, on
 * loopback unless WORKER_METRICS_HOST says otherwise. It exposes counts and latencies, never
 * job contents, and has no other routes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { registerCertifierMetrics } from '@skillhub/certifier';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';

@Injectable()
export class WorkerMetricsServer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(WorkerMetricsServer.name);
  private server: Server | null = null;

  constructor(@Inject(HUB_CONFIG) private readonly config: HubConfig) {}

  async onModuleInit(): Promise<void> {
    const port = this.config.WORKER_METRICS_PORT;
    if (port === undefined) return;
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'skillhub_certifier_worker_' });
    registerCertifierMetrics(registry);
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') return void res.writeHead(404).end();
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
    });
    // A port in use fails the start with its reason, rather than as an uncaught error later.
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.WORKER_METRICS_HOST, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    const { address, port: bound } = server.address() as AddressInfo;
    this.logger.log(`metrics: http://${address}:${bound}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
