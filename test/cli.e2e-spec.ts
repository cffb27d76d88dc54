/**
 * The `skillhub` CLI as a publisher runs it: the workspace package's bin (what `npm ci` links at
 * node_modules/.bin/skillhub) as a child process against a real hub with a certifier-worker:
 * validate → sign → publish --wait → search → info, its exit codes and hints, that the token
 * never appears in its output, and that nothing a publisher wrote reaches the terminal raw.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uniqueName } from '@skillhub/testing';
import { startTestHub, type TestHub } from './support/test-hub';

const ROOT = join(__dirname, '..');
const BUILT = join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js');
/** The bin npm links for the workspace package apps/cli. */
const CLI = join(ROOT, 'node_modules', '.bin', 'skillhub');
/** Raw terminal controls in a text: C0 (but line feed), DEL, C1, and the bidi embeddings, overrides and isolates. */
const rawControls = (text: string): string[] =>
  [...text].filter((c) => {
    const n = c.codePointAt(0)!;
    return (
      (n < 0x20 && n !== 0x0a) ||
      (n >= 0x7f && n <= 0x9f) ||
      (n >= 0x202a && n <= 0x202e) ||
      (n >= 0x2066 && n <= 0x2069)
    );
  });
const KAZMA_SECRET = 'cli-e2e-kazma-secret';
/** The secret of the host `skillhub install` installs for (Kazma's HMAC is symmetric: it re-signs). */
const HOST_SECRET = 'cli-e2e-kazma-host-secret';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(CLI, args, {
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
    if (!existsSync(BUILT)) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
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
    const install = await run(
      ['install', `${ns}/weather@^1.0.0`, '--dir', installDir, '--log-origin', hub.config.HUB_LOG_ORIGIN, '--json'],
      { KAZMA_SECRET: HOST_SECRET },
    );
    expect(install.stderr).toBe('');
    expect(install.code).toBe(0);
    expect(JSON.parse(install.stdout)).toMatchObject({ ok: true, version: '1.0.0', warnings: [] });
    // Where a Kazma host's SkillLoader looks: <home>/skills/<name>, no author level.
    const skillDir = join(installDir, 'skills', 'weather');
    expect(readFileSync(join(skillDir, 'weather_skill.py'), 'utf8')).toContain('class WeatherSkill');
    const refused = await run([
      'install',
      `${ns}/weather@^2.0.0`,
      '--dir',
      installDir,
      '--log-origin',
      hub.config.HUB_LOG_ORIGIN,
    ]);
    // As npm's "no matching version": not found, naming the versions there are.
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`error: no version of ${ns}/weather matches ^2.0.0; it has 1.0.0`);

    const verified = await run(['verify', skillDir, '--dir', installDir, '--json'], { KAZMA_SECRET: HOST_SECRET });
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({
      statement: { skill: `${ns}/weather`, version: '1.0.0' },
      revocations: { source: 'hub' },
      warnings: [],
    });
    const listed = await run(['list', '--dir', installDir, '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([{ skill: `${ns}/weather`, version: '1.0.0', path: skillDir }]);
    const copy = join(work, 'copy', 'weather');
    cpSync(skillDir, copy, { recursive: true });
    writeFileSync(join(copy, 'weather_skill.py'), 'import os\nos.system("evil")\n');
    const tampered = await run(['verify', copy, '--dir', installDir]);
    expect(tampered.code).toBe(4);
    expect(tampered.stderr).toContain('tampered');
  }, 120_000);

  it('is the workspace package bin: executable, on npx, with its version', async () => {
    expect(statSync(realpathSync(CLI)).mode & 0o111).not.toBe(0);
    const { version } = JSON.parse(readFileSync(join(ROOT, 'apps', 'cli', 'package.json'), 'utf8'));
    expect((await run(['--version'])).stdout).toBe(`${version}\n`);
    const npx = execFileSync('npx', ['--no-install', 'skillhub', '--version'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: work, npm_config_update_notifier: 'false' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(npx).toBe(`${version}\n`);
  });

  it('says to raise the version when other bytes are published under a taken one', async () => {
    const changed = join(work, 'changed', 'weather');
    cpSync(dir, changed, { recursive: true });
    writeFileSync(join(changed, 'README.md'), 'Other bytes, same version.\n');
    const conflict = await run(['publish', changed]);
    expect(conflict.code).toBe(4);
    expect(conflict.stderr).toMatch(/^error: .*409 SKILL\.VERSION_EXISTS/m);
    expect(conflict.stderr).toMatch(/^hint: .*raise the version/m);
    expect(conflict.stderr).not.toContain('Fix the problems');
  });

  it('shows a version’s certification and findings by skill reference, as well as by submission', async () => {
    const byVersion = await run(['status', `${ns}/weather@1.0.0`, '--json']);
    expect(byVersion.code).toBe(0);
    expect(JSON.parse(byVersion.stdout)).toMatchObject({
      skill_id: `kazma-hub://${ns}/weather@1.0.0`,
      status: 'certified',
      requirements_met: expect.any(Object),
    });
    const listed = await run(['status', `${ns}/weather`]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^skill: +kazma-hub:\/\/.*\/weather@1\.0\.0$/m);
    expect(listed.stdout).toMatch(/^certification: +certified \(level \w+\)$/m);
    expect(listed.stdout).toContain('REQUIREMENT');
    expect((await run(['status', `${ns}/no-such-skill`])).code).toBe(3);
    expect((await run(['status', 'not a ref'])).code).toBe(2);
  });

  it('escapes what a hostile publisher wrote, in every output and on the web page', async () => {
    const ESC = '\x1b';
    const hostile =
      `Moved ${ESC}[2J${ESC}[H${ESC}[32mCERTIFIED SAFE${ESC}[0m ` +
      `${ESC}]8;;https://evil.example${ESC}\\docs${ESC}]8;;${ESC}\\ ${ESC}]0;owned\x07 \u202Eexe.txt`;
    const skill = join(work, 'hostile', 'weather-news');
    cpSync(dir, skill, { recursive: true });
    const manifest = join(skill, 'skill_manifest.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/^name: .*$/m, 'name: weather-news'));
    expect((await run(['publish', skill])).code).toBe(0);
    // The hub refuses hidden text in a manifest; a lifecycle message and a token's name are stored as written.
    expect((await run(['deprecate', `${ns}/weather-news@1.0.0`, '--message', hostile, '--yes'])).code).toBe(0);
    const named = await run(['tokens', 'create', '--namespace', ns, '--name', hostile.slice(0, 100)], {
      SKILLHUB_TOKEN: await hub.token(ns, ['publish', 'tokens']),
    });
    const described = join(work, 'hostile', 'described');
    cpSync(skill, described, { recursive: true });
    const describedManifest = join(described, 'skill_manifest.yaml');
    writeFileSync(
      describedManifest,
      readFileSync(describedManifest, 'utf8').replace(/^description: .*$/m, `description: ${JSON.stringify(hostile)}`),
    );
    const outputs = [
      named,
      await run(['info', `${ns}/weather-news@1.0.0`]),
      await run(['info', `${ns}/weather-news@1.0.0`, '--json']),
      await run(['tokens', 'list'], { SKILLHUB_TOKEN: await hub.token(ns, ['publish', 'tokens']) }),
      await run(['validate', described]),
      await run(['publish', described]),
    ];
    for (const output of outputs) {
      expect(rawControls(output.stdout)).toEqual([]);
      expect(rawControls(output.stderr)).toEqual([]);
    }
    const [, info, json, tokens, validate, refused] = outputs;
    const shown = '\\u{001B}[2J\\u{001B}[H\\u{001B}[32mCERTIFIED SAFE\\u{001B}[0m';
    expect(info!.stdout).toContain(shown);
    expect(info!.stdout).toContain('\\u{001B}]8;;https://evil.example');
    expect(info!.stdout).toContain('\\u{001B}]0;owned\\u{0007} \\u{202E}exe.txt');
    expect(tokens!.stdout).toContain(shown);
    // Scripts get the very string back from --json.
    expect(JSON.parse(json!.stdout).status_message).toBe(hostile);
    expect(validate!.code).toBe(4);
    expect(refused!.code).toBe(4);

    const page = await (await fetch(`${hub.baseUrl}/skills/${ns}/weather-news`)).text();
    expect(page).toContain('\\u{202E}exe.txt');
    expect(page).toContain('\\u{001B}[2J');
    expect(rawControls(page)).toEqual([]);
  }, 120_000);

  it('shows the badge, the certified list and the stats, in tables and as JSON', async () => {
    const badge = await run(['badge', `${ns}/weather`, '--json']);
    expect(badge.code).toBe(0);
    const embed = JSON.parse(badge.stdout);
    expect(embed).toMatchObject({
      status: 'certified',
      badge_url: `${hub.baseUrl}/api/v1/skills/${ns}/weather/badge.svg`,
    });
    expect(embed.markdown).toBe(
      `[![Skill Hub: ${ns}/weather](${embed.badge_url})](${hub.baseUrl}/api/v1/skills/${ns}/weather)`,
    );
    const svg = await fetch(embed.badge_url);
    expect(await svg.text()).toContain('certified');
    const human = await run(['badge', `${ns}/weather`]);
    expect(human.stdout).toMatch(/^status: +certified/m);
    expect(human.stdout).toContain('markdown:');

    const certified = await run(['certified', '--json']);
    expect(JSON.parse(certified.stdout).items.map((s: { id: string }) => s.id)).toContain(
      `kazma-hub://${ns}/weather@1.0.0`,
    );

    const stats = await run(['stats', '--json']);
    expect(JSON.parse(stats.stdout)).toMatchObject({
      total_skills: expect.any(Number),
      certified_count: expect.any(Number),
    });
    expect(JSON.parse(stats.stdout).certified_count).toBeGreaterThanOrEqual(1);
    expect((await run(['stats'])).stdout).toMatch(/^skills: +\d+\ncertified: +\d+/);
  });

  it("submits a manifest as Kazma's hub submit does, and reads its status", async () => {
    const submit = await run(['submit', dir, '--json']);
    expect(submit.code).toBe(0);
    const submitted = JSON.parse(submit.stdout);
    expect(submitted).toMatchObject({ status: 'quarantined', skill_id: `kazma-hub://${ns}/weather@1.0.0` });
    const status = await run(['status', submitted.submission_id, '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      submission_id: submitted.submission_id,
      status: 'quarantined',
      certification: { status: expect.any(String) },
    });
    expect((await run(['status', '00000000-0000-4000-8000-000000000000'])).code).toBe(3);
  });

  it('deprecates, revokes and yanks a version, each only with a yes; the badge follows', async () => {
    // No terminal to ask: without --yes nothing changes, and the error is JSON under --json.
    const unconfirmed = await run(['deprecate', `${ns}/weather@1.0.0`, '--message', 'use 2.x', '--json']);
    expect(unconfirmed.code).toBe(2);
    expect(JSON.parse(unconfirmed.stdout)).toEqual({
      error: {
        code: 2,
        summary: `Deprecate ${ns}/weather@1.0.0? needs a yes`,
        detail: 'Pass --yes to confirm: there is no terminal to ask.',
      },
    });
    expect(JSON.parse((await run(['info', `${ns}/weather@1.0.0`, '--json'])).stdout).status).toBe('active');

    const deprecate = await run(['deprecate', `${ns}/weather@1.0.0`, '--message', 'use 2.x', '--json', '--yes']);
    expect(deprecate.code).toBe(0);
    expect(JSON.parse(deprecate.stdout)).toMatchObject({ status: 'deprecated', status_message: 'use 2.x' });

    expect((await run(['revoke', `${ns}/weather@1.0.0`, '--yes'])).code).toBe(2); // --reason is required
    expect((await run(['revoke', `${ns}/weather@1.0.0`, '--reason', 'leaked credentials'])).code).toBe(2); // no yes
    const revoke = await run(['revoke', `${ns}/weather@1.0.0`, '--reason', 'leaked credentials', '--json', '-y']);
    expect(revoke.code).toBe(0);
    expect(JSON.parse(revoke.stdout)).toMatchObject({ kind: 'revocation' });
    expect(JSON.parse((await run(['badge', `${ns}/weather@1.0.0`, '--json'])).stdout).status).toBe('revoked');
    const installDir = join(work, 'installed');
    const verify = await run(['verify', join(installDir, 'skills', 'weather'), '--dir', installDir]);
    expect(verify.code).toBe(4);
    expect(verify.stderr).toContain(`refused: revoked: ${ns}/weather@1.0.0 was revoked`);

    const yank = await run(['yank', `${ns}/weather@1.0.0`, '--json', '--yes']);
    expect(yank.code).toBe(0);
    expect(JSON.parse(yank.stdout).status).toBe('yanked');
    expect((await run(['yank', `${ns}/weather`, '--yes'])).code).toBe(2); // a version is required
    expect((await run(['yank', `${ns}/weather@1.0.0`, '--yes'], { SKILLHUB_TOKEN: '' })).code).toBe(1); // no token, as npm's
  });

  it('creates, lists and revokes tokens; a new secret is shown once and never listed', async () => {
    const admin = await hub.token(ns, ['publish', 'manage', 'tokens']);
    const create = await run(['tokens', 'create', '--namespace', ns, '--name', 'ci', '--json'], {
      SKILLHUB_TOKEN: admin,
    });
    expect(create.code).toBe(0);
    const created = JSON.parse(create.stdout);
    expect(created).toMatchObject({ name: 'ci', scopes: ['publish'], namespace: ns, token: expect.any(String) });
    const list = await run(['tokens', 'list'], { SKILLHUB_TOKEN: admin });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(created.id);
    expect(list.stdout).not.toContain(created.token);
    expect(list.stdout).not.toContain(admin);
    const revoke = await run(['tokens', 'revoke', created.id, '--json'], { SKILLHUB_TOKEN: admin });
    expect(JSON.parse(revoke.stdout).revoked_at).not.toBeNull();
    const refused = await run(['publish', dir], { SKILLHUB_TOKEN: created.token });
    expect(refused.code).toBe(4);
  });

  it('signs with a publisher key; once the key is registered, only signed versions are certified', async () => {
    const ns2 = uniqueName('clikeys');
    const home = join(work, 'keys-home');
    const keyed = { HOME: home, SKILLHUB_TOKEN: await hub.token(ns2), KAZMA_SECRET };
    const skill = join(work, 'keyed', 'weather');
    cpSync(join(ROOT, 'examples', 'weather'), skill, { recursive: true });
    const manifest = join(skill, 'skill_manifest.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('author: Acme Labs', `author: ${ns2}`));

    const generate = await run(['keys', 'generate', '--json'], keyed);
    expect(generate.code).toBe(0);
    const key = JSON.parse(generate.stdout);
    expect(key.private_key).toBe(join(home, '.config', 'skillhub', 'keys', 'default.key'));
    expect(statSync(key.private_key).mode & 0o777).toBe(0o600);
    expect(generate.stdout).not.toContain('PRIVATE KEY');

    const register = await run(['keys', 'register', key.public_key, '--namespace', ns2, '--name', 'laptop'], keyed);
    expect(register.code).toBe(0);
    const listed = JSON.parse((await run(['keys', 'list', '--namespace', ns2, '--json'], keyed)).stdout);
    expect(listed).toMatchObject({ signatures_required: true, keys: [{ key_id: key.key_id, name: 'laptop' }] });

    // Signed with the Kazma secret only: the hub refuses it now that the namespace has a key, and
    // the dry run says so before it is published.
    expect((await run(['sign', skill], keyed)).code).toBe(0);
    const dry = await run(['publish', skill, '--dry-run', '--json'], keyed);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout).warnings).toContainEqual(
      expect.stringMatching(new RegExp(`^namespace ${ns2} registered publisher keys, .*\\(C14\\.unsigned\\)`)),
    );
    const unsigned = await run(['publish', skill, '--wait', '--timeout', '60'], keyed);
    expect(unsigned.code).toBe(4);
    expect(unsigned.stderr).toContain('was not certified');

    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('version: 1.0.0', 'version: 1.0.1'));
    const sign = await run(['sign', skill, '--key', key.private_key, '--json'], keyed);
    expect(sign.code).toBe(0);
    expect(JSON.parse(sign.stdout)).toMatchObject({
      kazma: { entryPoint: 'weather_skill.py' },
      publisher: { keyId: key.key_id },
    });
    const check = await run(['check-certification', skill, '--json'], keyed);
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout).report.checks.C14).toBe('pass');
    const publish = await run(['publish', skill, '--wait', '--timeout', '60', '--json'], keyed);
    expect(publish.code).toBe(0);
    expect(JSON.parse(publish.stdout).certification.status).toBe('certified');

    writeFileSync(join(skill, 'notes.txt'), 'added after signing\n');
    const tampered = await run(['check-certification', skill], keyed);
    expect(tampered.code).toBe(4);
    expect(tampered.stdout).toContain('C14.files-differ');
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
