/**
 * The process's SkillJudge, built once: the code grammars load asynchronously before the first
 * job, the live-tools recorder, the detonator and the bundle limits come from the configuration.
 */
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DEFAULT_BUNDLE_LIMITS } from '@skillhub/bundle';
import type { CertificationVerdict, PopularName } from '@skillhub/certification';
import { loadCodeAnalyzer } from '@skillhub/code-analysis';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { SkillRepository } from '@skillhub/database';
import { liveToolsRecorder } from './live-tools.recorder';
import { skillDetonator } from './skill-detonator';
import { PackageProbes } from './package-probes.service';
import { SkillJudge, type JudgeRequest } from './skill-judge';

/** Names of this many most-downloaded skills are what C10 compares against. */
const POPULAR_SKILLS = 500;

@Injectable()
export class SkillJudgeService implements OnModuleInit {
  private readonly logger = new Logger('SkillJudge');
  private judgeOf: SkillJudge | null = null;

  constructor(
    private readonly probes: PackageProbes,
    private readonly skills: SkillRepository,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    this.judgeOf = new SkillJudge({
      analyzer: await loadCodeAnalyzer(),
      prober: this.probes.prober,
      probe: (ref) => this.probes.probe(ref),
      liveTools: await liveToolsRecorder(this.config, this.logger),
      internalAddresses: this.config.LIVE_PROBE_ALLOW_ADDRESSES,
      detonator: await skillDetonator(this.config, this.logger),
      limits: {
        ...DEFAULT_BUNDLE_LIMITS,
        maxCompressedBytes: this.config.BUNDLE_MAX_COMPRESSED_BYTES,
        maxUncompressedBytes: this.config.BUNDLE_MAX_UNCOMPRESSED_BYTES,
        maxEntries: this.config.BUNDLE_MAX_ENTRIES,
        maxCompressionRatio: this.config.BUNDLE_MAX_COMPRESSION_RATIO,
      },
    });
  }

  judge(request: JudgeRequest): Promise<CertificationVerdict> {
    if (!this.judgeOf) throw new Error('SkillJudgeService used before its module was initialised');
    return this.judgeOf.judge(request);
  }

  /** What C10 compares a name with: the most downloaded skills of other owners (of all when `ownerId` is null). */
  popularNames(ownerId: string | null): Promise<PopularName[]> {
    return this.skills.popular(ownerId, POPULAR_SKILLS);
  }
}
