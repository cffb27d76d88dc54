/**
 * The `skillhub` CLI as a publisher runs it: a child process against a real hub with a
 * certifier-worker: validate → sign → publish --wait → search → info, plus its exit codes
 * and that the token never appears in its output.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uniqueName } from '@skillhub/testing';
import { startTestHub, type TestHub } from './support/test-hub';

const ROOT = join(__dirname, '..');
const CLI = join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js');
const KAZMA_SECRET = 'cli-e2e-kazma-secret';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: env.HOME ?? tmpdir(), NO_COLOR: '1', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('skillhub CLI', () => {
  let hub: TestHub;
  let token: string;
  let work: string;
  let dir: string;
  let env: Record<string, string>;
  const ns = uniqueName('cli');
  const outputs: Run[] = [];
  const run = async (args: string[], extra: Record<string, string> = {}) => {
    const result = await cli(args, { ...env, ...extra });
    outputs.push(result);
    return result;
  };

  beforeAll(async () => {
    if (!existsSync(CLI)) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
    hub = await startTestHub({ worker: true, env: { KAZMA_SECRET, PUBLISH_RATE_LIMIT_PER_MINUTE: '1000' } });
    token = await hub.token(ns);
    work = mkdtempSync(join(tmpdir(), 'skillhub-cli-e2e-'));
    dir = join(work, 'weather');
    cpSync(join(ROOT, 'examples', 'weather'), dir, { recursive: true });
    const manifest = join(dir, 'skill_manifest.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('author: Acme Labs', `author: ${ns}`));
    env = { KAZMA_HUB_URL: hub.baseUrl, SKILLHUB_TOKEN: token, HOME: work };
  });

  afterAll(async () => {
    await hub?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("walks the publisher's journey: validate, sign, publish --wait, search, info", async () => {
    const validate = await run(['validate', dir, '--json']);
    expect(validate.code).toBe(0);
    expect(JSON.parse(validate.stdout)).toMatchObject({ valid: true, id: `${ns}/weather@1.0.0` });

    const sign = await run(['sign', dir, '--json'], { KAZMA_SECRET });
    expect(sign.code).toBe(0);
    expect(JSON.parse(sign.stdout).kazma.entryPoint).toBe('weather_skill.py');

    const check = await run(['check-certification', dir, '--json'], { KAZMA_SECRET });
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ local: true, packageProbes: 'not-run' });

    const publish = await run(['publish', dir, '--wait', '--timeout', '60', '--json']);
    expect(publish.stderr).toContain('certification:');
    expect(publish.code).toBe(0);
    const published = JSON.parse(publish.stdout);
    expect(published.result.id).toBe(`kazma-hub://${ns}/weather@1.0.0`);
    expect(published.certification.status).toBe('certified');

    const search = await run(['search', 'weather', '--author', ns, '--json']);
    expect(search.code).toBe(0);
    expect(JSON.parse(search.stdout).items.map((s: { name: string }) => s.name)).toContain('weather');

    const info = await run(['info', `${ns}/weather@1.0.0`, '--json']);
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ version: '1.0.0', certified: true });

    const table = await run(['info', `${ns}/weather`]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('VERSION');

    const installDir = join(work, 'installed');
    const install = await run([
      'install',
      `${ns}/weather@^1.0.0`,
      '--dir',
      installDir,
      '--log-origin',
      hub.config.HUB_LOG_ORIGIN,
      '--json',
    ]);
    expect(install.stderr).toBe('');
    expect(install.code).toBe(0);
    expect(JSON.parse(install.stdout)).toMatchObject({ ok: true, version: '1.0.0' });
    expect(readFileSync(join(installDir, 'skills', ns, 'weather', 'weather_skill.py'), 'utf8')).toContain(
      'class WeatherSkill',
    );
    const refused = await run([
      'install',
      `${ns}/weather@^2.0.0`,
      '--dir',
      installDir,
      '--log-origin',
      hub.config.HUB_LOG_ORIGIN,
    ]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('uncertified');

    const skillDir = join(installDir, 'skills', ns, 'weather');
    expect((await run(['verify', skillDir, '--dir', installDir])).code).toBe(0);
    const listed = await run(['list', '--dir', installDir, '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ skill: `${ns}/weather`, version: '1.0.0' })]);
    writeFileSync(join(skillDir, 'weather_skill.py'), 'import os\nos.system("evil")\n');
    const tampered = await run(['verify', skillDir, '--dir', installDir]);
    expect(tampered.code).toBe(4);
    expect(tampered.stderr).toContain('tampered');
  }, 120_000);

  it('exits 3 for a skill that does not exist', async () => {
    const result = await run(['info', `${ns}/no-such-skill`]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^error: .*\nhint: /);
  });

  it('exits 5 when the hub cannot be reached', async () => {
    const result = await run(['stats'], { KAZMA_HUB_URL: `http://127.0.0.1:${await closedPort()}` });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('hint:');
  });

  it('exits 2 for a usage error', async () => {
    expect((await run(['info', 'not-a-ref'])).code).toBe(2);
  });

  it('never prints the token', () => {
    expect(outputs.length).toBeGreaterThan(5);
    for (const output of outputs) {
      expect(output.stdout).not.toContain(token);
      expect(output.stderr).not.toContain(token);
    }
  });
});
