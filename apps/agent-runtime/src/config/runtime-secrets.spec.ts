import { readSecrets } from './runtime-secrets';

describe('readSecrets', () => {
  const files: Record<string, string> = { '/run/secrets/token': 'from-a-file\n', '/run/secrets/empty': '\n' };
  const readFile = (path: string): string => {
    if (!Object.hasOwn(files, path)) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
    return files[path]!;
  };

  it('reads each secret from the variable or file the config names, and nothing else', () => {
    const secrets = readSecrets(
      {
        FROM_ENV: { env: 'HOST_TOKEN' },
        FROM_FILE: { file: '/run/secrets/token' },
        UNSET: { env: 'NOT_SET' },
        EMPTY: { file: '/run/secrets/empty' },
        GONE: { file: '/run/secrets/gone' },
      },
      { HOST_TOKEN: 'from-the-env', FROM_ENV: 'the same name is never read', UNSET: 'nor this' },
      readFile,
    );

    expect(Object.fromEntries(secrets)).toEqual({
      FROM_ENV: { ok: true, value: 'from-the-env' },
      FROM_FILE: { ok: true, value: 'from-a-file' },
      UNSET: { ok: false, problem: 'the environment variable NOT_SET is not set' },
      EMPTY: { ok: false, problem: '/run/secrets/empty is empty' },
      GONE: { ok: false, problem: '/run/secrets/gone cannot be read (ENOENT)' },
    });
  });
});
