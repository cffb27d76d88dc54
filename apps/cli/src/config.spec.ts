import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configPath, DEFAULT_HUB_URL, normaliseHubUrl, resolveHubUrl, resolveToken, storeToken } from './config';
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

  it('normalises a pasted hub URL: trailing slashes and an API suffix dropped, a path prefix kept', () => {
    for (const pasted of [
      'https://hub.example',
      'https://hub.example/',
      ' https://hub.example/api/v1/ ',
      'https://hub.example/API/v1',
    ]) {
      expect(normaliseHubUrl(pasted)).toBe('https://hub.example');
    }
    expect(normaliseHubUrl('https://example.com/hub/api/v1')).toBe('https://example.com/hub');
    expect(normaliseHubUrl('https://example.com/apis')).toBe('https://example.com/apis');
    expect(resolveHubUrl('http://flag/api/v1/', env)).toBe('http://flag');
  });

  it("stores login tokens per hub at mode 0600, keeps the file's other fields, and forgets one on logout", () => {
    writeConfig({ hub_url: 'http://hub.example' }, 0o600);
    storeToken(env, 'http://a.example/api/v1', 'shp_a');
    storeToken(env, 'http://b.example/', 'shp_b');
    const path = configPath(env);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
      hub_url: 'http://hub.example',
      hubs: { 'http://a.example': { token: 'shp_a' }, 'http://b.example': { token: 'shp_b' } },
    });
    expect(resolveToken(env, 'http://a.example/')).toBe('shp_a');
    expect(resolveToken(env, 'http://c.example')).toBeUndefined();
    storeToken(env, 'http://a.example', null);
    expect(resolveToken(env, 'http://a.example')).toBeUndefined();
    expect(resolveToken(env, 'http://b.example')).toBe('shp_b');
  });

  it('creates the config folder private when login writes the first token', () => {
    storeToken(env, 'http://a.example', 'shp_a');
    expect(statSync(join(configPath(env), '..')).mode & 0o777).toBe(0o700);
    expect(statSync(configPath(env)).mode & 0o777).toBe(0o600);
  });
});
