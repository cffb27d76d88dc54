import { statusForCode } from './error-status';

describe('statusForCode', () => {
  it.each([
    ['SKILL.NOT_FOUND', 404],
    ['TOKEN.NOT_FOUND', 404],
    ['SKILL.VERSION_EXISTS', 409],
    ['SUBMISSION.CONFLICT', 409],
    ['BUNDLE.TOO_LARGE', 413],
    ['BUNDLE.UNSUPPORTED_MEDIA_TYPE', 415],
    ['SKILL.INVALID_MANIFEST', 422],
    ['SUBMISSION.RATE_LIMITED', 429],
    ['SUBMISSION.GONE', 410],
    ['AUTH.REQUIRED', 401],
    ['AUTH.INVALID', 401],
    ['AUTH.FORBIDDEN', 403],
    ['NAMESPACE.FORBIDDEN', 403],
    ['BUNDLE.INVALID', 400],
    ['VALIDATION', 400],
    ['REQUEST.TOO_DEEP', 400],
    ['REQUEST.MALFORMED_JSON', 400],
    ['RECORD.NOT_FOUND', 404],
    ['REQUEST.BODY_TOO_LARGE', 413],
    ['REQUEST.BUSY', 503],
    ['SOMETHING.UNEXPECTED', 500],
  ])('%s → %i', (code, status) => {
    expect(statusForCode(code)).toBe(status);
  });
});
