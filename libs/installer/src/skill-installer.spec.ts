import { mkdtempSync, readFileSync, rmSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { kazmaChecksum, kazmaSignature, verifyKazmaSignature } from '@skillhub/signing';
import { agentSkillBundle, kazmaBundle, swarmkitBundle } from '@skillhub/testing';
import { CERTIFICATE_FILE, INSTALL_RECORD_FILE, KAZMA_INSTALL_META, type InstallRecord } from './install-record';
import { SkillInstaller, type InstallResult } from './skill-installer';
import { InMemoryHub, LOG_ORIGIN } from './testing/in-memory-hub';
import { TrustState } from './trust-state';

const NAMESPACE_SECRET = 'the-namespace-kazma-secret';
const LOCAL_SECRET = 'this-host-kazma-secret';
const CODE = 'from helper import greet\n\nclass WeatherSkill:\n    def run(self, city):\n        return greet(city)\n';

describe('SkillInstaller', () => {
  let dir: string;
  let hub: InMemoryHub;
  const installer = (kazmaSecret?: string) =>
    new SkillInstaller(hub, {
      installDir: join(dir, 'skills'),
      state: new TrustState(join(dir, 'trust')),
      logOrigin: LOG_ORIGIN,
      pinnedKeys: [],
      kazmaSecret,
    });
  const ok = (result: InstallResult) => {
    if (!result.ok) throw new Error(`refused: ${result.reason}: ${result.message}`);
    return result;
  };
  const weather = (author = 'acme') =>
    kazmaBundle({
      name: 'weather',
      author,
      code: CODE,
      sign: { secret: NAMESPACE_SECRET },
      extraFiles: [{ path: 'helper.py', content: 'def greet(city):\n    return city\n' }],
    });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skill-installer-'));
    hub = new InMemoryHub();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('installs a Kazma skill in skills/<name>, where Kazma loads it, re-signed with the local secret', async () => {
    const statement = hub.publish('acme', weather());
    const result = ok(await installer(LOCAL_SECRET).install('acme', 'weather', '^1.0.0'));
    const path = join(dir, 'skills', 'weather');
    expect(result).toMatchObject({ version: '1.0.0', path, statement, warnings: [] });

    const manifest = readFileSync(join(path, 'skill_manifest.yaml'), 'utf8');
    const { checksum, signature } = parse(manifest) as { checksum: string; signature: string };
    expect(checksum).toBe(kazmaChecksum(Buffer.from(CODE)));
    const local = { entryPointBytes: readFileSync(join(path, 'weather_skill.py')), checksum, signature };
    expect(verifyKazmaSignature({ ...local, secrets: [LOCAL_SECRET] }).status).toBe('verified');
    expect(verifyKazmaSignature({ ...local, secrets: [NAMESPACE_SECRET] }).status).toBe('bad-signature');

    // Only the signature line differs from the certified manifest (the checksum is the same file's).
    const record = JSON.parse(readFileSync(join(path, INSTALL_RECORD_FILE), 'utf8')) as InstallRecord;
    expect(record).toMatchObject({ skill: 'acme/weather', version: '1.0.0', hub: hub.baseUrl });
    const certifiedLines = record.resigned!.certified.split('\n');
    const installedLines = manifest.split('\n');
    expect(installedLines.filter((line, i) => line !== certifiedLines[i])).toEqual([
      `signature: ${kazmaSignature(checksum, LOCAL_SECRET)}`,
    ]);
    expect(record.resigned).toMatchObject({ path: 'skill_manifest.yaml', entryPoint: 'weather_skill.py' });
    expect(Object.keys(record.files).sort()).toEqual(['helper.py', 'skill_manifest.yaml', 'weather_skill.py']);
    expect(existsSync(join(path, CERTIFICATE_FILE))).toBe(true);
    expect(existsSync(join(path, KAZMA_INSTALL_META))).toBe(true);
    // Nothing half-written is left where a loader would look.
    expect(readdirSync(join(dir, 'skills')).filter((f) => !f.startsWith('.'))).toEqual(['weather']);
  });

  it('without a local secret, removes the signature and warns that the skill loads as unsigned', async () => {
    hub.publish('acme', weather());
    const result = ok(await installer().install('acme', 'weather', '*'));
    const manifest = parse(readFileSync(join(result.path, 'skill_manifest.yaml'), 'utf8')) as Record<string, unknown>;
    expect(manifest.checksum).toBe(kazmaChecksum(Buffer.from(CODE)));
    expect(manifest).not.toHaveProperty('signature');
    expect(result.warnings).toEqual([expect.stringContaining('installed unsigned')]);
  });

  it('signs an unsigned Kazma skill for the host, and leaves other formats byte for byte', async () => {
    hub.publish('acme', kazmaBundle({ name: 'plain', code: CODE }));
    const plain = ok(await installer(LOCAL_SECRET).install('acme', 'plain', '*'));
    const manifest = parse(readFileSync(join(plain.path, 'skill_manifest.yaml'), 'utf8')) as Record<string, unknown>;
    expect(manifest.signature).toBe(kazmaSignature(kazmaChecksum(Buffer.from(CODE)), LOCAL_SECRET));

    const guide = hub.publish('acme', agentSkillBundle({ name: 'guide' }), '2.0.0');
    const agent = ok(await installer(LOCAL_SECRET).install('acme', 'guide', '*'));
    expect(agent.path).toBe(join(dir, 'skills', 'guide'));
    const skillMd = readFileSync(join(agent.path, 'SKILL.md'));
    expect(kazmaChecksum(skillMd)).toBe(guide.files['SKILL.md']);
    const meta = JSON.parse(readFileSync(join(agent.path, KAZMA_INSTALL_META), 'utf8'));
    expect(meta.signature).toBe(kazmaSignature(kazmaChecksum(skillMd), LOCAL_SECRET));

    hub.publish('acme', swarmkitBundle({ id: 'search' }));
    const swarm = ok(await installer(LOCAL_SECRET).install('acme', 'search', '*'));
    const record = JSON.parse(readFileSync(join(swarm.path, INSTALL_RECORD_FILE), 'utf8')) as InstallRecord;
    expect(record.resigned).toBeNull();
  });

  it("refuses a second author's skill of the same name, naming the one installed; the same author's replaces it", async () => {
    hub.publish('acme', weather('acme'));
    hub.publish('globex', weather('globex'));
    ok(await installer(LOCAL_SECRET).install('acme', 'weather', '*'));
    expect(await installer(LOCAL_SECRET).install('globex', 'weather', '*')).toEqual({
      ok: false,
      author: 'globex',
      name: 'weather',
      reason: 'name-taken',
      message: expect.stringContaining(`${join(dir, 'skills', 'weather')} already holds acme/weather@1.0.0`),
    });
    hub.publish('acme', kazmaBundle({ name: 'weather', author: 'acme', version: '1.1.0', code: CODE }));
    expect(ok(await installer(LOCAL_SECRET).install('acme', 'weather', '*')).version).toBe('1.1.0');
  });

  it('refuses a name that is not one path segment, before asking the hub anything', async () => {
    expect(await installer().install('acme', '..', '*')).toMatchObject({ ok: false, reason: 'invalid-name' });
  });

  describe('installedCopy: what serves when the hub cannot be reached', () => {
    it('serves the copy installed before, verified offline, as certified, and says so', async () => {
      const statement = hub.publish('acme', weather());
      ok(await installer(LOCAL_SECRET).install('acme', 'weather', '^1.0.0'));

      const copy = ok(installer(LOCAL_SECRET).installedCopy('acme', 'weather', '^1.0.0'));
      expect(copy).toMatchObject({ version: '1.0.0', path: join(dir, 'skills', 'weather'), statement });
      expect(copy.warnings[0]).toBe('the hub cannot be reached: serving the copy installed before, verified offline');
      expect(copy.warnings.join('\n')).toContain('checked against the list seen last');
      // The skill is parsed from the certified manifest, not the one re-signed for this host.
      expect(copy.skill.name).toBe('weather');
      expect(copy.skill.manifest).toMatchObject({
        signature: kazmaSignature(kazmaChecksum(Buffer.from(CODE)), NAMESPACE_SECRET),
      });
    });

    it('refuses a changed file, a version out of range, a copy never installed, and a revoked one', async () => {
      const statement = hub.publish('acme', weather());
      hub.publish('acme', kazmaBundle({ name: 'plain', code: CODE }));
      ok(await installer(LOCAL_SECRET).install('acme', 'weather', '*'));

      expect(installer(LOCAL_SECRET).installedCopy('acme', 'weather', '^2.0.0')).toMatchObject({
        ok: false,
        reason: 'uncertified',
        message: 'the hub cannot be reached, and the installed acme/weather@1.0.0 does not match ^2.0.0',
      });
      expect(installer(LOCAL_SECRET).installedCopy('acme', 'plain', '*')).toMatchObject({
        ok: false,
        reason: 'unreachable',
        message: 'the hub cannot be reached, and acme/plain was never installed here',
      });
      expect(installer(LOCAL_SECRET).installedCopy('globex', 'weather', '*')).toMatchObject({
        ok: false,
        reason: 'wrong-skill',
      });

      // The newest list this host saw (at the next install) revokes it: offline, it stays refused.
      hub.revoke(statement, 'a leaked key');
      ok(await installer(LOCAL_SECRET).install('acme', 'plain', '*'));
      expect(installer(LOCAL_SECRET).installedCopy('acme', 'weather', '*')).toMatchObject({
        ok: false,
        reason: 'revoked',
        message: expect.stringContaining('acme/weather@1.0.0 was revoked'),
      });

      writeFileSync(join(dir, 'skills', 'plain', 'main.py'), 'import os\n');
      expect(installer(LOCAL_SECRET).installedCopy('acme', 'plain', '*')).toMatchObject({
        ok: false,
        reason: 'tampered',
        message: expect.stringContaining('files differ from the certificate: main.py'),
      });
    });
  });
});
