/**
 * The npm-like journeys of `skillhub` (issue 16), as a person runs them against a real hub with a
 * certifier-worker, through the CLI's own `run(argv)`: login → init → publish --dry-run → publish →
 * install (a bare name) → the lockfile → a new version certified → outdated → update → uninstall;
 * and install --frozen on a clean folder, which reproduces the lock exactly and refuses a changed
 * entry. The Kazma secret is the namespace's (the hub has none of its own), so check-certification's
 * warning about it is part of the journey.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { uniqueName } from '@skillhub/testing';
import { run as skillhub } from '../apps/cli/src/main';
import { startTestHub, type TestHub } from './support/test-hub';

const KAZMA_SECRET = 'journey-kazma-secret-0123456789';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('skillhub journeys (npm habits)', () => {
  let hub: TestHub;
  let token: string;
  let work: string;
  let env: Record<string, string>;
  const ns = uniqueName('journey');
  const ref = `${ns}/forecast`;

  const cli = async (args: string[], extra: Record<string, string> = {}, stdin?: string): Promise<Run> => {
    const out = { stdout: '', stderr: '' };
    const code = await skillhub(args, {
      env: { ...env, ...extra },
      stdin: stdin === undefined ? undefined : Readable.from([stdin]),
      stdout: { write: (t: string) => (out.stdout += t) },
      stderr: { write: (t: string) => (out.stderr += t) },
    });
    return { code, ...out };
  };
  const json = async (args: string[], extra: Record<string, string> = {}) => {
    const result = await cli([...args, '--json'], extra);
    if (result.code !== 0) throw new Error(`skillhub ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
    try {
      return JSON.parse(result.stdout);
    } catch {
      throw new Error(`skillhub ${args.join(' ')} printed no JSON: ${result.stdout}`);
    }
  };
  const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

  beforeAll(async () => {
    hub = await startTestHub({ worker: true, env: { PUBLISH_RATE_LIMIT_PER_MINUTE: '1000' } });
    token = await hub.token(ns, ['publish', 'manage']);
    work = mkdtempSync(join(tmpdir(), 'skillhub-journey-'));
    // No SKILLHUB_TOKEN: the token comes from `login`, like a person's.
    env = { KAZMA_HUB_URL: hub.baseUrl, HOME: work, NO_COLOR: '1' };
  });

  afterAll(async () => {
    await hub?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('login → init → publish --dry-run → publish → install → lock → new version → outdated → update → uninstall', async () => {
    // login: the token from stdin, checked with whoami, stored 0600 under the hub's normalised URL
    // (a pasted …/api/v1/ suffix and trailing slash are dropped).
    const refusedLogin = await cli(['login', '--token-stdin'], {}, 'shp_not-a-token\n');
    expect(refusedLogin.code).toBe(4);
    expect(refusedLogin.stderr).toMatch(/does not accept this token/);
    const login = await cli(['login', '--token-stdin', '--hub-url', `${hub.baseUrl}/api/v1/`], {}, `${token}\n`);
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`logged in to ${hub.baseUrl} `);
    expect(login.stdout).not.toContain(token);
    const config = join(work, '.config', 'skillhub', 'config.json');
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(readJson(config).hubs[hub.baseUrl].token).toBe(token);
    expect(await json(['whoami'])).toMatchObject({
      kind: 'token',
      scopes: ['publish', 'manage'],
      bound_namespace: ns,
      namespaces: [{ slug: ns, kazma_secret: false }],
      expires_at: expect.any(String),
    });

    // init, in each format, is accepted by validate.
    const dir = join(work, 'forecast');
    const init = await json(['init', dir, '--author', ns]);
    expect(init).toMatchObject({ format: 'kazma', files: ['skill_manifest.yaml', 'forecast.py', 'README.md'] });
    expect(await json(['validate', dir])).toMatchObject({ valid: true, id: `${ref}@0.1.0` });
    for (const format of ['swarmkit', 'agent-skill']) {
      const other = join(work, `other-${format}`);
      expect((await cli(['init', other, '--format', format])).code).toBe(0);
      expect(await json(['validate', other, '--namespace', ns, '--version', '1.0.0'])).toMatchObject({ valid: true });
    }
    expect((await cli(['init', dir])).code).toBe(2); // never over files

    // Signed with a secret the hub does not hold: the local check passes, and says the hub would not.
    expect((await cli(['sign', dir], { KAZMA_SECRET })).code).toBe(0);
    const unverifiable = await cli(['check-certification', dir], { KAZMA_SECRET });
    expect(unverifiable.code).toBe(0);
    expect(unverifiable.stderr).toContain(`warning: the hub holds no Kazma secret for ${ns}`);
    expect(unverifiable.stderr).toContain(`skillhub secret set --namespace ${ns}`);
    expect(await json(['secret', 'set', '--namespace', ns], { KAZMA_SECRET })).toEqual({
      namespace: ns,
      kazma_secret: true,
    });
    const verifiable = await cli(['check-certification', dir], { KAZMA_SECRET });
    expect(verifiable.code).toBe(0);
    expect(verifiable.stderr).not.toContain('warning');

    // publish --dry-run says what would be published, and uploads nothing.
    const dry = await json(['publish', dir, '--dry-run'], { KAZMA_SECRET });
    expect(dry).toMatchObject({ dry_run: true, id: `${ref}@0.1.0`, format: 'kazma', warnings: [] });
    expect(dry.local.status).toBe('certified');
    expect((await cli(['info', ref])).code).toBe(3);

    const published = await json(['publish', dir, '--wait', '--timeout', '30']);
    expect(published.certification.status).toBe('certified');
    expect(published.result.bundle_sha256).toBe(dry.bundle_sha256);

    // install with a bare name (no author, no version): the one author's latest certified version, recorded in the lock.
    const project = join(work, 'project');
    mkdirSync(project);
    const lockPath = join(project, 'skillhub-lock.json');
    const home = join(project, '.skillhub');
    // The lock goes beside the install folder: in the project, for .skillhub.
    const where = ['--dir', home, '--log-origin', hub.config.HUB_LOG_ORIGIN];
    const installed = await json(['install', 'forecast', ...where], { KAZMA_SECRET });
    expect(installed).toMatchObject({ ok: true, version: '0.1.0', warnings: [] });
    const lock = readJson(lockPath);
    expect(lock).toEqual({
      lockfile_version: 1,
      hub: hub.baseUrl,
      log_origin: hub.config.HUB_LOG_ORIGIN,
      skills: {
        [ref]: {
          range: '^0.1.0',
          version: '0.1.0',
          bundle_sha256: dry.bundle_sha256,
          certificate_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          log_index: expect.any(Number),
        },
      },
    });
    const certificate = (await hub.http.get(`/api/v1/skills/${ref}/versions/0.1.0/certificate`)).body;
    expect(lock.skills[ref].log_index).toBe(certificate.log_index);
    expect(await json(['outdated', '--dir', home])).toEqual([]);

    // A new version, certified: outdated sees it within the range, update installs it.
    const manifest = join(dir, 'skill_manifest.yaml');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('version: 0.1.0', 'version: 0.1.1'));
    expect((await cli(['sign', dir], { KAZMA_SECRET })).code).toBe(0);
    expect((await json(['publish', dir, '--wait', '--timeout', '30'])).certification.status).toBe('certified');
    // Something outdated exits 1, as npm's outdated does.
    const outdated = await cli(['outdated', '--dir', home, '--json']);
    expect(outdated.code).toBe(1);
    expect(JSON.parse(outdated.stdout)).toEqual([
      { skill: ref, range: '^0.1.0', current: '0.1.0', wanted: '0.1.1', latest: '0.1.1' },
    ]);
    const outdatedTable = await cli(['outdated', '--dir', home]);
    expect(outdatedTable.code).toBe(1);
    expect(outdatedTable.stdout).toMatch(new RegExp(`^${ref} +0\\.1\\.0 +0\\.1\\.1 +0\\.1\\.1 +\\^0\\.1\\.0$`, 'm'));
    expect(await json(['update', ...where], { KAZMA_SECRET })).toEqual([{ skill: ref, from: '0.1.0', to: '0.1.1' }]);
    expect(readJson(lockPath).skills[ref]).toMatchObject({ range: '^0.1.0', version: '0.1.1' });
    expect(await json(['list', '--dir', home])).toEqual([
      { skill: ref, version: '0.1.1', path: join(home, 'skills', 'forecast') },
    ]);
    expect(await json(['update', ...where])).toEqual([]);

    // install --frozen in a clean folder, from the lock alone: the same versions, the lock unchanged.
    const clean = join(work, 'clean');
    mkdirSync(clean);
    const lockText = readFileSync(lockPath, 'utf8');
    writeFileSync(join(clean, 'skillhub-lock.json'), lockText);
    const cleanWhere = ['--dir', join(clean, '.skillhub')];
    expect(await json(['install', '--frozen', ...cleanWhere], { KAZMA_SECRET })).toMatchObject({
      frozen: true,
      installed: [{ skill: ref, version: '0.1.1' }],
    });
    expect(readFileSync(join(clean, 'skillhub-lock.json'), 'utf8')).toBe(lockText);
    expect(
      (
        await json(['verify', join(clean, '.skillhub', 'skills', 'forecast'), '--dir', join(clean, '.skillhub')], {
          KAZMA_SECRET,
        })
      ).statement,
    ).toMatchObject({ skill: ref, version: '0.1.1' });

    // A changed entry is refused, named, and nothing of it is written.
    const tampered = join(work, 'tampered');
    mkdirSync(tampered);
    const changed = JSON.parse(lockText);
    changed.skills[ref].certificate_sha256 = '0'.repeat(64);
    writeFileSync(join(tampered, 'skillhub-lock.json'), JSON.stringify(changed));
    const refused = await cli([
      'install',
      '--frozen',
      '--dir',
      join(tampered, '.skillhub'),
      '--lockfile',
      join(tampered, 'skillhub-lock.json'),
    ]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^error: .*skillhub-lock\\.json: ${ref} changed: certificate_sha256 is [0-9a-f]{64} on the hub, 0{64} in the lock`,
        'm',
      ),
    );
    expect(existsSync(join(tampered, '.skillhub', 'skills', 'forecast'))).toBe(false);

    // uninstall removes the folder and the lock entry.
    expect(await json(['uninstall', ref, '--dir', home])).toEqual([
      { skill: ref, path: join(home, 'skills', 'forecast') },
    ]);
    expect(existsSync(join(home, 'skills', 'forecast'))).toBe(false);
    expect(readJson(lockPath).skills).toEqual({});
    expect((await cli(['uninstall', ref, '--dir', home])).code).toBe(3);
  }, 60_000);

  it('suggests near names for a mistyped skill, and refuses to pack a folder that is no skill', async () => {
    const typo = await cli([
      'install',
      `${ns}/forcast`,
      '--dir',
      join(work, 'typo'),
      '--lockfile',
      join(work, 'typo.json'),
    ]);
    expect(typo.code).toBe(3);
    expect(typo.stderr).toMatch(new RegExp(`^hint: Did you mean ${ref}\\?$`, 'm'));
    const info = await cli(['info', `${ns}/forcast`]);
    expect(info.code).toBe(3);
    expect(info.stderr).toContain(`Did you mean ${ref}?`);
    expect(existsSync(join(work, 'typo.json'))).toBe(false);

    const notSkill = join(work, 'libs');
    mkdirSync(notSkill);
    writeFileSync(join(notSkill, 'index.ts'), 'export {};\n');
    for (const command of [
      ['pack', notSkill, '-o', join(work, 'libs.tar.gz')],
      ['publish', notSkill],
    ]) {
      const refused = await cli(command);
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain('is not a skill folder');
      expect(refused.stderr).toContain('expected skill_manifest.yaml (Kazma), SKILL.md (Agent Skill)');
      expect(refused.stderr).toContain('Found: index.ts');
    }
    expect(existsSync(join(work, 'libs.tar.gz'))).toBe(false);
  });

  it('GET /api/v1/whoami answers who a token is, the operator included, and 401 without one', async () => {
    const none = await hub.http.get('/api/v1/whoami');
    expect(none.status).toBe(401);
    expect(none.headers['content-type']).toContain('application/problem+json');
    expect(none.body).toMatchObject({ status: 401, code: 'AUTH.REQUIRED' });
    const unknown = await hub.http.get('/api/v1/whoami').set('authorization', 'Bearer shp_unknown');
    expect(unknown.body).toMatchObject({ status: 401, code: 'AUTH.INVALID' });
    const admin = await hub.http.get('/api/v1/whoami').set('authorization', `Bearer ${hub.adminToken}`);
    expect(admin.body).toEqual({
      kind: 'admin',
      publisher: null,
      token_id: null,
      token_name: null,
      scopes: ['publish', 'claim', 'manage', 'tokens'],
      bound_namespace: null,
      namespaces: [],
      expires_at: null,
    });
    // An unbound publisher token lists every namespace of its publisher.
    const other = uniqueName('journey-other');
    const bound = await hub.token(other);
    const publisher = (await hub.http.get('/api/v1/whoami').set('authorization', `Bearer ${bound}`)).body.publisher;
    const created = await hub.http
      .post('/api/v1/tokens')
      .set('authorization', `Bearer ${hub.adminToken}`)
      .send({ publisher, scopes: ['publish', 'claim'], name: 'laptop' });
    const wide = await hub.http.get('/api/v1/whoami').set('authorization', `Bearer ${created.body.token}`);
    expect(wide.body).toMatchObject({
      kind: 'token',
      publisher,
      token_id: created.body.id,
      token_name: 'laptop',
      bound_namespace: null,
      namespaces: [{ slug: other, kazma_secret: false }],
    });
  });

  it('logout forgets the token for this hub, and a loose config file is refused', async () => {
    expect(await json(['logout'])).toEqual({ hub: hub.baseUrl, revoked: null });
    const whoami = await cli(['whoami']);
    expect(whoami.code).toBe(1); // as npm's ENEEDAUTH
    expect(whoami.stderr).toMatch(/^hint: Run skillhub login/m);
    const config = join(work, '.config', 'skillhub', 'config.json');
    expect(readJson(config).hubs).toEqual({});
    expect((await cli(['login', '--token-stdin'], {}, token)).code).toBe(0);
    chmodSync(config, 0o644);
    expect((await cli(['whoami'])).stderr).toContain('chmod 600');
    chmodSync(config, 0o600);
    // --revoke revokes it on the hub too: the token no longer works anywhere.
    expect((await json(['logout', '--revoke'])).revoked).toEqual(expect.any(String));
    expect((await cli(['whoami'], { SKILLHUB_TOKEN: token })).code).toBe(4);
  });
});
