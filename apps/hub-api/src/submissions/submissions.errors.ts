import { DomainError } from '@skillhub/errors';

export class SubmissionNotFoundError extends DomainError {
  constructor(id: string) {
    super('not-found', 'SUBMISSION.NOT_FOUND', `No submission ${id}.`);
  }
}

export class SubmissionExpiredError extends DomainError {
  constructor(id: string) {
    super('gone', 'SUBMISSION.GONE', `Submission ${id} expired unclaimed; submit it again.`);
  }
}

export class SubmissionClaimedError extends DomainError {
  constructor(id: string) {
    super('conflict', 'SUBMISSION.CONFLICT', `Submission ${id} was already claimed.`);
  }
}

export class SubmitRateLimitedError extends DomainError {
  constructor(retryAfterSeconds: number) {
    super(
      'rate-limited',
      'SUBMISSION.RATE_LIMITED',
      'Too many unauthenticated submissions from this address; publish with a token instead.',
      [],
      {
        retry_after: retryAfterSeconds,
      },
    );
  }
}
