/**
 * Prometheus metrics of hub-api: HTTP latency by route (the route pattern, never the raw
 * path, so skill names cannot blow up the label set), the certification queue's depth,
 * certifications by status, the outbox, and the certifier's own (probe latency by
 * registry, verdicts) when it runs in this process. Gauges are read when scraped.
 */
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { registerCertifierMetrics } from '@skillhub/certifier';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { CertificationRepository, PendingWorkRepository, registerDatabaseMetrics } from '@skillhub/database';
import { CERTIFICATION_QUEUE, CLOSE_GRACE_MS, PRODUCER_REDIS } from '@skillhub/queue';
import { withTimeout } from '@skillhub/retry';
import { goneClientRequests } from '../common/gone-clients';

const SCRAPE_TIMEOUT_MS = 1_000;

@Injectable()
export class MetricsService implements OnModuleDestroy {
  readonly registry = new Registry();
  private readonly queue: Queue;
  readonly httpDuration = new Histogram({
    name: 'skillhub_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor(
    certifications: CertificationRepository,
    work: PendingWorkRepository,
    @Inject(PRODUCER_REDIS) redis: Redis,
    @Inject(HUB_CONFIG) config: HubConfig,
  ) {
    collectDefaultMetrics({ register: this.registry, prefix: 'skillhub_hub_api_' });
    registerCertifierMetrics(this.registry);
    registerDatabaseMetrics(this.registry);
    this.registry.registerMetric(goneClientRequests);
    this.queue = new Queue(CERTIFICATION_QUEUE, { connection: redis, prefix: config.REDIS_PREFIX });
    this.queue.on('error', () => undefined);
    const queue = this.queue;
    new Gauge({
      name: 'skillhub_certification_queue_jobs',
      help: 'Jobs in the certification queue by state (absent while Redis is unreachable).',
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        const counts = await withTimeout(
          queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'prioritized'),
          SCRAPE_TIMEOUT_MS,
        ).catch(() => null);
        for (const [state, n] of Object.entries(counts ?? {})) this.set({ state }, n);
      },
    });
    new Gauge({
      name: 'skillhub_certifications',
      help: 'Certifications by status and level (current policy).',
      labelNames: ['status', 'level'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const r of await certifications.countsByStatus()) this.set({ status: r.status, level: r.level }, r.n);
      },
    });
    new Gauge({
      name: 'skillhub_outbox_pending',
      help: 'Jobs written but not yet handed to the queue.',
      registers: [this.registry],
      async collect() {
        this.set(await work.undelivered());
      },
    });
  }

  /**
   * BullMQ's close can wait for ever on a connection that came back after Redis restarted (the
   * queue only reads depths here), so it is given CLOSE_GRACE_MS and then disconnected.
   */
  async onModuleDestroy(): Promise<void> {
    await withTimeout(this.queue.close(), CLOSE_GRACE_MS).catch(() => this.queue.disconnect());
  }
}
