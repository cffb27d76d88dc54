/**
 * Metrics the certifier records wherever it runs. hub-api registers them in its /metrics
 * registry (on the embedded database it certifies in-process); a certifier-worker serves
 * them on its own metrics port when WORKER_METRICS_PORT is set.
 */
import { Counter, Histogram, type Registry } from 'prom-client';

export const probeLatency = new Histogram({
  name: 'skillhub_package_probe_duration_seconds',
  help: 'Package probe latency (retries included) by registry and outcome.',
  labelNames: ['registry', 'outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [],
});

export const certificationOutcomes = new Counter({
  name: 'skillhub_certification_outcomes_total',
  help: 'Verdicts recorded by this process, by status and level.',
  labelNames: ['status', 'level'] as const,
  registers: [],
});

/** Adds the certifier's metrics to a process's registry (hub-api's, or the worker's own). */
export function registerCertifierMetrics(registry: Registry): void {
  registry.registerMetric(probeLatency);
  registry.registerMetric(certificationOutcomes);
}
