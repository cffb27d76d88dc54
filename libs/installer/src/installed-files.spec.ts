import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CertificateStatement } from '@skillhub/signing';
import { kazmaBundle } from '@skillhub/testing';
import { verifyInstalledSkill, type VerifyInstalledOptions } from './installed-files';
import { SkillInstaller } from './skill-installer';
import { InMemoryHub, LOG_ORIGIN } from './testing/in-memory-hub';
import { toTrustedKeys, TrustState } from './trust-state';

const LOCAL_SECRET = 'this-host-kazma-secret';
const CODE = 'class WeatherSkill:\n    def run(self, city):\n        return city\n';

describe('verifyInstalledSkill', () => {
  let dir: string;
  let hub: InMemoryHub;
  let state: TrustState;
  let path: string;
  let statement: CertificateStatement;

  const verify = async (changes: Partial<VerifyInstalledOptions> = {}, skillDir = path) =>
    verifyInstalledSkill(skillDir, {
      keys: toTrustedKeys(state.keys()!),
      state,
      hubRevocations: { envelope: await hub.revocations() },
      kazmaSecret: LOCAL_SECRET,
      ...changes,
    });
  const offline = { hubRevocations: null };
  const edit = (file: string, change: (text: string) => string) =>
    writeFileSync(join(path, file), change(readFileSync(join(path, file), 'utf8')));

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'installed-files-'));
    hub = new InMemoryHub();
    state = new TrustState(join(dir, 'trust'));
    const bundle = kazmaBundle({
      name: 'weather',
      author: 'acme',
      code: CODE,
      extraFiles: [{ path: 'helper.py', content: 'HELP = 1\n' }],
    });
    statement = hub.publish('acme', bundle);
    hub.publish('acme', kazmaBundle({ name: 'radar', author: 'acme', code: CODE }));
    const installer = new SkillInstaller(hub, {
      installDir: join(dir, 'skills'),
      state,
      logOrigin: LOG_ORIGIN,
      pinnedKeys: [],
      kazmaSecret: LOCAL_SECRET,
    });
    const result = await installer.install('acme', 'weather', '*');
    if (!result.ok) throw new Error(result.message);
    path = result.path;
    expect((await installer.install('acme', 'radar', '*')).ok).toBe(true);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts the installed skill, re-signed manifest included, checked against the hub’s list', async () => {
    expect(await verify()).toEqual({
      ok: true,
      statement,
      revocations: { source: 'hub', issuedAt: expect.any(String) },
      warnings: [],
    });
  });

  it('refuses a changed file that Kazma would never check, and a file the certificate does not name', async () => {
    edit('helper.py', () => 'import os\nos.system("id")\n');
    expect(await verify()).toMatchObject({
      ok: false,
      reason: 'tampered',
      message: expect.stringContaining('helper.py'),
    });
    edit('helper.py', () => 'HELP = 1\n');
    mkdirSync(join(path, '__pycache__'));
    writeFileSync(join(path, '__pycache__', 'helper.cpython-311.pyc'), 'bytecode');
    expect(await verify()).toMatchObject({
      ok: false,
      reason: 'tampered',
      message: expect.stringContaining('PYTHONDONTWRITEBYTECODE=1'),
    });
  });

  it('refuses a manifest changed beyond its two re-signed fields, even with a matching record', async () => {
    edit('skill_manifest.yaml', (text) => text.replace('network_outbound', 'file_write'));
    expect(await verify()).toMatchObject({ ok: false, reason: 'tampered', message: /skill_manifest\.yaml/ });
  });

  it('refuses a changed entry point even when the manifest checksum is updated with it', async () => {
    const evil = 'import os\nos.system("id")\n';
    const { createHash } = await import('node:crypto');
    const checksum = createHash('sha256').update(evil).digest('hex');
    edit('weather_skill.py', () => evil);
    edit('skill_manifest.yaml', (text) => text.replace(/^checksum: .*$/m, `checksum: ${checksum}`));
    expect(await verify()).toMatchObject({ ok: false, reason: 'tampered' });
  });

  it("checks the manifest's signature with this host's secret when it has one", async () => {
    expect(await verify({ kazmaSecret: 'another-host-secret' })).toMatchObject({
      ok: false,
      reason: 'tampered',
      message: expect.stringContaining("this host's KAZMA_SECRET"),
    });
    expect(await verify({ kazmaSecret: undefined })).toMatchObject({
      ok: true,
      warnings: ['the manifest signature was not checked: no KAZMA_SECRET'],
    });
  });

  it("refuses another certified skill's folder and certificate under this skill's name", async () => {
    const radar = join(dir, 'skills', 'radar');
    const impostor = join(dir, 'elsewhere', 'weather');
    cpSync(radar, impostor, { recursive: true });
    expect(await verify({}, impostor)).toMatchObject({
      ok: false,
      reason: 'wrong-skill',
      message: 'the folder is named weather, the certificate is for acme/radar@1.0.0',
    });
    // The certificate alone swapped in: its files are another skill's.
    cpSync(join(radar, '.skillhub-certificate.json'), join(path, '.skillhub-certificate.json'));
    expect(await verify()).toMatchObject({ ok: false, reason: 'wrong-skill' });
  });

  it('refuses a revoked version, online, and offline from the newest list seen before', async () => {
    hub.revoke(statement, 'ships a key stealer');
    expect(await verify()).toMatchObject({
      ok: false,
      reason: 'revoked',
      message: expect.stringContaining('acme/weather@1.0.0 was revoked'),
    });
    expect(await verify(offline)).toMatchObject({
      ok: false,
      reason: 'revoked',
      message: expect.stringContaining('hub unreachable'),
    });
  });

  it('offline, says plainly that revocations could not be checked', async () => {
    expect(await verify(offline)).toMatchObject({
      ok: true,
      revocations: { source: 'last-seen' },
      warnings: [expect.stringMatching(/^could not check revocations: hub unreachable; checked against the list seen/)],
    });
    rmSync(join(dir, 'trust', 'revocations.json'));
    expect(await verify(offline)).toMatchObject({
      ok: true,
      revocations: { source: 'none', issuedAt: null },
      warnings: ['could not check revocations: hub unreachable, and no revocation list was seen before'],
    });
  });

  it('refuses a list older than the one seen before, and one the hub did not sign', async () => {
    const older = await hub.revocations();
    await verify();
    expect(await verify({ hubRevocations: { envelope: older } })).toMatchObject({
      ok: false,
      reason: 'stale-revocations',
      message: expect.stringContaining('older than the one seen before'),
    });
    const forged = { ...(await hub.revocations()), signatures: [{ keyid: 'x', sig: 'AAAA' }] };
    expect(await verify({ hubRevocations: { envelope: forged } })).toMatchObject({
      ok: false,
      reason: 'stale-revocations',
    });
  });

  it('refuses an expired certificate', async () => {
    const later = new Date(Date.parse(statement.expiresAt) + 1000);
    expect(await verify({ now: later })).toMatchObject({ ok: false, reason: 'expired' });
  });
});
