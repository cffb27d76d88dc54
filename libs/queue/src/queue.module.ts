import { Module } from '@nestjs/common';
import { JobQueueModule } from './job-queue.module';
import { OutboxRelay } from './outbox-relay.service';

/** The outbox relay, with the producer connection and the job queue it hands jobs to; imported by hub-api. */
@Module({
  imports: [JobQueueModule],
  providers: [OutboxRelay],
  exports: [JobQueueModule, OutboxRelay],
})
export class QueueModule {}
