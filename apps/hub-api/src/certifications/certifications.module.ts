import { Module } from '@nestjs/common';
import { CertificationStatusService } from './certification-status.service';
import { CertificationsController } from './certifications.controller';

@Module({
  controllers: [CertificationsController],
  providers: [CertificationStatusService],
  exports: [CertificationStatusService],
})
export class CertificationsModule {}
