import type { ErrorKind } from './domain-error';
import { httpStatusOf, kindOfHttpStatus } from './http-status';

const KINDS: Array<[ErrorKind, number]> = [
  ['invalid', 400],
  ['unauthorized', 401],
  ['forbidden', 403],
  ['not-found', 404],
  ['conflict', 409],
  ['gone', 410],
  ['too-large', 413],
  ['unsupported-media-type', 415],
  ['unprocessable', 422],
  ['rate-limited', 429],
  ['unavailable', 503],
  ['internal', 500],
];

describe('httpStatusOf / kindOfHttpStatus', () => {
  it.each(KINDS)('%s ⇄ %i', (kind, status) => {
    expect(httpStatusOf(kind)).toBe(status);
    expect(kindOfHttpStatus(status)).toBe(kind);
  });

  it('reads a status no kind answers with as the closest kind', () => {
    expect(kindOfHttpStatus(418)).toBe('invalid');
    expect(kindOfHttpStatus(502)).toBe('internal');
    expect(kindOfHttpStatus(200)).toBe('internal');
  });
});
