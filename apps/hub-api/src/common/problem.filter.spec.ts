import { NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { EntityNotFoundError, QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { BundleInvalidError, BundleTooLargeError } from '@skillhub/bundle';
import { DomainError, type ErrorKind } from '@skillhub/errors';
import { InvalidToolNameError } from '@skillhub/gate';
import { BadSignatureError, NotCanonicalJsonError } from '@skillhub/signing';
import { AuthRequiredError } from '../auth/auth.errors';
import { InvalidManifestError, SkillVersionExistsError } from '../skills/skills.errors';
import { PoolBusyError } from './worker-pool';
import { RateLimitedError } from './write-rate-limiter';
import { errorResponse } from './problem.filter';

describe('errorResponse: one status per kind of error', () => {
  it.each<[ErrorKind, number, string]>([
    ['invalid', 400, 'Bad request'],
    ['unauthorized', 401, 'Unauthorized'],
    ['forbidden', 403, 'Forbidden'],
    ['not-found', 404, 'Not found'],
    ['conflict', 409, 'Conflict'],
    ['gone', 410, 'Gone'],
    ['too-large', 413, 'Payload too large'],
    ['unsupported-media-type', 415, 'Unsupported media type'],
    ['unprocessable', 422, 'Unprocessable entity'],
    ['rate-limited', 429, 'Too many requests'],
    ['unavailable', 503, 'Service unavailable'],
    ['internal', 500, 'Internal server error'],
  ])('%s → %i %s, whatever the code is called', (kind, status, title) => {
    const { problem } = errorResponse(new DomainError(kind, 'ANY.THING', 'what happened'));
    expect(problem).toMatchObject({ status, title, code: 'ANY.THING', detail: 'what happened' });
  });

  it("answers the libraries' errors by what they mean, not 500 for a code it does not recognise", () => {
    const status = (error: unknown) => errorResponse(error).problem.status;
    expect(status(new NotCanonicalJsonError('NaN has no JSON spelling', '$.a'))).toBe(400);
    expect(status(new BadSignatureError('the signature does not verify'))).toBe(400);
    expect(status(new InvalidToolNameError('invalid server name', 'server'))).toBe(400);
    expect(status(new BundleInvalidError([]))).toBe(400);
    expect(status(new BundleTooLargeError('too big', 'maxCompressedBytes', 10))).toBe(413);
    expect(status(new InvalidManifestError([]))).toBe(422);
    expect(status(new SkillVersionExistsError('acme/x@1.0.0', 'ab'))).toBe(409);
  });

  it('writes the problem document: a type from the code, every problem, the extra fields', () => {
    const problems = [{ path: 'a', message: 'm', severity: 'error' as const }];
    const { problem } = errorResponse(new DomainError('invalid', 'SKILL.BAD_THING', 'bad', problems, { extra: 1 }));
    expect(problem).toEqual({
      type: 'https://skillhub.dev/problems/skill-bad-thing',
      title: 'Bad request',
      status: 400,
      detail: 'bad',
      code: 'SKILL.BAD_THING',
      errors: problems,
      extra: 1,
    });
  });

  it('says when to retry a rate-limited or busy request, and how to authenticate', () => {
    expect(errorResponse(new RateLimitedError('publishes', 7)).headers).toEqual({ 'Retry-After': '7' });
    expect(errorResponse(new PoolBusyError(2)).headers).toEqual({ 'Retry-After': '2' });
    expect(errorResponse(new AuthRequiredError()).headers).toEqual({
      'WWW-Authenticate': 'Bearer realm="skill-hub"',
    });
    expect(errorResponse(new DomainError('invalid', 'X.Y', 'no')).headers).toEqual({});
  });

  it('answers anything else with an opaque 500 that echoes nothing, and logs it', () => {
    const response = errorResponse(new Error('connection string postgres://user:secret@db'));
    expect(response.problem).toEqual({
      type: 'about:blank',
      title: 'Internal server error',
      status: 500,
      detail: 'The hub failed to handle this request; it has been logged.',
      code: 'INTERNAL',
    });
    expect(JSON.stringify(response.problem)).not.toContain('secret');
    expect(response.log).toEqual({ level: 'error', message: 'failed' });
    expect(errorResponse(new DomainError('internal', 'LOG.CORRUPT', 'x')).log?.level).toBe('error');
    expect(errorResponse(new DomainError('not-found', 'X.NOT_FOUND', 'x')).log).toBeNull();
  });

  it("maps the other layers' refusals as the domain errors they mean", () => {
    const refused = errorResponse(new QueryFailedError('SELECT', [], Object.assign(new Error('x'), { code: '22003' })));
    expect(refused.problem).toMatchObject({ status: 400, code: 'REQUEST.INVALID' });
    expect(refused.log).toEqual({ level: 'warn', message: 'the database refused a request value' });
    const otherDriverError = errorResponse(
      new QueryFailedError('SELECT', [], Object.assign(new Error('x'), { code: '42P01' })),
    );
    expect(otherDriverError.problem).toMatchObject({ status: 500, code: 'INTERNAL' });

    expect(errorResponse(new EntityNotFoundError('Skill', {})).problem).toMatchObject({
      status: 404,
      code: 'RECORD.NOT_FOUND',
    });
    expect(errorResponse(new PayloadTooLargeException('File too large')).problem).toMatchObject({
      status: 413,
      code: 'REQUEST.BODY_TOO_LARGE',
      errors: [{ path: 'body', message: 'File too large', severity: 'error' }],
    });
    expect(errorResponse(new NotFoundException('Cannot GET /nowhere')).problem).toMatchObject({
      status: 404,
      code: 'HTTP.404',
      detail: 'Cannot GET /nowhere',
    });
  });

  it('answers a database that cannot serve now with 503 and Retry-After, never 500, and names no driver text', () => {
    const driver = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});
    const cases: Array<[unknown, string]> = [
      [driver('timeout exceeded when trying to connect'), '1'],
      [driver('Connection terminated unexpectedly'), '5'],
      [driver('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), '5'],
      [new QueryFailedError('SELECT', [], driver('terminating connection due to administrator command', '57P01')), '5'],
      [new QueryFailedError('SELECT', [], driver('the database system is starting up', '57P03')), '5'],
      [new QueryFailedError('INSERT', [], driver('could not extend file: No space left on device', '53100')), '30'],
      [new QueryFailedError('SELECT', [], driver('sorry, too many clients already', '53300')), '1'],
      [new QueryFailedError('UPDATE', [], driver('could not serialize access', '40001')), '1'],
      [new QueryRunnerAlreadyReleasedError(), '5'],
    ];
    for (const [error, retryAfter] of cases) {
      const response = errorResponse(error);
      expect(response.problem).toMatchObject({ status: 503, code: 'DATABASE.UNAVAILABLE' });
      expect(response.headers).toEqual({ 'Retry-After': retryAfter });
      expect(response.log?.level).toBe('warn');
      expect(JSON.stringify(response.problem)).not.toMatch(/ECONNREFUSED|administrator|5432|serialize/);
    }
    // A statement the database refuses for what it is stays the hub's bug.
    expect(errorResponse(new QueryFailedError('SELECT', [], driver('syntax error', '42601'))).problem.status).toBe(500);
  });
});
