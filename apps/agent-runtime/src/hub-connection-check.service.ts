import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { RUNTIME_START, type RuntimeStart } from './runtime.service';

const HEALTH_TIMEOUT_MS = 5_000;

/**
 * Start-up report on the hub the runtime installs from: its config's `hub:`, else KAZMA_HUB_URL.
 * A hub that does not answer is a warning, not a stop: what the runtime serves is verified
 * offline, so it keeps serving while the hub is down.
 */
@Injectable()
export class HubConnectionCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('agent-runtime');

  constructor(
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
    @Inject(RUNTIME_START) private readonly early: RuntimeStart,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const hub = this.early.runtime?.hub ?? this.config.KAZMA_HUB_URL;
    try {
      const res = await fetch(new URL('/api/v1/health', hub), { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
      const body = (await res.json().catch(() => ({}))) as { status?: string; version?: string };
      if (!res.ok || body.status !== 'ok') throw new Error(`HTTP ${res.status}`);
      this.logger.log(`connected to Skill Hub ${body.version ?? ''} at ${hub}`);
    } catch (err) {
      this.logger.warn(`the hub at ${hub} does not answer (${(err as Error).message}); serving what is configured`);
    }
  }
}
