import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { PublisherKeysController } from './publisher-keys.controller';
import { PublisherKeysService } from './publisher-keys.service';
import { TrustController } from './trust.controller';
import { TrustService } from './trust.service';

@Module({
  imports: [AuthModule],
  controllers: [TrustController, PublisherKeysController],
  providers: [TrustService, PublisherKeysService],
  exports: [TrustService],
})
export class TrustModule {}
