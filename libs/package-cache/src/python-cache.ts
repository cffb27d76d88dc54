/**
 * Python servers, verified the way npm ones are. `resolve()` (the certifier) asks pip which wheels
 * `name==version` needs on this platform, without installing anything (`--dry-run --report`), and
 * returns them as a lock: each wheel by its sha256. `install()` (the certifier's probe, then the
 * runtime) installs exactly that lock into the content-addressed cache with every hash checked
 * (`--require-hashes --no-deps`) and wheels only (`--only-binary :all:`: no build step runs code),
 * writes a launcher for the release's console script, and records every file; each later
 * `install()` re-verifies the tree without touching the network. `uvx` and `uv run` would do the
 * same from their own caches; uv is not installable on these machines, so the hub runs what they
 * would (the host's Python 3 on the installed wheels) and the certificate says so.
 *
 * pip runs isolated (`--isolated`: no pip.conf, no PIP_* variables) with the index forced on its
 * command line; the operator's proxy variables and CA bundle (PIP_CERT, REQUESTS_CA_BUNDLE,
 * SSL_CERT_FILE) are passed on, as any pip on the host would need them.
 */
import { stat, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { type RecordedTree, storedEntry } from './entry-store';
import { runInstaller } from './installer-process';
import { PackageCacheConfigError, PackageInstallFailedError, PackageNoBinError } from './package-cache.errors';
import {
  MAX_LOCKED_WHEELS,
  assertPythonLock,
  pythonEntryKey,
  pythonLabel,
  requirementsOf,
  type LockedWheel,
  type PythonLock,
} from './python-lock';

export interface PythonCacheOptions {
  /** An absolute folder the cache owns (it may be the npm cache's: Python entries have keys of their own). */
  root: string;
  /** The PyPI pip installs from (`https://pypi.org`, or a mirror): its simple index is `<url>/simple/`. */
  index: string;
  /** The Python 3 that installs and runs the servers. Default: /usr/bin/python3, else /usr/local/bin/python3. */
  python?: string;
  /** How long one pip run may take. Default 120 s. */
  installTimeoutMs?: number;
  /** Where the proxy and CA settings are read from. Default: this process's environment. */
  operatorEnv?: NodeJS.ProcessEnv;
}

export interface InstalledPythonPackage {
  lock: PythonLock;
  entryDir: string;
  /** The release's console script, as a file run by Python 3 (`python3 -I -S -B <launcher> args…`). */
  launcher: string;
  treeDigest: string;
  fromCache: boolean;
}

interface PythonEntryRecord extends RecordedTree {
  format: 1;
  kind: 'pypi';
  lock: PythonLock;
  /** Relative to the entry folder. */
  launcher: string;
}

export const PYTHON_INTERPRETERS = ['/usr/bin/python3', '/usr/local/bin/python3'] as const;
const LAUNCHER = 'run.py';
const SITE = 'site';
const DEFAULT_INSTALL_TIMEOUT_MS = 120_000;
const DOTTED = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$/;

export class PythonPackageCache {
  private readonly inFlight = new Map<string, Promise<InstalledPythonPackage>>();
  private readonly simpleIndex: string;

  /** @throws PackageCacheConfigError for a relative root, or an index that is not http(s). */
  constructor(private readonly options: PythonCacheOptions) {
    if (!isAbsolute(options.root)) throw new PackageCacheConfigError(`the cache root ${options.root} is not absolute`);
    let index: URL;
    try {
      index = new URL(options.index);
    } catch {
      throw new PackageCacheConfigError(`the index ${options.index} is not a URL`);
    }
    if (index.protocol !== 'https:' && index.protocol !== 'http:')
      throw new PackageCacheConfigError(`the index ${options.index} is not an http(s) URL`);
    this.simpleIndex = new URL('simple/', index.href.endsWith('/') ? index.href : `${index.href}/`).href;
  }

  /**
   * The wheels `name==version` needs on this machine's Python, each with its sha256, as pip resolves
   * them from the index: the lock a certificate records.
   *
   * @throws PackageInstallFailedError (no wheel for this platform, a release that is not there, no pip)
   */
  async resolve(name: string, version: string): Promise<PythonLock> {
    const what = `${name}==${version}`;
    assertPythonLock({ name, version, wheels: [{ name, version, sha256: '0'.repeat(64) }] });
    const scratch = await mkdtemp(join(tmpdir(), 'skillhub-pip-resolve-'));
    try {
      const report = join(scratch, 'report.json');
      await this.pip(scratch, what, ['install', '--dry-run', '--ignore-installed', '--report', report, what]);
      const wheels = wheelsOf(JSON.parse(await readFile(report, 'utf8')) as unknown, what);
      const lock = { name, version, wheels };
      assertPythonLock(lock);
      return lock;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /**
   * The verified entry for `lock`, installed first when it is not cached. Concurrent calls for one
   * lock share one install.
   *
   * @throws InvalidPackageSpecError, PackageInstallFailedError (a hash that does not match among
   *   them), PackageTamperedError, PackageNoBinError
   */
  async install(lock: PythonLock): Promise<InstalledPythonPackage> {
    assertPythonLock(lock);
    const key = pythonEntryKey(lock);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.installOnce(lock, key).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** The interpreter servers are run with, or null when this machine has none. */
  async interpreter(): Promise<string | null> {
    for (const path of this.options.python ? [this.options.python] : PYTHON_INTERPRETERS)
      if ((await stat(path).catch(() => null))?.isFile()) return path;
    return null;
  }

  private async installOnce(lock: PythonLock, key: string): Promise<InstalledPythonPackage> {
    const { entryDir, record, fromCache } = await storedEntry<PythonEntryRecord>(this.options.root, {
      key,
      label: pythonLabel(lock),
      accept: (found) => (sameLock(found, lock) ? found : null),
      install: (staging) => this.installInto(staging, lock),
      required: (found) => found.launcher,
    });
    return { lock, entryDir, launcher: join(entryDir, record.launcher), treeDigest: record.treeDigest, fromCache };
  }

  private async installInto(staging: string, lock: PythonLock): Promise<Omit<PythonEntryRecord, keyof RecordedTree>> {
    const requirements = join(staging, 'requirements.txt');
    await writeFile(requirements, requirementsOf(lock));
    await this.pip(staging, pythonLabel(lock), [
      'install',
      '--require-hashes',
      '--no-deps',
      '--no-compile',
      '--target',
      join(staging, SITE),
      '-r',
      requirements,
    ]);
    const [module, attribute] = await consoleScript(join(staging, SITE), lock);
    await writeFile(
      join(staging, LAUNCHER),
      // What uvx runs for the release's console script, from the wheels next to it only (`-I -S`).
      `import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ${JSON.stringify(SITE)}))\n` +
        `from ${module} import ${attribute.split('.')[0]}\nsys.exit(${attribute}())\n`,
    );
    return { format: 1, kind: 'pypi', lock, launcher: LAUNCHER };
  }

  private async pip(cwd: string, what: string, args: string[]): Promise<void> {
    const python = await this.interpreter();
    if (!python) throw new PackageInstallFailedError(`no Python 3 on this machine to install ${what}`);
    const env = operatorPipEnv(this.options.operatorEnv ?? process.env);
    const cert = env.PIP_CERT ?? env.REQUESTS_CA_BUNDLE ?? env.SSL_CERT_FILE;
    await runInstaller({
      tool: 'pip',
      command: python,
      args: [
        '-m',
        'pip',
        ...args,
        '--isolated',
        '--only-binary',
        ':all:',
        '--index-url',
        this.simpleIndex,
        '--no-cache-dir',
        '--disable-pip-version-check',
        '--no-input',
        '--quiet',
        ...(cert ? ['--cert', cert] : []),
      ],
      cwd,
      env,
      timeoutMs: this.options.installTimeoutMs ?? DEFAULT_INSTALL_TIMEOUT_MS,
      what,
      errors: pipErrors,
    });
  }
}

/** The wheels of pip's installation report (`--report`), each with its sha256. */
function wheelsOf(report: unknown, what: string): LockedWheel[] {
  const items = (report as { install?: unknown })?.install;
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_LOCKED_WHEELS)
    throw new PackageInstallFailedError(`pip's report for ${what} lists no installable wheels`);
  return items.map((item: unknown) => {
    const { metadata, download_info: download } = item as {
      metadata?: { name?: unknown; version?: unknown };
      download_info?: { archive_info?: { hashes?: { sha256?: unknown } } };
    };
    const sha256 = download?.archive_info?.hashes?.sha256;
    if (typeof metadata?.name !== 'string' || typeof metadata.version !== 'string' || typeof sha256 !== 'string')
      throw new PackageInstallFailedError(`pip's report for ${what} has a wheel without a name, version or sha256`);
    return { name: normalized(metadata.name), version: metadata.version, sha256: sha256.toLowerCase() };
  });
}

/** The release's console script (`module:attribute`): the one named like the release, or its only one. */
async function consoleScript(site: string, lock: PythonLock): Promise<[string, string]> {
  const what = pythonLabel(lock);
  const infos = (await readdir(site)).filter((name) => name.endsWith('.dist-info'));
  let scripts: Array<[string, string]> = [];
  for (const info of infos) {
    const metadata = await readFile(join(site, info, 'METADATA'), 'utf8').catch(() => '');
    const name = /^Name:\s*(.+)$/m.exec(metadata)?.[1]?.trim();
    if (name === undefined || normalized(name) !== lock.name) continue;
    const entryPoints = await readFile(join(site, info, 'entry_points.txt'), 'utf8').catch(() => '');
    scripts = consoleScripts(entryPoints);
  }
  const chosen =
    scripts.find(([command]) => normalized(command) === lock.name) ?? (scripts.length === 1 ? scripts[0] : undefined);
  if (!chosen)
    throw new PackageNoBinError(
      `${what} has ${scripts.length === 0 ? 'no console script' : `${scripts.length} console scripts and none is named ${lock.name}`}`,
    );
  const [module, attribute] = chosen[1].split(':').map((part) => part.trim());
  if (!module || !attribute || !DOTTED.test(module) || !DOTTED.test(attribute))
    throw new PackageNoBinError(`${what} names a console script that is not module:function (${chosen[1]})`);
  return [module, attribute];
}

/** `[console_scripts]` of an entry_points.txt: command → `module:attribute`. */
function consoleScripts(text: string): Array<[string, string]> {
  const scripts: Array<[string, string]> = [];
  let inSection = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) inSection = line === '[console_scripts]';
    else if (inSection && line.includes('=') && !line.startsWith('#')) {
      const at = line.indexOf('=');
      scripts.push([
        line.slice(0, at).trim(),
        line
          .slice(at + 1)
          .replace(/\[.*\]\s*$/, '')
          .trim(),
      ]);
    }
  }
  return scripts;
}

/** A lock record written for exactly this lock. */
const sameLock = (record: unknown, lock: PythonLock): record is PythonEntryRecord => {
  const found = record as Partial<PythonEntryRecord> | null;
  return (
    found?.format === 1 &&
    found.kind === 'pypi' &&
    typeof found.launcher === 'string' &&
    typeof found.lock === 'object' &&
    found.lock !== null &&
    Array.isArray(found.lock.wheels) &&
    pythonEntryKey(found.lock) === pythonEntryKey(lock)
  );
};

/** PEP 503. */
const normalized = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-');

/** What of the operator's environment pip needs: the proxies and the CA bundle, HOME and a PATH. */
const operatorPipEnv = (env: NodeJS.ProcessEnv): Record<string, string> => ({
  ...Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined &&
        (/^(https?_proxy|no_proxy|all_proxy)$/i.test(entry[0]) ||
          ['HOME', 'PIP_CERT', 'REQUESTS_CA_BUNDLE', 'SSL_CERT_FILE', 'SSL_CERT_DIR'].includes(entry[0])),
    ),
  ),
  PATH: '/usr/local/bin:/usr/bin:/bin',
});

/** pip's `ERROR: …` lines, else its last lines. */
const pipErrors = (stderr: string): string => {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^WARNING: Running pip as the 'root' user/.test(line));
  const errors = lines.filter((line) => line.startsWith('ERROR:')).map((line) => line.replace(/^ERROR:\s*/, ''));
  return (errors.length > 0 ? errors.slice(0, 5) : lines.slice(-3)).join('; ');
};
