import { type DynamicModule, Module } from '@nestjs/common';
import { DatabaseModule } from '@skillhub/database';
import { JobQueueModule, VerdictEventsModule } from '@skillhub/queue';
import { HubTrustModule } from '@skillhub/trust';
import { CertificationProcessor } from './certification.processor';
import { CertificationRecorder } from './certification-recorder.service';
import { CertifySkillService } from './certify-skill.service';
import { PackageProbes } from './package-probes.service';
import { PendingSweeper } from './pending-sweeper.service';
import { PolicyUpgrade } from './policy-upgrade.service';
import { Reprober } from './reprober.service';
import { SkillJudgeService } from './skill-judge.service';
import { SubmissionJudge } from './submission-judge.service';

/**
 * Certification: what judges a version or a submission and records the verdict (signing and
 * appending with libs/trust), the daily re-probe, and the queue's watchdog; with `consume`, also
 * the queue consumer (certifier-worker, and hub-api on the embedded database, where both must
 * share one process).
 */
@Module({})
export class CertifierModule {
  static forRoot(options: { consume: boolean }): DynamicModule {
    return {
      module: CertifierModule,
      // VerdictEventsModule is global: both processes import this module, and hub-api's writers use it too.
      imports: [DatabaseModule, HubTrustModule, JobQueueModule, VerdictEventsModule],
      providers: [
        PackageProbes,
        SkillJudgeService,
        CertificationRecorder,
        CertifySkillService,
        SubmissionJudge,
        Reprober,
        PendingSweeper,
        PolicyUpgrade,
        ...(options.consume ? [CertificationProcessor] : []),
      ],
    };
  }
}
