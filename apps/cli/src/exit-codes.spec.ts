import { HubApiError, HubUnreachableError } from '@skillhub/hub-client';
import { CliError, EXIT, toCliError } from './exit-codes';

const apiError = (status: number) =>
  new HubApiError({
    method: 'GET',
    path: '/api/v1/skills/a/b',
    status,
    problem: { type: 'about:blank', title: 'x', status, detail: 'nope', code: 'X.Y' },
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

  it('keeps a CliError and reduces anything else to one line', () => {
    const own = new CliError('bad', EXIT.usage, 'hint');
    expect(toCliError(own)).toBe(own);
    const other = toCliError(new Error('first\nsecond'));
    expect(other.message).toBe('first');
    expect(other.exitCode).toBe(EXIT.other);
  });
});
