import type { Problem } from './problem';

/**
 * Base of every error a library throws on purpose. `code` is stable (clients may
 * switch on it); the HTTP layer maps codes to statuses in one place.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly problems: readonly Problem[] = [],
    /** Extra fields for the problem body (never secrets, never driver messages). */
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}
