import { type DynamicModule, Module } from '@nestjs/common';
import { JobQueueModule } from '@skillhub/queue';
import { CertificationProcessor } from './certification.processor';
import { CertifySkillService } from './certify-skill.service';
import { PendingSweeper } from './pending-sweeper.service';
import { PolicyUpgrade } from './policy-upgrade.service';
import { RevocationsService } from './revocations.service';
import { SigningKeyService } from './signing-key.service';
import { TransparencyLog } from './transparency-log.service';

/**
 * Certification: the service that judges a version, the signing key, the transparency log
 * and the queue's watchdog; with `consume`, also the queue consumer (certifier-worker, and
 * hub-api on the embedded database, where both must share one process).
 */
@Module({})
export class CertifierModule {
  static forRoot(options: { consume: boolean }): DynamicModule {
    return {
      module: CertifierModule,
      global: true,
      imports: [JobQueueModule],
      providers: [
        SigningKeyService,
        TransparencyLog,
        RevocationsService,
        CertifySkillService,
        PendingSweeper,
        PolicyUpgrade,
        ...(options.consume ? [CertificationProcessor] : []),
      ],
      exports: [SigningKeyService, TransparencyLog, RevocationsService, CertifySkillService, PolicyUpgrade],
    };
  }
}
