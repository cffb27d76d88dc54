/** The npm and PyPI probes (C8) as configured, each timed into the certifier's metrics. */
import { Inject, Injectable } from '@nestjs/common';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { PackageProber, type ProbeResult } from '@skillhub/package-probe';
import type { PackageRef } from '@skillhub/skill-formats';
import { probeLatency } from './certifier.metrics';

@Injectable()
export class PackageProbes {
  readonly prober: PackageProber;

  constructor(@Inject(HUB_CONFIG) config: HubConfig) {
    this.prober = new PackageProber({
      npmBaseUrl: config.NPM_REGISTRY_URL,
      pypiBaseUrl: config.PYPI_REGISTRY_URL,
      timeoutMs: config.PROBE_TIMEOUT_MS,
      maxAttempts: config.PROBE_MAX_ATTEMPTS,
    });
  }

  async probe(ref: PackageRef): Promise<ProbeResult> {
    const end = probeLatency.startTimer({ registry: ref.registry });
    const result = await this.prober.probe(ref);
    end({ outcome: result.outcome });
    return result;
  }
}
