import { fillPlaceholders, maskSecrets, serverEnvironment } from './server-environment';

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

describe('fillPlaceholders', () => {
  const secrets: Record<string, string> = { GITHUB_TOKEN: 'ghp_secret', REGION: 'eu' };
  const secret = (name: string): string | undefined => secrets[name];

  it('fills every ${NAME} from the secrets, inside values too, and leaves other text alone', () => {
    expect(
      fillPlaceholders(
        { TOKEN: '${GITHUB_TOKEN}', AUTH: 'Bearer ${GITHUB_TOKEN} in ${REGION}', PLAIN: '$HOME and $1' },
        secret,
      ),
    ).toEqual({
      ok: true,
      env: { TOKEN: 'ghp_secret', AUTH: 'Bearer ghp_secret in eu', PLAIN: '$HOME and $1' },
      secrets: ['ghp_secret', 'eu'],
    });
  });

  it('names each secret it has no value for, once', () => {
    expect(fillPlaceholders({ A: '${MISSING}', B: '${MISSING}-${ALSO}', C: '${REGION}' }, secret)).toEqual({
      ok: false,
      missing: ['MISSING', 'ALSO'],
    });
  });
});
