import { DomainError } from '@skillhub/errors';

export class AuthRequiredError extends DomainError {
  constructor() {
    super('unauthorized', 'AUTH.REQUIRED', 'This route needs a token: send "Authorization: Bearer <token>".');
  }
}

export class InvalidTokenError extends DomainError {
  constructor(reason: 'unknown' | 'expired' | 'revoked') {
    super('unauthorized', 'AUTH.INVALID', `The token is ${reason === 'unknown' ? 'not known to this hub' : reason}.`);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super('forbidden', 'AUTH.FORBIDDEN', message);
  }
}
