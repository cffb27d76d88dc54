/**
 * What a sandboxed program may see and use, and the exact command line that enforces it. Pure: the
 * launcher (sandbox-launcher.ts) runs what `bwrapLaunch` or `bwrapArgv` returns; nothing here touches
 * the machine.
 *
 * The command is `prlimit <limits> -- bwrap <namespaces, mounts> -- <argv>`. Each choice:
 * - The environment: the child's is exactly `policy.env` (plus HOME, and PATH unless set), never the
 *   caller's. `bwrapLaunch` returns it beside the command line, to spawn with as the whole environment,
 *   so no value (a token the skill is given) ever appears in the host's process list. `bwrapArgv` is
 *   self-contained for spawners that add variables of their own (the MCP SDK's StdioClientTransport adds
 *   HOME, PATH, USER, …): `env -i` first, then `--clearenv` + `--setenv`, so the values are in the
 *   command line, which every user of the host can read: use it only for environments without secrets.
 * - `--as-pid-1`: the program itself is pid 1 of its own pid namespace, with no bwrap reaper beside it.
 *   Its parent is outside the namespace, so `/proc/$PPID` does not exist (PPID is 0), and no other
 *   process (whose environ or command line, with the host paths of its mounts, could be read) is there.
 *   The cost: orphans the program leaves are not reaped until the sandbox ends, which a probe or one
 *   server's lifetime bounds.
 * - Namespaces: `--unshare-user --unshare-all` (user, pid, ipc, uts, net, cgroup; the user namespace is
 *   required, not "try": without it `--uid` and `--disable-userns` cannot work), `--disable-userns` so the
 *   program cannot make a nested user namespace to win capabilities back, `--share-net` only when
 *   `policy.network`. The program runs as uid/gid 65534 (nobody) with every capability dropped
 *   (`--cap-drop ALL`) and no-new-privileges (bwrap always sets it).
 * - `--die-with-parent`: killing the launcher's child (bwrap) kills the program, and with it (pid 1) the
 *   whole pid namespace; so does the caller dying. `--new-session`: no controlling terminal to inject
 *   keystrokes into (TIOCSTI).
 * - Mounts, in this order (later ones cover earlier ones): the system folders read-only (`--ro-bind-try`,
 *   so a missing `/lib32` or a merged-/usr symlink is fine), with network only also the resolver and CA
 *   files of `/etc`; a fresh `/proc` of the sandbox's own pid namespace (the caller's processes, and so
 *   `/proc/$PPID/environ`, do not exist there) and a minimal `/dev`, read-only but for a size-capped
 *   `/dev/shm`; size-capped tmpfs `/tmp` and home (`HOME` always points there) and `policy.tmpfs`; then
 *   `policy.readOnly` and `policy.writable`. Nothing else of the host exists: bwrap's root is an empty
 *   tmpfs, remounted read-only last so that nothing can fill memory through files outside the caps.
 * - Limits (prlimit sets soft = hard, and without CAP_SYS_RESOURCE the program cannot raise a hard limit):
 *   - memory: RLIMIT_DATA (private writable memory). RLIMIT_AS is unusable for Node: V8 and WebAssembly
 *     reserve gigabytes of address space they never touch (a WebAssembly.Memory with a 4 GiB maximum
 *     fails under a 1 GiB RLIMIT_AS), while RLIMIT_DATA counts only what is writable, and stops both
 *     heap and Buffer hogs. For Node, `nodeOptionsFor` adds a V8 heap cap below it so a hog fails with
 *     V8's own out-of-memory message (the live probe sets NODE_OPTIONS over whatever a skill declares).
 *   - CPU: RLIMIT_CPU, SIGKILL when spent (soft = hard, so SIGXCPU cannot be caught to keep going).
 *   - RLIMIT_FSIZE (largest file written), RLIMIT_NOFILE, RLIMIT_CORE 0 (no core files of a secret-holding
 *     process), and `--size` on every tmpfs so the sandbox cannot fill the host's memory through files.
 *   - Wall clock: enforced by the launcher, which kills bwrap (and so the sandbox) on timeout.
 *   - Process count is not limited here: RLIMIT_NPROC is not enforced for uid 0 of the host, which the
 *     user namespace maps to when the worker runs as root, and counts every process of a non-root worker's
 *     user; the pid namespace, the wall clock and `--die-with-parent` bound a fork bomb. (A cgroup would.)
 */
import { posix } from 'node:path';
import { SandboxPolicyError } from './sandbox.errors';

export interface SandboxMount {
  /** A path on the host. */
  source: string;
  /** Where it appears inside the sandbox (absolute). */
  target: string;
}

export interface SandboxLimits {
  /** RLIMIT_CPU: CPU seconds before the kernel kills the process. */
  cpuSeconds: number;
  /** RLIMIT_DATA: private writable memory, in bytes. */
  memoryBytes: number;
  /** RLIMIT_FSIZE: the largest file the program may write, in bytes. */
  fileSizeBytes: number;
  /** RLIMIT_NOFILE: open file descriptors. */
  openFiles: number;
  /** Size of each tmpfs (`/tmp`, home and `policy.tmpfs`), in bytes. */
  tmpfsBytes: number;
}

export interface SandboxPolicy {
  /** Share the host's network (and see its resolver and CA files); false gives a loopback of its own. */
  network: boolean;
  readOnly: SandboxMount[];
  /** Host folders the program may write. None by default. */
  writable?: SandboxMount[];
  /** Extra empty, writable, size-capped folders (beside `/tmp` and home, which are always there). */
  tmpfs: string[];
  /** The child's whole environment: nothing is inherited. `HOME` is always the tmpfs home; `PATH` defaults to `DEFAULT_SANDBOX_PATH`. */
  env: Record<string, string>;
  /** Working directory inside the sandbox (absolute). */
  cwd: string;
  limits: SandboxLimits;
}

/** The programs the sandbox is built from (Debian's paths); configurable for other layouts. */
export interface SandboxTools {
  env: string;
  prlimit: string;
  bwrap: string;
}

export const SANDBOX_TOOLS: Readonly<SandboxTools> = Object.freeze({
  env: '/usr/bin/env',
  prlimit: '/usr/bin/prlimit',
  bwrap: '/usr/bin/bwrap',
});

export const SANDBOX_HOME = '/home/sandbox';
export const SANDBOX_HOSTNAME = 'sandbox';
/** nobody/nogroup: owns nothing the system mounts hold. */
export const SANDBOX_UID = 65534;
export const DEFAULT_SANDBOX_PATH = '/usr/local/bin:/usr/bin:/bin';

export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  cpuSeconds: 30,
  memoryBytes: 1024 * 1024 * 1024,
  fileSizeBytes: 64 * 1024 * 1024,
  openFiles: 1024,
  tmpfsBytes: 64 * 1024 * 1024,
});

/** What a program needs to run at all; the rest of `/` (and `/etc` above all) stays out. */
export const SYSTEM_FOLDERS: readonly string[] = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** Name resolution and TLS roots, mounted only when the policy grants network. */
export const NETWORK_FILES: readonly string[] = [
  '/etc/resolv.conf',
  '/etc/hosts',
  '/etc/nsswitch.conf',
  '/etc/ssl',
  '/etc/ca-certificates',
];

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MIB = 1024 * 1024;

/** A command line and the whole environment to start it with (nothing else may be added to it). */
export interface SandboxLaunch {
  argv: string[];
  env: Record<string, string>;
}

/**
 * `prlimit … -- bwrap … -- argv`, and the child's environment to spawn it with. `argv[0]` must be an
 * absolute path inside the sandbox (nothing is looked up in a PATH outside it).
 *
 * @throws SandboxPolicyError (`SANDBOX.INVALID_POLICY`) listing every bad path, variable or limit.
 */
export const bwrapLaunch = (
  policy: SandboxPolicy,
  argv: readonly string[],
  tools: SandboxTools = SANDBOX_TOOLS,
): SandboxLaunch => {
  assertValid(policy, argv);
  return { argv: commandLine(policy, argv, tools, []), env: childEnv(policy.env) };
};

/**
 * The self-contained command line `env -i prlimit … -- bwrap … --clearenv --setenv … -- argv`, for a
 * spawner that adds variables of its own. The environment's values are part of it.
 *
 * @throws SandboxPolicyError (`SANDBOX.INVALID_POLICY`) listing every bad path, variable or limit.
 */
export const bwrapArgv = (
  policy: SandboxPolicy,
  argv: readonly string[],
  tools: SandboxTools = SANDBOX_TOOLS,
): string[] => {
  assertValid(policy, argv);
  const env = [
    '--clearenv',
    ...Object.entries(childEnv(policy.env)).flatMap(([name, value]) => ['--setenv', name, value]),
  ];
  return [tools.env, '-i', ...commandLine(policy, argv, tools, env)];
};

const commandLine = (policy: SandboxPolicy, argv: readonly string[], tools: SandboxTools, env: string[]): string[] => {
  const { limits } = policy;
  const prlimit = [
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds}`,
    `--data=${limits.memoryBytes}:${limits.memoryBytes}`,
    `--fsize=${limits.fileSizeBytes}:${limits.fileSizeBytes}`,
    `--nofile=${limits.openFiles}:${limits.openFiles}`,
    '--core=0:0',
  ];
  const bwrap = [
    '--unshare-user',
    '--unshare-all',
    ...(policy.network ? ['--share-net'] : []),
    '--disable-userns',
    '--as-pid-1',
    ...['--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_UID)],
    ...['--hostname', SANDBOX_HOSTNAME],
    '--die-with-parent',
    '--new-session',
    ...['--cap-drop', 'ALL'],
    ...SYSTEM_FOLDERS.flatMap((folder) => ['--ro-bind-try', folder, folder]),
    ...(policy.network ? NETWORK_FILES.flatMap((file) => ['--ro-bind-try', file, file]) : []),
    ...['--proc', '/proc', '--dev', '/dev'],
    ...tmpfs('/dev/shm', '1777', limits),
    ...['--remount-ro', '/dev'],
    ...tmpfs('/tmp', '1777', limits),
    ...tmpfs(SANDBOX_HOME, '0700', limits),
    ...policy.tmpfs.flatMap((target) => tmpfs(target, '0700', limits)),
    ...policy.readOnly.flatMap((mount) => ['--ro-bind', mount.source, mount.target]),
    ...(policy.writable ?? []).flatMap((mount) => ['--bind', mount.source, mount.target]),
    ...['--remount-ro', '/'],
    ...env,
    ...['--chdir', policy.cwd],
  ];
  return [tools.prlimit, ...prlimit, '--', tools.bwrap, ...bwrap, '--', ...argv];
};

/**
 * `NODE_OPTIONS` for a Node program under `limits`: a V8 heap cap at three quarters of the memory limit,
 * so a hog ends with V8's out-of-memory error before the kernel refuses an allocation mid-way.
 */
export const nodeOptionsFor = (limits: SandboxLimits): string =>
  `--max-old-space-size=${Math.max(16, Math.floor((limits.memoryBytes * 0.75) / MIB))}`;

/** True when `path` is, or lies under, a folder the sandbox always mounts from the host. */
export const isSystemPath = (path: string): boolean =>
  SYSTEM_FOLDERS.some((folder) => path === folder || path.startsWith(`${folder}/`));

/** Sorted so the same policy always gives the same command line. */
const childEnv = (env: Record<string, string>): Record<string, string> => {
  const merged: Record<string, string> = { PATH: DEFAULT_SANDBOX_PATH, ...env, HOME: SANDBOX_HOME };
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
};

const tmpfs = (target: string, perms: string, limits: SandboxLimits): string[] => [
  '--perms',
  perms,
  '--size',
  String(limits.tmpfsBytes),
  '--tmpfs',
  target,
];

const assertValid = (policy: SandboxPolicy, argv: readonly string[]): void => {
  const problems: string[] = [];
  const checkPath = (what: string, path: string): void => {
    if (!isCleanAbsolute(path)) problems.push(`${what} '${shown(path)}' is not a normalized absolute path`);
  };
  if (argv.length === 0) problems.push('the command is empty');
  else checkPath('the program', argv[0] as string);
  for (const arg of argv) if (arg.includes('\0')) problems.push('an argument contains a NUL character');
  if (policy.cwd !== '/') checkPath('the working directory', policy.cwd);
  for (const target of policy.tmpfs) checkPath('the tmpfs', target);
  for (const mount of [...policy.readOnly, ...(policy.writable ?? [])]) {
    checkPath('the mount source', mount.source);
    checkPath('the mount target', mount.target);
  }
  for (const [name, value] of Object.entries(policy.env)) {
    if (!ENV_NAME.test(name)) problems.push(`'${shown(name)}' is not an environment variable name`);
    if (value.includes('\0')) problems.push(`the value of ${shown(name)} contains a NUL character`);
  }
  for (const [name, value] of Object.entries(policy.limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) problems.push(`the limit ${name} must be a positive integer`);
  }
  if (problems.length > 0) throw new SandboxPolicyError(problems);
};

/** Absolute, not the root itself, no `.`/`..`/empty segments, no NUL: what bwrap mounts where it says. */
const isCleanAbsolute = (path: string): boolean =>
  path.startsWith('/') && path !== '/' && !path.includes('\0') && posix.normalize(path) === path && !path.endsWith('/');

// eslint-disable-next-line no-control-regex
const shown = (text: string): string => text.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, 200);
