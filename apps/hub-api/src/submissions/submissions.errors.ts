import { DomainError } from '@skillhub/errors';

export class SubmissionNotFoundError extends DomainError {
  constructor(id: string) {
    super('SUBMISSION.NOT_FOUND', `No submission ${id}.`);
  }
}

export class SubmissionExpiredError extends DomainError {
  constructor(id: string) {
    super('SUBMISSION.GONE', `Submission ${id} expired unclaimed; submit it again.`);
  }
}

export class SubmissionClaimedError extends DomainError {
  constructor(id: string) {
    super('SUBMISSION.CONFLICT', `Submission ${id} was already claimed.`);
  }
}

export class SubmitRateLimitedError extends DomainError {
  constructor(retryAfterSeconds: number) {
    super(
      'SUBMISSION.RATE_LIMITED',
      'Too many unauthenticated submissions from this address; publish with a token instead.',
      [],
      {
        retry_after: retryAfterSeconds,
      },
    );
  }
}
