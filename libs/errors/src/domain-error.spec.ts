import { DomainError } from './domain-error';
import { hasErrors } from './problem';

class ThingNotFoundError extends DomainError {
  constructor(ref: string) {
    super('not-found', 'THING.NOT_FOUND', `No thing ${ref}.`);
  }
}

describe('DomainError', () => {
  it('carries its kind, code and message, and is named after the class thrown', () => {
    const error = new ThingNotFoundError('x');
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ kind: 'not-found', code: 'THING.NOT_FOUND', message: 'No thing x.' });
    expect(error.name).toBe('ThingNotFoundError');
    expect(error.problems).toEqual([]);
    expect(error.details).toEqual({});
  });
});

describe('hasErrors', () => {
  it('counts errors, not warnings', () => {
    expect(hasErrors([{ path: 'a', message: 'm', severity: 'warning' }])).toBe(false);
    expect(
      hasErrors([
        { path: 'a', message: 'm', severity: 'warning' },
        { path: 'b', message: 'm', severity: 'error' },
      ]),
    ).toBe(true);
  });
});
