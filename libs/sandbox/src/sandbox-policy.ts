/**
 * What a sandboxed program may see and use, and the exact command line that enforces it. Pure: the
 * launcher (sandbox-launcher.ts) runs what `bwrapLaunch` returns; nothing here touches the machine.
 *
 * The command is `[sh -c <join cgroups>] prlimit <limits> -- bwrap <namespaces, mounts> -- [setpriv
 * <own user>] [bridge] <argv>`, bwrap's options given on a file descriptor (`--args 3`) rather than its
 * command line. Each choice:
 * - The environment: the child's is exactly `policy.env` (plus HOME, the proxy variables with network,
 *   and PATH unless set), never the caller's. `bwrapLaunch` returns it beside the command line, to spawn
 *   with as the whole environment, so no value (a token the skill is given) ever appears in the host's
 *   process list.
 * - Pid 1 of the sandbox's own pid namespace:
 *   - Run by anyone but root, `--as-pid-1`: the program itself, with no bwrap reaper beside it. Its
 *     parent is outside the namespace, so `/proc/$PPID` does not exist (PPID is 0), and no other process
 *     (whose environ or command line, with the host paths of its mounts, could be read) is there. The
 *     cost: orphans the program leaves are not reaped until the sandbox ends, which a probe or one
 *     server's lifetime bounds.
 *   - Run by root, bwrap's own reaper, as root: the kernel clears a process's parent-death signal when
 *     its user changes, so a program that setpriv made another user would outlive a killed bwrap; the
 *     reaper keeps `--die-with-parent`, and when it dies the kernel ends the whole namespace. The program
 *     cannot signal it or read its environment (another user's); its command line (`bwrap --args 3 --`
 *     and the program's own, the mounts being on the file descriptor) is readable.
 * - Namespaces: pid, ipc, uts, net and cgroup always. The host's network namespace is
 *   never shared: a policy with `network` gets the egress proxy's Unix socket bound in and the program
 *   run behind network-bridge.ts (its pid 1), with `HTTP(S)_PROXY` pointing at it, so its only way out is
 *   the proxy (egress-proxy.ts), which refuses every address that is not public. The program has no
 *   capability and no-new-privileges (bwrap always sets it).
 * - Who it is on the host, never root:
 *   - A launch with a `user` (the caller is root): bwrap runs as root without a user namespace, so any
 *     host folder can be mounted whatever the folders above it allow, keeping only CAP_SETUID/SETGID for
 *     `setpriv`, which the program runs through: it becomes that unprivileged uid/gid (one per sandbox,
 *     see sandbox-identity.ts) with every capability and the bounding set dropped. So the sandbox owns
 *     nothing of the host, cannot signal bwrap (root), and RLIMIT_NPROC counts its processes alone. Its
 *     tmpfs folders are mode 1777, as only that one user lives there.
 *   - Otherwise: `--unshare-user` maps the sandbox's nobody (65534) to the caller, and `--disable-userns`
 *     keeps the program from making a nested user namespace to win capabilities back.
 * - `--die-with-parent`: killing the launcher's child (bwrap) kills the program, and with it (pid 1) the
 *   whole pid namespace; so does the caller dying. `--new-session`: no controlling terminal to inject
 *   keystrokes into (TIOCSTI).
 * - Mounts, in this order (later ones cover earlier ones), each preceded by the folders above it that
 *   bwrap would otherwise make 0700 (made 0755 instead): the system folders read-only (`--ro-bind-try`,
 *   so a missing `/lib32` or a merged-/usr symlink is fine), with network only also the TLS roots of
 *   `/etc` (no resolver: the proxy resolves names); a fresh `/proc` of the sandbox's own pid namespace
 *   (the caller's processes, and so `/proc/$PPID/environ`, do not exist there) and a minimal `/dev`,
 *   read-only but for a size-capped `/dev/shm`; size-capped tmpfs `/tmp` and home (`HOME` always points
 *   there) and `policy.tmpfs`; then `policy.readOnly` and `policy.writable`. Nothing else of the host
 *   exists: bwrap's root is an empty tmpfs, remounted read-only last so that nothing can fill memory
 *   through files outside the caps.
 * - Limits for the whole sandbox, when the launch names cgroups (sandbox-cgroup.ts): every process of it
 *   is in them before bwrap starts (a shell writes its own pid to each `cgroup.procs`, then execs the
 *   rest), so the pids, memory and CPU limits hold for the server and all it spawns together.
 * - Limits per process (prlimit sets soft = hard, and without CAP_SYS_RESOURCE the program cannot raise a
 *   hard limit), which hold with or without cgroups:
 *   - memory: RLIMIT_DATA (private writable memory). RLIMIT_AS is unusable for Node: V8 and WebAssembly
 *     reserve gigabytes of address space they never touch (a WebAssembly.Memory with a 4 GiB maximum
 *     fails under a 1 GiB RLIMIT_AS), while RLIMIT_DATA counts only what is writable, and stops both
 *     heap and Buffer hogs. For Node, `nodeOptionsFor` adds a V8 heap cap below it so a hog fails with
 *     V8's own out-of-memory message (the live probe sets NODE_OPTIONS over whatever a skill declares).
 *   - CPU: RLIMIT_CPU, SIGKILL when spent (soft = hard, so SIGXCPU cannot be caught to keep going).
 *   - RLIMIT_NPROC, with a `user` of its own: the processes of that uid, so of this sandbox alone. (For
 *     the host's root it is never enforced, hence the own user.)
 *   - RLIMIT_FSIZE (largest file written), RLIMIT_NOFILE, RLIMIT_CORE 0 (no core files of a secret-holding
 *     process), and `--size` on every tmpfs so the sandbox cannot fill the host's memory through files.
 *   - Wall clock: enforced by the launcher, which kills bwrap (and so the sandbox) on timeout.
 */
import { posix } from 'node:path';
import { PROXY_ENV, SANDBOX_PROXY_SOCKET, bridgedArgv } from './network-bridge';
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
  /** Processes (and threads) at once: the cgroup's `pids.max`, and RLIMIT_NPROC for a sandbox with its own user. */
  processes: number;
  /** CPU cores the whole sandbox may use at once (a cgroup's CPU quota; 0.5 is half a core). */
  cpuCores: number;
}

/** Network for a sandbox: only through the egress proxy listening on `proxySocket`. */
export interface SandboxNetwork {
  /** The proxy's Unix socket on the host (EgressProxy.socketPath). */
  proxySocket: string;
  /** The Node that runs the bridge inside: its path there and what must be mounted for it (nodeInSandbox()). */
  node: { path: string; mounts: SandboxMount[] };
}

/** Who the sandbox is on the host, and the cgroups it runs in: decided per launch, not by the policy. */
export interface SandboxLaunchOptions {
  /** An unprivileged host user to start bwrap as (see sandbox-identity.ts); none: the caller's own. */
  user?: { uid: number; gid: number } | null;
  /** `cgroup.procs` files the sandbox joins before bwrap starts (see sandbox-cgroup.ts). */
  cgroupProcs?: readonly string[];
}

export interface SandboxPolicy {
  /** Reach the outside through the egress proxy; null: a loopback of its own and nothing else. */
  network: SandboxNetwork | null;
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
  prlimit: string;
  bwrap: string;
  /** util-linux's, to start bwrap as the sandbox's own user. */
  setpriv: string;
  /** A POSIX shell, to join the cgroups before bwrap starts. */
  sh: string;
}

export const SANDBOX_TOOLS: Readonly<SandboxTools> = Object.freeze({
  prlimit: '/usr/bin/prlimit',
  bwrap: '/usr/bin/bwrap',
  setpriv: '/usr/bin/setpriv',
  sh: '/bin/sh',
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
  processes: 256,
  cpuCores: 1,
});

/** What a program needs to run at all; the rest of `/` (and `/etc` above all) stays out. */
export const SYSTEM_FOLDERS: readonly string[] = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** TLS roots, mounted only when the policy grants network (names are resolved by the proxy, outside). */
export const NETWORK_FILES: readonly string[] = ['/etc/ssl', '/etc/ca-certificates', '/etc/pki'];

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MIB = 1024 * 1024;

/** A command line and the whole environment to start it with (nothing else may be added to it). */
export interface SandboxLaunch {
  /** The command line: `… bwrap --args 3 -- <program>`. */
  argv: string[];
  env: Record<string, string>;
  /**
   * bwrap's options (namespaces, mounts), to write to its file descriptor 3, each ended by a NUL: so
   * neither the host's process list nor the sandbox's `/proc` shows the host paths of its mounts.
   */
  bwrapArgs: string[];
}

/** The file descriptor bwrap reads its arguments from. */
export const BWRAP_ARGS_FD = 3;

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
  launch: SandboxLaunchOptions = {},
): SandboxLaunch => {
  assertValid(policy, argv);
  if (launch.user && !isSystemPath(tools.setpriv)) {
    // It runs inside the sandbox, where only the system folders are.
    throw new SandboxPolicyError([
      `setpriv must lie in a system folder (${SYSTEM_FOLDERS.join(', ')}), not ${tools.setpriv}`,
    ]);
  }
  const { outer, bwrapArgs, program } = commandLine(policy, argv, tools, launch);
  return { argv: [...outer, '--args', String(BWRAP_ARGS_FD), '--', ...program], env: childEnv(policy), bwrapArgs };
};

/** Joins each `cgroup.procs` named after the count, then runs the rest: `sh -c JOIN sh <n> <files…> <argv…>`. */
const JOIN_CGROUPS =
  'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"';

const commandLine = (
  policy: SandboxPolicy,
  argv: readonly string[],
  tools: SandboxTools,
  launch: SandboxLaunchOptions,
): { outer: string[]; bwrapArgs: string[]; program: string[] } => {
  const { limits } = policy;
  const user = launch.user ?? null;
  const cgroups = launch.cgroupProcs ?? [];
  const prlimit = [
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds}`,
    `--data=${limits.memoryBytes}:${limits.memoryBytes}`,
    `--fsize=${limits.fileSizeBytes}:${limits.fileSizeBytes}`,
    `--nofile=${limits.openFiles}:${limits.openFiles}`,
    ...(user ? [`--nproc=${limits.processes}:${limits.processes}`] : []),
    '--core=0:0',
  ];
  const network = policy.network;
  // Run by root, bwrap makes the namespaces and mounts as root (any host path can be a mount source),
  // then setpriv inside makes the program the sandbox's own unprivileged user, with no capability
  // left. Run by anyone else, a user namespace maps its nobody to the caller.
  const identity = user
    ? ['--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try']
    : [
        '--unshare-user',
        '--unshare-all',
        '--disable-userns',
        '--uid',
        String(SANDBOX_UID),
        '--gid',
        String(SANDBOX_UID),
      ];
  const capabilities = user
    ? ['--cap-drop', 'ALL', '--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID']
    : ['--cap-drop', 'ALL'];
  // Only the sandbox's one user lives in its tmpfs folders; owned by root with `user`, so open to it.
  const privateTmpfs = user ? '1777' : '0700';
  // Folders made so far by passableParents, in the order the mounts below are made.
  const made = new Set<string>();
  const bwrap = [
    ...identity,
    ...(user ? [] : ['--as-pid-1']),
    ...['--hostname', SANDBOX_HOSTNAME],
    '--die-with-parent',
    '--new-session',
    ...capabilities,
    ...SYSTEM_FOLDERS.flatMap((folder) => ['--ro-bind-try', folder, folder]),
    ...passableParents(network ? NETWORK_FILES : [], made),
    ...(network ? NETWORK_FILES.flatMap((file) => ['--ro-bind-try', file, file]) : []),
    ...['--proc', '/proc', '--dev', '/dev'],
    ...tmpfs('/dev/shm', '1777', limits),
    ...['--remount-ro', '/dev'],
    ...tmpfs('/tmp', '1777', limits),
    ...passableParents([SANDBOX_HOME, ...policy.tmpfs], made),
    ...tmpfs(SANDBOX_HOME, privateTmpfs, limits),
    ...policy.tmpfs.flatMap((target) => tmpfs(target, privateTmpfs, limits)),
    ...passableParents(
      [
        ...[...policy.readOnly, ...(policy.writable ?? [])].map((mount) => mount.target),
        ...(network ? [...network.node.mounts.map((mount) => mount.target), SANDBOX_PROXY_SOCKET] : []),
      ],
      made,
    ),
    ...policy.readOnly.flatMap((mount) => ['--ro-bind', mount.source, mount.target]),
    ...(policy.writable ?? []).flatMap((mount) => ['--bind', mount.source, mount.target]),
    ...(network
      ? [
          ...network.node.mounts.flatMap((mount) => ['--ro-bind', mount.source, mount.target]),
          ...['--ro-bind', network.proxySocket, SANDBOX_PROXY_SOCKET],
        ]
      : []),
    ...['--remount-ro', '/'],
    ...['--chdir', policy.cwd],
  ];
  const bridged = network ? bridgedArgv(network.node.path, argv) : [...argv];
  const program = user
    ? [
        tools.setpriv,
        `--reuid=${user.uid}`,
        `--regid=${user.gid}`,
        '--clear-groups',
        '--inh-caps=-all',
        '--bounding-set=-all',
        '--',
        ...bridged,
      ]
    : bridged;
  const limited = [tools.prlimit, ...prlimit, '--', tools.bwrap];
  const outer =
    cgroups.length > 0 ? [tools.sh, '-c', JOIN_CGROUPS, 'sh', String(cgroups.length), ...cgroups, ...limited] : limited;
  return { outer, bwrapArgs: bwrap, program };
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

/** Sorted so the same policy always gives the same command line. With network, the proxy variables are ours. */
const childEnv = (policy: SandboxPolicy): Record<string, string> => {
  const merged: Record<string, string> = {
    PATH: DEFAULT_SANDBOX_PATH,
    ...policy.env,
    ...(policy.network ? { ...PROXY_ENV, NO_PROXY: '', no_proxy: '' } : {}),
    HOME: SANDBOX_HOME,
  };
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
};

/**
 * `--dir` (mode 0755) for each folder above `targets` not made yet, parents first. bwrap would make
 * them itself, mode 0700 and root's when it runs as root, so the sandbox's user could not pass through
 * them. Each call goes right before the mounts it is for, after any tmpfs those folders lie on (a
 * folder made before a tmpfs is mounted over it is hidden by it).
 */
const passableParents = (targets: readonly string[], made: Set<string>): string[] => {
  const folders = new Set<string>();
  for (const target of targets) {
    for (let folder = posix.dirname(target); folder !== '/'; folder = posix.dirname(folder)) {
      const kept = isSystemPath(folder) || ['/proc', '/dev'].some((f) => folder === f || folder.startsWith(`${f}/`));
      if (!kept && !made.has(folder)) folders.add(folder);
    }
  }
  const ordered = [...folders].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
  for (const folder of ordered) made.add(folder);
  return ordered.flatMap((folder) => ['--perms', '0755', '--dir', folder]);
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
  if (policy.network) checkPath('the proxy socket', policy.network.proxySocket);
  for (const mount of [...policy.readOnly, ...(policy.writable ?? []), ...(policy.network?.node.mounts ?? [])]) {
    checkPath('the mount source', mount.source);
    checkPath('the mount target', mount.target);
  }
  for (const [name, value] of Object.entries(policy.env)) {
    if (!ENV_NAME.test(name)) problems.push(`'${shown(name)}' is not an environment variable name`);
    if (value.includes('\0')) problems.push(`the value of ${shown(name)} contains a NUL character`);
  }
  for (const [name, value] of Object.entries(policy.limits)) {
    const whole = name !== 'cpuCores';
    if (!(whole ? Number.isSafeInteger(value) : Number.isFinite(value)) || value <= 0)
      problems.push(`the limit ${name} must be a positive ${whole ? 'integer' : 'number'}`);
  }
  if (problems.length > 0) throw new SandboxPolicyError(problems);
};

/** Absolute, not the root itself, no `.`/`..`/empty segments, no NUL: what bwrap mounts where it says. */
const isCleanAbsolute = (path: string): boolean =>
  path.startsWith('/') && path !== '/' && !path.includes('\0') && posix.normalize(path) === path && !path.endsWith('/');

// eslint-disable-next-line no-control-regex
const shown = (text: string): string => text.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, 200);
