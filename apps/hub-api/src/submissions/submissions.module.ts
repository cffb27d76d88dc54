import { Module } from '@nestjs/common';
import { QueueModule } from '@skillhub/queue';
import { AuthModule } from '../auth/auth.module';
import { UploadsModule } from '../common/uploads.module';
import { SkillsModule } from '../skills/skills.module';
import { SubmissionsController } from './submissions.controller';
import { SubmissionsService } from './submissions.service';

@Module({
  imports: [AuthModule, QueueModule, SkillsModule, UploadsModule],
  controllers: [SubmissionsController],
  providers: [SubmissionsService],
})
export class SubmissionsModule {}
