import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';

const HEALTH_TIMEOUT_MS = 5_000;

/** Start-up check: KAZMA_HUB_URL must name a hub that answers its health route. */
@Injectable()
export class HubConnectionCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('agent-runtime');

  constructor(@Inject(HUB_CONFIG) private readonly config: HubConfig) {}

  async onApplicationBootstrap(): Promise<void> {
    const hub = this.config.KAZMA_HUB_URL;
    const url = new URL('/api/v1/health', hub);
    const res = await fetch(url, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) }).catch((err: Error) => {
      throw new Error(`the hub at ${hub} is unreachable: ${err.message}`);
    });
    const body = (await res.json().catch(() => ({}))) as { status?: string; version?: string };
    if (!res.ok || body.status !== 'ok') throw new Error(`the hub at ${hub} is not healthy (HTTP ${res.status})`);
    this.logger.log(`connected to Skill Hub ${body.version ?? ''} at ${hub}`);
  }
}
