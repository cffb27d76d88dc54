/**
 * How a pinned MCP server is started in the sandbox, shared by the certifier's live probe and the
 * agent runtime, so that what runs at runtime is started the way it was when its tools were
 * recorded: an npm release from the package cache with its bin run by this Node (no npx, no
 * registry lookup), the cache entry read-only at PACKAGE_MOUNT; a PyPI release installed from its
 * lock, its console script run by Python 3, the same way; or a file of the skill's bundle run by its
 * interpreter from BUNDLE_MOUNT.
 */
import { lstat, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { PackageCache, PythonLock, PythonPackageCache } from '@skillhub/package-cache';
import {
  SANDBOX_HOME,
  isSystemPath,
  nodeInSandbox,
  nodeOptionsFor,
  type SandboxLimits,
  type SandboxMount,
  type SandboxNetwork,
  type SandboxPolicy,
} from '@skillhub/sandbox';

interface TargetBase {
  /** The server's name as the skill declares it. */
  server: string;
  args: string[];
  /** The server's whole environment, as the skill declares it. */
  env: Record<string, string>;
  /** The server works in a folder of its skill (a declared `cwd`): the skill's folder and that folder in it. */
  workingFolder?: { skillDir: string; cwd: string };
}

/** A server launched from a pinned npm package (`npx -y <name>@<version>`). */
export interface NpmServerTarget extends TargetBase {
  kind: 'npm';
  name: string;
  version: string;
  /** The registry's sha512 `dist.integrity` recorded by C8. */
  integrity: string;
}

/** A server that is a file of the skill's bundle, run by an interpreter (`node server.js`). */
export interface BundleFileServerTarget extends TargetBase {
  kind: 'bundle-file';
  interpreter: 'node' | 'python3' | 'bash';
  /** Absolute, inside `bundleDir`. */
  file: string;
  /** Python run as `python3 -m <module>` (whose file is `file`) from the working folder; else unset. */
  module?: string | null;
  /** The extracted bundle (see extractBundle), or the installed skill's folder. */
  bundleDir: string;
}

/** A server launched from a PyPI release (`uvx <name>==<version>`), installed from its lock. */
export interface PypiServerTarget extends TargetBase {
  kind: 'pypi';
  lock: PythonLock;
}

export type LiveProbeTarget = NpmServerTarget | BundleFileServerTarget | PypiServerTarget;

/** The program to run in the sandbox and what it needs mounted. */
export interface ServerLaunch {
  argv: string[];
  readOnly: SandboxMount[];
  cwd: string;
  /** The program is Node (so it gets a V8 heap cap below the sandbox's memory limit). */
  node: boolean;
}

/** Where the package's cache entry (or the bundle) appears inside the sandbox. */
export const PACKAGE_MOUNT = '/srv/package';
export const BUNDLE_MOUNT = '/srv/bundle';

const INTERPRETERS: Record<Exclude<BundleFileServerTarget['interpreter'], 'node'>, readonly string[]> = {
  python3: ['/usr/bin/python3', '/usr/local/bin/python3'],
  bash: ['/usr/bin/bash', '/bin/bash'],
};
/** Folders no argument may put a tmpfs over: the sandbox's own. */
const RESERVED = ['/proc', '/dev', PACKAGE_MOUNT, BUNDLE_MOUNT];

/** A server that cannot be started as declared; `missingHere`: what it needs is not installed on this machine. */
export class ServerLaunchError extends Error {
  constructor(
    message: string,
    readonly missingHere = false,
  ) {
    super(message);
  }
}

/**
 * Installs (or re-verifies) the release in the cache and runs its bin with this Node.
 *
 * @throws the package cache's errors (integrity mismatch, tampered entry, install failure, no bin)
 */
export const npmServerLaunch = async (
  target: Pick<NpmServerTarget, 'name' | 'version' | 'integrity' | 'args'>,
  cache: Pick<PackageCache, 'install'>,
): Promise<ServerLaunch> => {
  const installed = await cache.install({ name: target.name, version: target.version, integrity: target.integrity });
  const bin = inside(PACKAGE_MOUNT, relative(installed.entryDir, installed.bin));
  const node = nodeInSandbox();
  return {
    // Run by this Node directly, as npx would through the bin's `#!/usr/bin/env node`, without a PATH lookup.
    argv: [node.path, bin, ...target.args],
    readOnly: [...node.mounts, { source: installed.entryDir, target: PACKAGE_MOUNT }],
    cwd: SANDBOX_HOME,
    node: true,
  };
};

/**
 * Installs (or re-verifies) the lock in the cache and runs the release's console script with the
 * host's Python 3, as uvx would, from the wheels only (`-I -S`: no site-packages of the host's, no
 * environment variables of Python's; `-B`: nothing written beside them).
 *
 * @throws ServerLaunchError without Python 3 here; the package cache's errors
 */
export const pypiServerLaunch = async (
  target: Pick<PypiServerTarget, 'lock' | 'args'>,
  cache: Pick<PythonPackageCache, 'install' | 'interpreter'>,
): Promise<ServerLaunch> => {
  const python = await cache.interpreter();
  if (!python) throw new ServerLaunchError('python3 is not installed on this machine', true);
  const installed = await cache.install(target.lock);
  return {
    argv: [
      python,
      '-I',
      '-S',
      '-B',
      inside(PACKAGE_MOUNT, relative(installed.entryDir, installed.launcher)),
      ...target.args,
    ],
    readOnly: [{ source: installed.entryDir, target: PACKAGE_MOUNT }],
    cwd: SANDBOX_HOME,
    node: false,
  };
};

/** @throws ServerLaunchError for a file outside the bundle, or an interpreter this machine lacks */
export const bundleFileServerLaunch = async (
  target: Pick<BundleFileServerTarget, 'interpreter' | 'file' | 'module' | 'bundleDir' | 'args'>,
): Promise<ServerLaunch> => {
  const path = relative(target.bundleDir, target.file);
  const outside =
    !isAbsolute(target.bundleDir) ||
    !isAbsolute(target.file) ||
    path === '' ||
    path === '..' ||
    path.startsWith(`..${sep}`) ||
    isAbsolute(path);
  const stats = outside ? null : await lstat(target.file).catch(() => null);
  if (!stats?.isFile()) throw new ServerLaunchError(`the server's file ${target.file} is not a file of the bundle`);
  const file = inside(BUNDLE_MOUNT, path);
  const mount = { source: target.bundleDir, target: BUNDLE_MOUNT };
  if (target.interpreter === 'node') {
    const node = nodeInSandbox();
    return {
      argv: [node.path, file, ...target.args],
      readOnly: [...node.mounts, mount],
      cwd: BUNDLE_MOUNT,
      node: true,
    };
  }
  const interpreter = await firstFile(INTERPRETERS[target.interpreter]);
  if (!interpreter) throw new ServerLaunchError(`${target.interpreter} is not installed on this machine`, true);
  const program = target.module && target.interpreter === 'python3' ? ['-m', target.module] : [file];
  return { argv: [interpreter, ...program, ...target.args], readOnly: [mount], cwd: BUNDLE_MOUNT, node: false };
};

/**
 * The launch with the skill's folder mounted read-only at BUNDLE_MOUNT (when it is not already) and,
 * given a declared working folder, working there.
 *
 * @throws ServerLaunchError when the working folder is not a folder of the skill
 */
export const inSkillFolder = async (
  launch: ServerLaunch,
  skillDir: string,
  cwd: string | null,
): Promise<ServerLaunch> => {
  const mounted = launch.readOnly.some((mount) => mount.target === BUNDLE_MOUNT)
    ? launch
    : { ...launch, readOnly: [...launch.readOnly, { source: skillDir, target: BUNDLE_MOUNT }] };
  if (cwd === null) return mounted;
  const path = relative(skillDir, join(skillDir, cwd));
  const outside = path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path);
  const found = outside ? null : await stat(join(skillDir, cwd)).catch(() => null);
  if (!found?.isDirectory()) throw new ServerLaunchError(`its working folder ${cwd} is not a folder of the skill`);
  return { ...mounted, cwd: path === '' ? BUNDLE_MOUNT : inside(BUNDLE_MOUNT, path) };
};

export interface ServerPolicyOptions {
  limits: SandboxLimits;
  /** Egress through this proxy (default: none). */
  network?: SandboxNetwork | null;
}

/**
 * The sandbox a launched server runs in: its mounts, an empty folder for each folder argument, and the
 * server's environment only (never the caller's); for Node, the V8 heap cap is ours, whatever it sets.
 */
export const serverSandboxPolicy = (
  launch: ServerLaunch,
  target: { args: readonly string[]; env: Readonly<Record<string, string>> },
  options: ServerPolicyOptions,
): SandboxPolicy => ({
  network: options.network ?? null,
  readOnly: launch.readOnly,
  tmpfs: argumentFolders(target.args, launch.readOnly),
  env: launch.node ? { ...target.env, NODE_OPTIONS: nodeOptionsFor(options.limits) } : { ...target.env },
  cwd: launch.cwd,
  limits: options.limits,
});

/**
 * An empty tmpfs for each argument that is an absolute folder (server-filesystem takes the folders it
 * may serve), so the server starts and lists its tools; never over the system or the sandbox's own mounts.
 */
const argumentFolders = (args: readonly string[], readOnly: readonly SandboxMount[]): string[] => {
  const reserved = [...RESERVED, ...readOnly.map((mount) => mount.target)];
  const under = (path: string, folder: string): boolean => path === folder || path.startsWith(`${folder}/`);
  const folders = args.filter(
    (arg) =>
      arg.startsWith('/') &&
      arg !== '/' &&
      !arg.endsWith('/') &&
      !arg.includes('\0') &&
      arg
        .split('/')
        .slice(1)
        .every((segment) => segment !== '' && segment !== '.' && segment !== '..') &&
      !isSystemPath(arg) &&
      !reserved.some((folder) => under(arg, folder)),
  );
  // Parents first, so a nested argument's tmpfs lands inside its parent's.
  return [...new Set(folders)].sort((a, b) => a.length - b.length);
};

const inside = (mount: string, path: string): string => `${mount}/${path.split(sep).join('/')}`;

/** The first path that is a file (a symlink to one counts: /usr/bin/python3 is one). */
const firstFile = async (paths: readonly string[]): Promise<string | null> => {
  for (const path of paths) if ((await stat(path).catch(() => null))?.isFile()) return path;
  return null;
};
