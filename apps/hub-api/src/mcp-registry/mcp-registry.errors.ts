import { DomainError } from '@skillhub/errors';

/**
 * The MCP Registry answers a name or version it does not hold with `{"error": "Server not found"}`;
 * this problem document carries that member too, so registry clients and this hub's read the same.
 */
export class ServerNotFoundError extends DomainError {
  constructor(error: 'Server not found' | 'Server version not found', what: string) {
    super('not-found', 'RECORD.NOT_FOUND', `${error}: no certified MCP server ${what} on this hub.`, [], { error });
  }
}

export class InvalidServerCursorError extends DomainError {
  constructor() {
    const message = 'cursor must be a metadata.nextCursor this hub returned';
    super('invalid', 'VALIDATION', 'The request has invalid fields.', [{ path: 'cursor', message, severity: 'error' }]);
  }
}
