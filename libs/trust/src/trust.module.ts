import { Global, Module } from '@nestjs/common';
import { DatabaseModule } from '@skillhub/database';
import { RevocationsService } from './revocations.service';
import { SigningKeyService } from './signing-key.service';
import { TransparencyLog } from './transparency-log.service';

/**
 * The hub's trust infrastructure, for every module of the process: the signing key, the
 * transparency log and revocations. The certifier signs and appends with them; hub-api
 * publishes the keys, the log's proofs and the signed revocation list.
 */
@Global()
@Module({
  imports: [DatabaseModule],
  providers: [SigningKeyService, TransparencyLog, RevocationsService],
  exports: [SigningKeyService, TransparencyLog, RevocationsService],
})
export class HubTrustModule {}
