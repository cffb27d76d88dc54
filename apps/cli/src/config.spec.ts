import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configPath, DEFAULT_HUB_URL, resolveHubUrl, resolveToken } from './config';
import { EXIT } from './exit-codes';

describe('config', () => {
  let home: string;
  let env: NodeJS.ProcessEnv;
  const writeConfig = (content: object, mode: number) => {
    const path = configPath(env);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, JSON.stringify(content));
    chmodSync(path, mode);
  };
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'skillhub-home-'));
    env = { HOME: home };
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('prefers SKILLHUB_TOKEN, then a 0600 config file', () => {
    expect(resolveToken(env)).toBeUndefined();
    writeConfig({ token: 'shp_file', hub_url: 'http://hub.example' }, 0o600);
    expect(configPath(env)).toBe(join(home, '.config', 'skillhub', 'config.json'));
    expect(resolveToken(env)).toBe('shp_file');
    expect(resolveToken({ ...env, SKILLHUB_TOKEN: 'shp_env' })).toBe('shp_env');
    expect(resolveHubUrl(undefined, env)).toBe('http://hub.example');
    expect(resolveHubUrl(undefined, { ...env, KAZMA_HUB_URL: 'http://k' })).toBe('http://k');
    expect(resolveHubUrl('http://flag', { ...env, KAZMA_HUB_URL: 'http://k' })).toBe('http://flag');
  });

  it('refuses a config file others may read, without quoting the token', () => {
    writeConfig({ token: 'shp_secret_value' }, 0o644);
    let caught: unknown;
    try {
      resolveToken(env);
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ exitCode: EXIT.usage, hint: expect.stringContaining('chmod 600') });
    expect(String((caught as Error).message)).not.toContain('shp_secret_value');
  });

  it('defaults the hub URL', () => {
    expect(resolveHubUrl(undefined, env)).toBe(DEFAULT_HUB_URL);
  });
});
