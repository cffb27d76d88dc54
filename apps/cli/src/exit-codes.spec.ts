import { HubApiError, HubUnreachableError } from '@skillhub/hub-client';
import { CliError, EXIT, toCliError } from './exit-codes';

const apiError = (status: number, code = 'X.Y') =>
  new HubApiError({
    method: 'GET',
    path: '/api/v1/skills/a/b',
    status,
    problem: { type: 'about:blank', title: 'x', status, detail: 'nope', code },
    retryAfterMs: null,
  });

describe('toCliError', () => {
  it('maps the hub client errors to distinct exit codes', () => {
    expect(toCliError(apiError(404)).exitCode).toBe(EXIT.notFound);
    expect(toCliError(apiError(422)).exitCode).toBe(EXIT.refused);
    expect(toCliError(apiError(403)).exitCode).toBe(EXIT.refused);
    expect(toCliError(apiError(500)).exitCode).toBe(EXIT.other);
    const unreachable = new HubUnreachableError({
      method: 'GET',
      path: '/',
      origin: 'http://127.0.0.1:1',
      attempts: 1,
      reason: 'network error (ECONNREFUSED)',
      cause: null,
    });
    expect(toCliError(unreachable).exitCode).toBe(EXIT.network);
    expect(toCliError(unreachable).hint).toMatch(/KAZMA_HUB_URL/);
  });

  it('says to raise the version when the version is already published, not to fix problems', () => {
    const taken = toCliError(apiError(409, 'SKILL.VERSION_EXISTS'));
    expect(taken.exitCode).toBe(EXIT.refused);
    expect(taken.hint).toMatch(/raise the version/);
    expect(taken.hint).not.toMatch(/Fix the problems/);
    expect(toCliError(apiError(409, 'CERTIFICATE.CONFLICT')).hint).not.toMatch(/version/);
    expect(toCliError(apiError(422)).hint).toMatch(/Fix the problems/);
  });

  it('keeps a CliError and reduces anything else to one line', () => {
    const own = new CliError('bad', EXIT.usage, 'hint');
    expect(toCliError(own)).toBe(own);
    const other = toCliError(new Error('first\nsecond'));
    expect(other.message).toBe('first');
    expect(other.exitCode).toBe(EXIT.other);
  });
});
