/**
 * C16's evidence: what a skill would run (its scripts, the shell blocks its instructions tell an
 * agent to run, a Kazma skill's tools) run in the sandbox with honeytokens and traced system calls
 * (libs/detonation). Every program is a child process, bounded in time and memory; nothing runs on
 * the caller's event loop but reading the trace.
 */
import type { Logger } from '@nestjs/common';
import type { Bundle } from '@skillhub/bundle';
import type { DetonationResult } from '@skillhub/certification';
import type { HubConfig } from '@skillhub/config';
import { createDetonator, detonationAvailable, type DetonateOptions, type Detonator } from '@skillhub/detonation';
import type { NormalizedSkill } from '@skillhub/skill-formats';

export class SkillDetonator {
  private readonly detonator: Detonator;

  /** `concurrency`: skills detonated at once by this process (the rest wait their turn). Default 2. */
  constructor(options: DetonateOptions & { concurrency?: number }) {
    this.detonator = createDetonator({ ...options, concurrency: options.concurrency ?? 2 });
  }

  /** Never throws; without a sandbox or strace, every program is listed as not run, with the reason. */
  detonate(bundle: Bundle, skill: NormalizedSkill | null): Promise<DetonationResult> {
    return this.detonator.detonate(bundle, skill);
  }
}

/** The worker's detonator, or null when DETONATION is off; a machine that cannot detonate is said loudly at start. */
export async function skillDetonator(
  config: HubConfig,
  logger: Pick<Logger, 'warn' | 'log'>,
): Promise<SkillDetonator | null> {
  if (!config.DETONATION) {
    logger.warn('DETONATION is off: skills are judged by the static checks alone (C16 records them as not detonated)');
    return null;
  }
  const available = await detonationAvailable();
  if (!available.ok) {
    logger.warn(
      `skills cannot be detonated here (${available.reason}): C16 lists what they would run as not run; install bubblewrap and strace`,
    );
  }
  return new SkillDetonator({
    programTimeoutMs: config.DETONATION_PROGRAM_TIMEOUT_MS,
    totalTimeoutMs: config.DETONATION_TIMEOUT_MS,
    concurrency: config.DETONATION_CONCURRENCY,
  });
}
