import { Module } from '@nestjs/common';
import { QueueModule } from '@skillhub/queue';
import { AuthModule } from '../auth/auth.module';
import { UploadsModule } from '../common/uploads.module';
import { WriteRateLimiter } from '../common/write-rate-limiter';
import { DownloadCounter } from './download-counter.service';
import { SkillInspector } from './skill-inspector.service';
import { SkillPublisher } from './skill-publisher.service';
import { SkillsController } from './skills.controller';
import { SkillsQueryService } from './skills-query.service';

@Module({
  imports: [AuthModule, QueueModule, UploadsModule],
  controllers: [SkillsController],
  providers: [SkillPublisher, SkillInspector, SkillsQueryService, WriteRateLimiter, DownloadCounter],
  exports: [SkillPublisher, SkillInspector, SkillsQueryService, DownloadCounter],
})
export class SkillsModule {}
