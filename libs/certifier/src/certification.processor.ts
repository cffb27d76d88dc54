/**
 * The consumer of the `certification` queue, on whichever transport the job queue uses (BullMQ,
 * or this process on the embedded default while Redis is unreachable). Thin: decode the job,
 * call the service, and decide: a missing subject is discarded (nothing will ever make it
 * certifiable); anything thrown is retried with backoff. Closing the queue waits for in-flight
 * jobs; a process killed mid-job leaves its job to be run again (BullMQ hands a stalled job to
 * another worker; an in-process job's row is still in the outbox), and the pending
 * certification is judged again.
 */
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  CERTIFICATION_QUEUE,
  CERTIFY_JOB,
  CERTIFY_SUBMISSION_JOB,
  DiscardJobError,
  JOB_QUEUE,
  REPROBE_JOB,
  type CertifyJobPayload,
  type CertifySubmissionJobPayload,
  type JobQueue,
  type JobRun,
} from '@skillhub/queue';
import { CertifySkillService } from './certify-skill.service';
import { Reprober } from './reprober.service';
import { SubmissionJudge } from './submission-judge.service';

@Injectable()
export class CertificationProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly certifier: CertifySkillService,
    private readonly submissions: SubmissionJudge,
    private readonly reprober: Reprober,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
  ) {}

  onApplicationBootstrap(): void {
    this.jobs.consume(CERTIFICATION_QUEUE, (job) => this.process(job));
  }

  async process(job: JobRun): Promise<string> {
    const outcome =
      job.name === CERTIFY_JOB
        ? await this.certifier.certify(job.data as CertifyJobPayload)
        : job.name === CERTIFY_SUBMISSION_JOB
          ? await this.submissions.judgeSubmission(job.data as CertifySubmissionJobPayload)
          : job.name === REPROBE_JOB
            ? JSON.stringify(await this.reprober.reprobe())
            : null;
    if (outcome === null) throw new DiscardJobError(`unknown job ${job.name}`);
    if (outcome === 'missing') throw new DiscardJobError(`job ${job.id}: what it names does not exist`);
    return outcome;
  }
}
