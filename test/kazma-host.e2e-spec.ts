/**
 * A Kazma host loads exactly what the hub certified. A real hub certifies a Kazma code skill
 * signed with its namespace's KAZMA_SECRET; `skillhub install` (the CLI, in this process)
 * puts it where Kazma's SkillLoader reads it and re-signs it with the host's own secret; a
 * loader written here in Python, checking what Kazma's does (docs/kazma.md), loads it.
 * Kazma checks only the entry point, so `skillhub verify` is what catches every other file.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBundle } from '@skillhub/bundle';
import { HubClient } from '@skillhub/hub-client';
import { kazmaBundle, uniqueName } from '@skillhub/testing';
import { run } from '../apps/cli/src/main';
import { startTestHub, type TestHub } from './support/test-hub';

const HUB_SECRET = 'the-hub-own-kazma-secret';
const NAMESPACE_SECRET = 'the-namespace-kazma-secret';
const HOST_SECRET = 'the-kazma-host-own-secret';
const CODE = 'class WeatherSkill:\n    def get_weather(self, city):\n        return f"sunny in {city}"\n';

/**
 * Kazma's SkillLoader as docs/kazma.md describes it: `<KAZMA_USER_HOME>/skills/<name>/`,
 * the five required fields, the entry point's module file (`a.b:Class` → `a/b.py`, a `.py`
 * spelling naming the same file) or main.py, its checksum, then the HMAC of the hex checksum
 * with the host's KAZMA_SECRET; fail-closed, and no other file is looked at.
 */
const KAZMA_LOADER = String.raw`
import hashlib, hmac, importlib.util, json, os, sys
import yaml

def refuse(reason):
    print(json.dumps({"loaded": False, "reason": reason}))
    sys.exit(1)

try:
    name = sys.argv[1]
    skill_dir = os.path.join(os.environ["KAZMA_USER_HOME"], "skills", name)
    secret = os.environ.get("KAZMA_SECRET", "")
    with open(os.path.join(skill_dir, "skill_manifest.yaml"), encoding="utf-8") as f:
        data = yaml.safe_load(f)
    if not isinstance(data, dict):
        refuse("invalid manifest")
    for field in ("name", "version", "description", "author", "license"):
        if field not in data:
            refuse("manifest missing required field " + field)
    entry = data.get("entry_point")
    class_name = None
    if entry:
        module, _, class_name = entry.partition(":")
        if module.endswith(".py"):
            module = module[:-3]
        module_file = os.path.join(skill_dir, module.replace(".", "/") + ".py")
    else:
        module_file = os.path.join(skill_dir, "main.py")
    with open(module_file, "rb") as f:
        code = f.read()
    warnings = []
    checksum, signature = data.get("checksum"), data.get("signature")
    if checksum:
        if not hmac.compare_digest(hashlib.sha256(code).hexdigest(), str(checksum)):
            refuse("checksum mismatch: the skill may have been tampered with")
        if signature:
            if not secret:
                refuse("the skill is signed but no KAZMA_SECRET is available")
            expected = hmac.new(secret.encode("utf-8"), str(checksum).encode("utf-8"), hashlib.sha256).hexdigest()
            if not hmac.compare_digest(expected, str(signature)):
                refuse("signature mismatch")
        else:
            warnings.append("unsigned: checksum only")
    elif signature:
        refuse("a signature without a checksum")
    else:
        warnings.append("unsigned")
    spec = importlib.util.spec_from_file_location("_kazma_skill_" + name.replace("-", "_"), module_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    instance = getattr(module, class_name)() if class_name else module
    print(json.dumps({"loaded": True, "warnings": warnings, "answer": instance.get_weather("Paris")}))
except SystemExit:
    raise
except Exception as exc:
    refuse("error while loading: " + repr(exc))
`;

interface Loaded {
  loaded: boolean;
  reason?: string;
  warnings?: string[];
  answer?: string;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('a Kazma host loads what the hub certified', () => {
  let hub: TestHub;
  let client: HubClient;
  let work: string;
  let loader: string;
  const ns = uniqueName('kazma');
  const rival = uniqueName('rival');
  const name = uniqueName('weather');

  const kazmaLoad = (home: string, secret?: string): Loaded => {
    const env = { PATH: process.env.PATH ?? '', KAZMA_USER_HOME: home, PYTHONDONTWRITEBYTECODE: '1' };
    const result = spawnSync('python3', [loader, name], {
      env: secret ? { ...env, KAZMA_SECRET: secret } : env,
      encoding: 'utf8',
    });
    if (result.error || !result.stdout) throw new Error(`the loader failed: ${result.error ?? result.stderr}`);
    return JSON.parse(result.stdout) as Loaded;
  };

  const skillhub = async (args: string[], env: Record<string, string | undefined> = {}) => {
    let stdout = '';
    let stderr = '';
    const code = await run(args, {
      env: { KAZMA_HUB_URL: hub.baseUrl, HUB_LOG_ORIGIN: hub.config.HUB_LOG_ORIGIN, ...env },
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
    });
    return { code, stdout, stderr };
  };

  const certified = async (publisher: HubClient, author: string) => {
    for (let i = 0; i < 300; i++) {
      const { status } = await publisher.certification(author, name, '1.0.0');
      if (status !== 'pending') return status;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('still pending');
  };

  const publish = async (author: string) => {
    const token = await hub.token(author, ['publish', 'manage']);
    const publisher = new HubClient({ baseUrl: hub.baseUrl, token });
    await publisher.setKazmaSecret(author, NAMESPACE_SECRET);
    await publisher.publish(
      kazmaBundle({
        name,
        author,
        code: CODE,
        manifest: { permissions: [] },
        sign: { secret: NAMESPACE_SECRET },
        extraFiles: [{ path: 'helper.py', content: 'UNITS = "metric"\n' }],
      }),
    );
    expect(await certified(publisher, author)).toBe('certified');
    return publisher;
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'skillhub-kazma-host-'));
    loader = join(work, 'kazma_loader.py');
    writeFileSync(loader, KAZMA_LOADER);
    hub = await startTestHub({
      worker: true,
      env: { KAZMA_SECRET: HUB_SECRET, LIVE_PROBE: 'false', PUBLISH_RATE_LIMIT_PER_MINUTE: '1000' },
    });
    client = await publish(ns);
    await publish(rival);
  }, 120_000);

  afterAll(async () => {
    await hub?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the bundle as published is refused by a host whose secret is not the namespace’s', async () => {
    const home = join(work, 'raw');
    const { bytes } = await client.downloadBundle(ns, name, '1.0.0');
    for (const file of readBundle(bytes).files) {
      mkdirSync(join(home, 'skills', name), { recursive: true });
      writeFileSync(join(home, 'skills', name, file.path), file.content);
    }
    expect(kazmaLoad(home, NAMESPACE_SECRET)).toMatchObject({ loaded: true, warnings: [] });
    expect(kazmaLoad(home, HOST_SECRET)).toEqual({ loaded: false, reason: 'signature mismatch' });
  });

  describe('installed with skillhub', () => {
    const home = () => join(work, 'host');
    const skillDir = () => join(home(), 'skills', name);
    const install = (author: string, env: Record<string, string | undefined> = {}) =>
      skillhub(['install', `${author}/${name}@^1.0.0`], { KAZMA_USER_HOME: home(), KAZMA_SECRET: HOST_SECRET, ...env });
    const verify = (env: Record<string, string> = {}) =>
      skillhub(['verify', skillDir()], { KAZMA_USER_HOME: home(), KAZMA_SECRET: HOST_SECRET, ...env });
    const tampering = (file: string, content: string, check: () => Promise<void>) => async () => {
      const path = join(skillDir(), file);
      const original = readFileSync(path);
      writeFileSync(path, content);
      try {
        await check();
      } finally {
        writeFileSync(path, original);
      }
    };

    beforeAll(async () => {
      const result = await install(ns);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    });

    it('is where Kazma looks, re-signed with the host’s secret, and loads', async () => {
      // One folder per skill, named by it, as Kazma's SkillLoader reads them; staging is a dot folder.
      expect(readdirSync(join(home(), 'skills')).filter((entry) => !entry.startsWith('.'))).toEqual([name]);
      expect(kazmaLoad(home(), HOST_SECRET)).toEqual({ loaded: true, warnings: [], answer: 'sunny in Paris' });
      const verified = await verify();
      expect(verified.stderr).toBe('');
      expect(verified.code).toBe(0);
      expect(verified.stdout).toContain(`verified ${ns}/${name}@1.0.0`);
    });

    it(
      'a changed helper loads in Kazma, which checks only the entry point; skillhub verify refuses it',
      tampering('helper.py', 'import os\nos.system("id")\n', async () => {
        expect(kazmaLoad(home(), HOST_SECRET)).toMatchObject({ loaded: true });
        const verified = await verify();
        expect(verified.code).toBe(4);
        expect(verified.stderr).toContain('refused: tampered: files differ from the certificate: helper.py');
      }),
    );

    it(
      'a changed entry point is refused by Kazma and by skillhub verify',
      tampering('weather_skill.py', 'import os\nos.system("id")\n', async () => {
        expect(kazmaLoad(home(), HOST_SECRET)).toEqual({
          loaded: false,
          reason: 'checksum mismatch: the skill may have been tampered with',
        });
        expect((await verify()).stderr).toContain('refused: tampered');
      }),
    );

    it('another author’s skill of the same name is refused, naming the one installed', async () => {
      const refused = await install(rival);
      expect(refused.code).toBe(4);
      expect(refused.stderr).toContain(
        `refused ${rival}/${name}: name-taken: ${skillDir()} already holds ${ns}/${name}@1.0.0`,
      );
      expect(kazmaLoad(home(), HOST_SECRET)).toMatchObject({ loaded: true });
    });

    it('offline, verify says it could not check revocations; a revoked version is refused online and offline', async () => {
      const offline = { KAZMA_HUB_URL: `http://127.0.0.1:${await closedPort()}` };
      const unreachable = await verify(offline);
      expect(unreachable.code).toBe(0);
      expect(unreachable.stderr).toContain('warning: could not check revocations: hub unreachable');

      await client.revoke(ns, name, '1.0.0', 'a key stealer was found');
      const revoked = await verify();
      expect(revoked.code).toBe(4);
      expect(revoked.stderr).toContain(`refused: revoked: ${ns}/${name}@1.0.0 was revoked`);
      const revokedOffline = await verify(offline);
      expect(revokedOffline.code).toBe(4);
      expect(revokedOffline.stderr).toContain('a key stealer was found');
    });
  });

  it('without a local secret, installs unsigned with a warning, and Kazma loads it as unsigned', async () => {
    const home = join(work, 'no-secret');
    const installedUnsigned = await skillhub(['install', `${rival}/${name}@*`], { KAZMA_USER_HOME: home });
    expect(installedUnsigned.code).toBe(0);
    expect(installedUnsigned.stderr).toContain('warning: no KAZMA_SECRET');
    expect(kazmaLoad(home)).toEqual({ loaded: true, warnings: ['unsigned: checksum only'], answer: 'sunny in Paris' });
    const copy = join(work, 'moved', 'skills', 'other-name');
    cpSync(join(home, 'skills', name), copy, { recursive: true });
    const moved = await skillhub(['verify', copy], { KAZMA_USER_HOME: home });
    expect(moved.code).toBe(4);
    expect(moved.stderr).toContain(
      `refused: wrong-skill: the folder is named other-name, the certificate is for ${rival}/${name}@1.0.0`,
    );
  });
});
