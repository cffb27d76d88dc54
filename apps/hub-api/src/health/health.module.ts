import { Module } from '@nestjs/common';
import { QueueModule } from '@skillhub/queue';
import { HealthController } from './health.controller';

@Module({ imports: [QueueModule], controllers: [HealthController] })
export class HealthModule {}
