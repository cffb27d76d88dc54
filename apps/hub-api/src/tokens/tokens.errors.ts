import { DomainError } from '@skillhub/errors';

export class TokenNotFoundError extends DomainError {
  constructor(id: string) {
    super('not-found', 'TOKEN.NOT_FOUND', `No token ${id} is visible to you.`);
  }
}

export class PublisherRequiredError extends DomainError {
  constructor() {
    super('invalid', 'TOKEN.INVALID', 'Name a namespace or a publisher for the token.', [
      { path: 'namespace', message: 'namespace or publisher is required', severity: 'error' },
    ]);
  }
}
