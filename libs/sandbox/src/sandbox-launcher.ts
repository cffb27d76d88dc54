/**
 * Starts programs under a SandboxPolicy: checks once that bubblewrap works here, gives each sandbox a
 * host user of its own when this process is root (sandbox-identity.ts) and a control group of its own
 * where the kernel lets it (sandbox-cgroup.ts), spawns what `bwrapLaunch` builds with exactly the
 * child's environment, and kills the whole sandbox on timeout or close (bwrap runs with
 * `--die-with-parent`, so killing it takes every process inside with it), then removes its group.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { chownSync, constants as fsConstants, realpathSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { constants as osConstants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { cgroupSupport, createSandboxCgroup, type SandboxCgroup } from './sandbox-cgroup';
import { sandboxUser, unreachableMounts, type SandboxUser } from './sandbox-identity';
import {
  BWRAP_ARGS_FD,
  DEFAULT_SANDBOX_LIMITS,
  SANDBOX_TOOLS,
  bwrapLaunch,
  isSystemPath,
  type SandboxMount,
  type SandboxPolicy,
  type SandboxTools,
} from './sandbox-policy';
import { SandboxPolicyError } from './sandbox.errors';

export type SandboxAvailability = { ok: true } | { ok: false; reason: string };

export interface SandboxExit {
  /** bwrap's exit code: the program's own, or 128 + N when signal N killed it. */
  code: number | null;
  /** The signal that ended it: bwrap's own, or the one its `128 + N` code reports. */
  signal: NodeJS.Signals | null;
}

export interface SandboxedProcess {
  readonly pid: number | undefined;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Settles once the sandbox is gone; a spawn failure settles it with both fields null. */
  readonly exited: Promise<SandboxExit>;
  /** Resolves once the process runs; rejects when it could not be spawned. */
  readonly spawned: Promise<void>;
  /** SIGKILL to bwrap, which takes the whole sandbox down. Safe to call twice. */
  kill(): void;
}

export interface RunSandboxedOptions {
  /** Wall-clock limit: the sandbox is killed when it is reached. */
  timeoutMs: number;
  /** Written to the program's stdin, which is then closed. */
  input?: string | Buffer;
  /** Output kept per stream; the rest is dropped. Default 1 MiB. */
  maxOutputBytes?: number;
  tools?: SandboxTools;
  /** A program the whole launch runs under, outside the sandbox (a system-call tracer: `strace -f -o … --`). */
  tracer?: readonly string[];
}

export interface SandboxRunResult extends SandboxExit {
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

const AVAILABILITY_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
const TRUE_PROGRAMS = ['/usr/bin/true', '/bin/true'];

const availability = new Map<string, Promise<SandboxAvailability>>();

/**
 * Whether a sandbox can be started here: runs `true` once under the strictest policy this lib builds
 * (with the user namespace it requires) and caches the answer per set of tools.
 */
export const sandboxAvailable = (tools: SandboxTools = SANDBOX_TOOLS): Promise<SandboxAvailability> => {
  const key = JSON.stringify(tools);
  let cached = availability.get(key);
  if (!cached) {
    cached = checkSandbox(tools);
    availability.set(key, cached);
  }
  return cached;
};

/**
 * This process's Node binary as a sandboxed program sees it: its real path (symlinks resolved, so a
 * link in /usr to a binary elsewhere still works) and the mount that puts it there (none when it lies
 * in a system folder, as Debian's /usr/bin/node does; one for a version manager's or CI's Node).
 */
export const nodeInSandbox = (): { path: string; mounts: SandboxMount[] } => {
  const path = realpathSync(process.execPath);
  return { path, mounts: isSystemPath(path) ? [] : [{ source: path, target: path }] };
};

/** How the limits of a whole sandbox are enforced here, for the operator to read at start. */
export const sandboxEnforcement = (): string => {
  const groups = cgroupSupport();
  const user = process.getuid?.() === 0 ? 'an unprivileged host user of its own' : "this process's own (non-root) user";
  return groups.ok
    ? `cgroup ${groups.layout} (${groups.controllers.join(', ')}) per server, as ${user}`
    : `no control groups (${groups.reason}): per-process limits only, as ${user}`;
};

let groupsMade = 0;

/**
 * Spawns `argv` in the sandbox with piped stdio. The caller must `kill()` or wait for `exited`.
 * `tracer`: a program the whole launch runs under, outside the sandbox (the detonation's `strace -f
 * … --`); `kill()` then kills it, and bwrap, whose parent it is, dies with it (`--die-with-parent`).
 *
 * @throws SandboxPolicyError for a bad policy, or a mount the sandbox's own user could not read
 */
export const spawnSandboxed = (
  policy: SandboxPolicy,
  argv: readonly string[],
  tools: SandboxTools = SANDBOX_TOOLS,
  tracer: readonly string[] = [],
): SandboxedProcess => {
  const user = sandboxUser();
  let group: SandboxCgroup | null = null;
  try {
    if (user) {
      const sources = [
        ...policy.readOnly,
        ...(policy.writable ?? []),
        ...(policy.network?.node.mounts ?? []),
        ...(policy.network ? [{ source: policy.network.proxySocket, target: '' }] : []),
      ].map((mount) => mount.source);
      const unreachable = unreachableMounts(sources);
      if (unreachable.length > 0) {
        throw new SandboxPolicyError(
          unreachable.map((problem) => `the sandbox's own user (uid ${user.uid}) cannot read ${problem}`),
        );
      }
      // The proxy's socket is for this sandbox's user alone (mode 0600).
      if (policy.network) chownSync(policy.network.proxySocket, user.uid, user.gid);
    }
    const groups = cgroupSupport();
    if (groups.ok) group = createSandboxCgroup(groups, `s${process.pid}-${++groupsMade}`, policy.limits);
  } catch (error) {
    user?.release();
    throw error;
  }
  const launch = bwrapLaunch(policy, argv, tools, { user, cgroupProcs: group?.procs ?? [] });
  const [command, ...args] = [...tracer, ...launch.argv];
  const child = spawn(command as string, args, {
    // The child's whole environment: Node adds nothing to it, and bwrap passes it on unchanged.
    env: launch.env,
    cwd: '/',
    // Its fd 3 carries bwrap's arguments (BWRAP_ARGS_FD).
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  }) as ChildProcessByStdio<Writable, Readable, Readable>;
  const argsPipe = child.stdio[BWRAP_ARGS_FD] as Writable;
  argsPipe.on('error', () => undefined);
  argsPipe.end(launch.bwrapArgs.map((arg) => `${arg}\0`).join(''));
  // A program that exits without reading its input would otherwise raise EPIPE on the caller.
  child.stdin.on('error', () => undefined);
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const exited = new Promise<SandboxExit>((resolve) => {
    child.once('error', () => resolve({ code: null, signal: null }));
    // 'close', not 'exit': by then everything it wrote to stdout and stderr has been read.
    child.once('close', (code, signal) => resolve({ code, signal: signal ?? signalOfCode(code) }));
  }).then(async (exit) => {
    await dismantle(group, user);
    return exit;
  });
  // `spawned` may reject before anyone awaits it; its rejection is reported through `exited` as well.
  spawned.catch(() => undefined);
  return {
    pid: child.pid,
    stdin: child.stdin,
    stdout: child.stdout,
    stderr: child.stderr,
    exited,
    spawned,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      group?.killAll();
    },
  };
};

const GROUP_REMOVAL_TRIES = 50;
const GROUP_REMOVAL_PAUSE_MS = 20;

/**
 * Once bwrap is gone, the kernel is still taking down the processes of its pid namespace: what is left
 * is killed, and the group removed when empty (tried again briefly), then the user given back.
 */
const dismantle = async (group: SandboxCgroup | null, user: SandboxUser | null): Promise<void> => {
  if (group) {
    for (let attempt = 0; attempt < GROUP_REMOVAL_TRIES && !group.remove(); attempt++) {
      group.killAll();
      await new Promise((resolve) => setTimeout(resolve, GROUP_REMOVAL_PAUSE_MS));
    }
  }
  user?.release();
};

/** Runs `argv` to the end (or the timeout) and returns what it printed and how it ended. */
export const runSandboxed = async (
  policy: SandboxPolicy,
  argv: readonly string[],
  options: RunSandboxedOptions,
): Promise<SandboxRunResult> => {
  const sandboxed = spawnSandboxed(policy, argv, options.tools, options.tracer);
  const limit = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const stdout = capped(sandboxed.stdout, limit);
  const stderr = capped(sandboxed.stderr, limit);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    sandboxed.kill();
  }, options.timeoutMs);
  try {
    await sandboxed.spawned;
    sandboxed.stdin.end(options.input ?? '');
  } catch (error) {
    clearTimeout(timer);
    return { code: null, signal: null, stdout: '', stderr: (error as Error).message, timedOut: false };
  }
  const exit = await sandboxed.exited;
  clearTimeout(timer);
  return { ...exit, stdout: stdout(), stderr: stderr(), timedOut };
};

const checkSandbox = async (tools: SandboxTools): Promise<SandboxAvailability> => {
  for (const [name, path] of Object.entries(tools)) {
    if (!(await isExecutable(path))) return { ok: false, reason: `${name} is not installed at ${path}` };
  }
  const program = await firstExecutable(TRUE_PROGRAMS);
  if (program === null) return { ok: false, reason: `none of ${TRUE_PROGRAMS.join(', ')} exists to test bwrap with` };
  const policy: SandboxPolicy = {
    network: null,
    readOnly: [],
    tmpfs: [],
    env: {},
    cwd: '/',
    limits: DEFAULT_SANDBOX_LIMITS,
  };
  const result = await runSandboxed(policy, [program], { timeoutMs: AVAILABILITY_TIMEOUT_MS, tools });
  if (result.code === 0) return { ok: true };
  const why = result.timedOut ? `it did not finish within ${AVAILABILITY_TIMEOUT_MS} ms` : lastLine(result.stderr);
  return { ok: false, reason: `bubblewrap cannot start a sandbox here: ${why || `exit code ${result.code}`}` };
};

const isExecutable = (path: string): Promise<boolean> =>
  access(path, fsConstants.X_OK).then(
    () => true,
    () => false,
  );

const firstExecutable = async (paths: readonly string[]): Promise<string | null> => {
  for (const path of paths) if (await isExecutable(path)) return path;
  return null;
};

/** Collects up to `limit` bytes of a stream and drops the rest (the stream keeps flowing). */
const capped = (stream: Readable, limit: number): (() => string) => {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    if (size >= limit) return;
    const kept = chunk.subarray(0, limit - size);
    chunks.push(kept);
    size += kept.length;
  });
  return () => Buffer.concat(chunks).toString('utf8');
};

const lastLine = (text: string): string => text.trim().split('\n').at(-1)?.trim() ?? '';

const signalOfCode = (code: number | null): NodeJS.Signals | null => {
  if (code === null || code <= 128) return null;
  const number = code - 128;
  const entry = Object.entries(osConstants.signals).find(([, value]) => value === number);
  return entry ? (entry[0] as NodeJS.Signals) : null;
};
