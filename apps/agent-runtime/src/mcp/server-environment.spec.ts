import { maskSecrets, serverEnvironment } from './server-environment';

describe('serverEnvironment', () => {
  const runtime = {
    PATH: '/usr/bin',
    HOME: '/home/agent',
    LC_ALL: 'C.UTF-8',
    HTTPS_PROXY: 'http://proxy:3128',
    KAZMA_SECRET: 'do-not-leak',
    SKILLHUB_TOKEN: 'shp_secret',
    AWS_SECRET_ACCESS_KEY: 'aws',
    HUB_ENCRYPTION_KEY: 'ab'.repeat(32),
  };

  it('passes only the allowlist plus the server’s own env', () => {
    expect(serverEnvironment(runtime, { API_BASE: 'https://example.test' })).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/agent',
      LC_ALL: 'C.UTF-8',
      HTTPS_PROXY: 'http://proxy:3128',
      API_BASE: 'https://example.test',
    });
  });

  it('inherits everything only when asked', () => {
    expect(serverEnvironment(runtime, {}, true)).toMatchObject({
      KAZMA_SECRET: 'do-not-leak',
      SKILLHUB_TOKEN: 'shp_secret',
    });
  });
});

describe('maskSecrets', () => {
  it.each([
    [
      'connect ECONNREFUSED https://user:hunter22@example.test/mcp',
      'connect ECONNREFUSED https://***:***@example.test/mcp',
    ],
    ['401: Bearer abcdefghijkl rejected', '401: Bearer *** rejected'],
    ['the token=shp_abcdefghijk failed', 'the token=*** failed'],
  ])('%s', (raw, masked) => {
    expect(maskSecrets(raw)).toBe(masked);
  });

  it('masks the configured secrets wherever they appear', () => {
    expect(maskSecrets('header X-Api-Key: sk-live-123456 was refused', ['sk-live-123456'])).toBe(
      'header X-Api-Key: *** was refused',
    );
  });
});
