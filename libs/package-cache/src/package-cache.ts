/**
 * A content-addressed cache of npm packages for exact `{name, version, integrity}` references, shared
 * by the certifier's live probe and the agent runtime. An entry is installed once, with its
 * dependencies and with install scripts off, by npm's own CLI (which checks every tarball's bytes
 * against the registry's integrity); the top-level package's integrity must be the pinned one. Every
 * file of the entry is recorded, and each later `install()` re-verifies the tree and refuses it when
 * anything changed, without touching the network.
 *
 * Layout under `root`: `entries/<key>/` (one per exact reference: `package.json`, the lock npm wrote,
 * `node_modules/…` and the record `.skillhub-entry.json`), `_staging/` (installs in progress, renamed
 * into place when complete, so an entry is never half there) and `_npm-cache/` (npm's own tarball cache).
 *
 * npm runs with the operator's own settings, as any npm on the host would: their user and global
 * npmrc, `npm_config_*`, the proxy variables and extra CA certificates (a company's registry is often
 * reached through a TLS-inspecting proxy with a private CA, or needs a token). What decides safety is
 * forced on the command line, which no configuration overrides: the registry, the cache folder, install
 * scripts off, no global install, no audit.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, posix } from 'node:path';
import { type RecordedTree, storedEntry } from './entry-store';
import { runInstaller } from './installer-process';
import {
  PackageCacheConfigError,
  PackageInstallFailedError,
  PackageIntegrityMismatchError,
  PackageNoBinError,
} from './package-cache.errors';
import { assertPackageSpec, packageEntryKey, packageLabel, type PackageSpec } from './package-spec';

export interface PackageCacheOptions {
  /** An absolute folder the cache owns. */
  root: string;
  /** The registry npm installs from (`https://registry.npmjs.org`, or a mirror). */
  registry: string;
  /** npm's CLI, looked up in a PATH that starts with this Node's folder. Default `npm`. */
  npm?: string;
  /** How long one npm install may take. Default 120 s. */
  installTimeoutMs?: number;
  /**
   * The environment npm's settings are read from: HOME (for ~/.npmrc), `npm_config_*`, the proxy
   * variables and CA certificate files pass; nothing else does. Default: this process's.
   */
  operatorEnv?: NodeJS.ProcessEnv;
}

export interface InstalledPackage {
  name: string;
  version: string;
  integrity: string;
  /** The entry folder: mount it whole, since Node resolves dependencies upwards from the package. */
  entryDir: string;
  /** `<entryDir>/node_modules/<name>`. */
  packageDir: string;
  /** The package's program, an absolute path inside `packageDir`. */
  bin: string;
  /** SHA-256 over every file of the entry (see package-tree.ts). */
  treeDigest: string;
  /** True when the entry was already there (and verified), false when this call installed it. */
  fromCache: boolean;
}

/** What the cache writes beside an entry's files; the key of the entry folder is derived from the spec. */
interface EntryRecord extends RecordedTree {
  format: 1;
  name: string;
  version: string;
  integrity: string;
  /** Relative to the entry folder. */
  bin: string;
}
const DEFAULT_INSTALL_TIMEOUT_MS = 120_000;

export class PackageCache {
  private readonly inFlight = new Map<string, Promise<InstalledPackage>>();
  private readonly root: string;
  private readonly registry: string;

  /** @throws PackageCacheConfigError for a relative root, or a registry that is not http(s). */
  constructor(private readonly options: PackageCacheOptions) {
    if (!isAbsolute(options.root)) throw new PackageCacheConfigError(`the cache root ${options.root} is not absolute`);
    let registry: URL;
    try {
      registry = new URL(options.registry);
    } catch {
      throw new PackageCacheConfigError(`the registry ${options.registry} is not a URL`);
    }
    if (registry.protocol !== 'https:' && registry.protocol !== 'http:') {
      throw new PackageCacheConfigError(`the registry ${options.registry} is not an http(s) URL`);
    }
    this.root = options.root;
    this.registry = registry.href;
  }

  /**
   * The verified entry for `spec`, installed first when it is not cached. Concurrent calls for one
   * spec share one install.
   *
   * @throws InvalidPackageSpecError, PackageInstallFailedError, PackageIntegrityMismatchError,
   *   PackageTamperedError, PackageNoBinError
   */
  async install(spec: PackageSpec): Promise<InstalledPackage> {
    assertPackageSpec(spec);
    const key = packageEntryKey(spec);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.installOnce(spec, key).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async installOnce(spec: PackageSpec, key: string): Promise<InstalledPackage> {
    const { entryDir, record, fromCache } = await storedEntry<EntryRecord>(this.root, {
      key,
      label: packageLabel(spec),
      accept: (found) => (sameSpec(found, spec) ? found : null),
      install: (staging) => this.installInto(staging, spec),
      required: (found) => found.bin,
    });
    return installedPackage(entryDir, spec, record, fromCache);
  }

  private async installInto(staging: string, spec: PackageSpec): Promise<Omit<EntryRecord, keyof RecordedTree>> {
    const what = packageLabel(spec);
    const manifest = {
      name: 'skillhub-package-cache-entry',
      version: '0.0.0',
      private: true,
      dependencies: { [spec.name]: spec.version },
    };
    await writeFile(join(staging, 'package.json'), JSON.stringify(manifest));
    await this.runNpm(staging, what);

    const locked = await readLockedPackage(staging, spec.name);
    if (locked?.version !== spec.version) {
      throw new PackageInstallFailedError(
        `npm installed ${spec.name}@${locked?.version ?? 'nothing'}, not ${spec.version}`,
      );
    }
    if (locked.integrity !== spec.integrity)
      throw new PackageIntegrityMismatchError(spec.integrity, locked.integrity ?? null, what);

    const packageDir = join('node_modules', spec.name);
    const bin = posix.join(packageDir, await binOf(join(staging, packageDir), spec));
    return { format: 1, name: spec.name, version: spec.version, integrity: spec.integrity, bin };
  }

  private async runNpm(cwd: string, what: string): Promise<void> {
    const args = [
      'install',
      '--ignore-scripts',
      '--no-global',
      '--no-audit',
      '--no-fund',
      '--no-bin-links',
      '--no-update-notifier',
      '--omit=dev',
      '--loglevel=error',
      `--registry=${this.registry}`,
      `--cache=${join(this.root, '_npm-cache')}`,
    ];
    const env = {
      ...operatorNpmEnv(this.options.operatorEnv ?? process.env),
      // npm's shebang runs `node`: this process's own comes first.
      PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    };
    await runInstaller({
      tool: 'npm',
      command: this.options.npm ?? 'npm',
      args,
      cwd,
      env,
      timeoutMs: this.options.installTimeoutMs ?? DEFAULT_INSTALL_TIMEOUT_MS,
      what,
      errors: (stderr) => `${npmErrors(stderr)}${tlsHint(stderr)}`,
    });
  }
}

/** A record written for exactly this spec. */
const sameSpec = (record: unknown, spec: PackageSpec): record is EntryRecord => {
  const found = record as Partial<EntryRecord> | null;
  return (
    found?.format === 1 &&
    found.name === spec.name &&
    found.version === spec.version &&
    found.integrity === spec.integrity &&
    typeof found.bin === 'string'
  );
};

const installedPackage = (
  entryDir: string,
  spec: PackageSpec,
  record: EntryRecord,
  fromCache: boolean,
): InstalledPackage => ({
  name: spec.name,
  version: spec.version,
  integrity: spec.integrity,
  entryDir,
  packageDir: join(entryDir, 'node_modules', spec.name),
  bin: join(entryDir, record.bin),
  treeDigest: record.treeDigest,
  fromCache,
});

/** What npm recorded for the top-level package in its hidden lockfile. */
const readLockedPackage = async (
  staging: string,
  name: string,
): Promise<{ version?: string; integrity?: string } | undefined> => {
  try {
    const lock = JSON.parse(await readFile(join(staging, 'node_modules', '.package-lock.json'), 'utf8')) as {
      packages?: Record<string, { version?: string; integrity?: string }>;
    };
    return lock.packages?.[`node_modules/${name}`];
  } catch {
    return undefined;
  }
};

/**
 * The package's program, relative to its folder: its only `bin`, or the one named after its unscoped
 * name. A path that leaves the package is refused.
 */
const binOf = async (packageDir: string, spec: PackageSpec): Promise<string> => {
  const what = packageLabel(spec);
  const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { bin?: unknown };
  const unscoped = spec.name.slice(spec.name.indexOf('/') + 1);
  let bin: unknown;
  if (typeof manifest.bin === 'string') bin = manifest.bin;
  else if (manifest.bin && typeof manifest.bin === 'object') {
    const entries = Object.entries(manifest.bin as Record<string, unknown>);
    bin = entries.length === 1 ? entries[0]?.[1] : (manifest.bin as Record<string, unknown>)[unscoped];
    if (bin === undefined && entries.length > 1) {
      throw new PackageNoBinError(`${what} has ${entries.length} programs and none is named ${unscoped}`);
    }
  }
  if (typeof bin !== 'string' || bin === '')
    throw new PackageNoBinError(`${what} has no program (no "bin" in its package.json)`);
  const path = posix.normalize(bin.replace(/^\.\//, ''));
  if (path.startsWith('../') || path === '..' || posix.isAbsolute(path) || path.includes('\0')) {
    throw new PackageNoBinError(`${what} names a program outside its folder: ${bin}`);
  }
  return path;
};

/** What of the operator's environment npm reads its settings from; nothing else reaches it. */
const operatorNpmEnv = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined &&
        (/^npm_config_/i.test(entry[0]) ||
          /^(https?_proxy|no_proxy|all_proxy)$/i.test(entry[0]) ||
          ['HOME', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'].includes(entry[0])),
    ),
  );

const UNTRUSTED_CERTIFICATE =
  /SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_UNTRUSTED|self[- ]signed certificate/i;

/** How to fix npm not trusting the registry's certificate (a TLS-inspecting proxy's private CA, usually). */
const tlsHint = (stderr: string): string =>
  UNTRUSTED_CERTIFICATE.test(stderr)
    ? ". npm does not trust the registry's TLS certificate: give it the CA that signs it, as npm's cafile (in the npmrc of the user this runs as, or npm_config_cafile) or NODE_EXTRA_CA_CERTS"
    : '';

/**
 * npm's own error lines (`npm error …`, or `npm ERR! …` before npm 10) without the log file pointer;
 * the last lines of its output when it printed none.
 */
const npmErrors = (stderr: string): string => {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const errors = lines
    .filter((line) => /^npm (error|ERR!)/.test(line) && !/A complete log of this run/.test(line))
    .map((line) => line.replace(/^npm (error|ERR!)\s*/, ''))
    .filter((line) => line !== '');
  return (errors.length > 0 ? errors.slice(0, 5) : lines.slice(-3)).join('; ');
};
