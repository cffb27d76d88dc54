/**
 * Starts programs under a SandboxPolicy: checks once that bubblewrap works here, spawns what
 * `bwrapLaunch` builds with exactly the child's environment, and kills the whole sandbox on timeout or
 * close (bwrap runs with `--die-with-parent`, so killing it takes every process inside with it).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { constants as fsConstants, realpathSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { constants as osConstants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import {
  DEFAULT_SANDBOX_LIMITS,
  SANDBOX_TOOLS,
  bwrapArgv,
  bwrapLaunch,
  isSystemPath,
  type SandboxMount,
  type SandboxPolicy,
  type SandboxTools,
} from './sandbox-policy';

export type SandboxAvailability = { ok: true } | { ok: false; reason: string };

export interface SandboxExit {
  /** bwrap's exit code: the program's own, or 128 + N when signal N killed it. */
  code: number | null;
  /** The signal that ended it: bwrap's own, or the one its `128 + N` code reports. */
  signal: NodeJS.Signals | null;
}

/**
 * A command for a spawner that adds variables of its own (the MCP SDK's StdioClientTransport adds HOME,
 * PATH, …). The environment's values are on its command line (see bwrapArgv): for a server given secrets,
 * use SandboxStdioTransport.
 */
export interface SandboxedCommand {
  command: string;
  args: string[];
  /** Empty: `env -i` drops whatever the spawner adds before bwrap starts. */
  env: Record<string, string>;
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

/** The command line for the MCP SDK's StdioClientTransport (or any spawner); see SandboxedCommand. */
export const sandboxedCommand = (
  policy: SandboxPolicy,
  argv: readonly string[],
  tools: SandboxTools = SANDBOX_TOOLS,
): SandboxedCommand => {
  const [command, ...args] = bwrapArgv(policy, argv, tools);
  return { command: command as string, args, env: {} };
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

/** Spawns `argv` in the sandbox with piped stdio. The caller must `kill()` or wait for `exited`. */
export const spawnSandboxed = (
  policy: SandboxPolicy,
  argv: readonly string[],
  tools: SandboxTools = SANDBOX_TOOLS,
): SandboxedProcess => {
  const launch = bwrapLaunch(policy, argv, tools);
  const [command, ...args] = launch.argv;
  const child: ChildProcessWithoutNullStreams = spawn(command as string, args, {
    // The child's whole environment: Node adds nothing to it, and bwrap passes it on unchanged.
    env: launch.env,
    cwd: '/',
    stdio: ['pipe', 'pipe', 'pipe'],
  });
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
    },
  };
};

/** Runs `argv` to the end (or the timeout) and returns what it printed and how it ended. */
export const runSandboxed = async (
  policy: SandboxPolicy,
  argv: readonly string[],
  options: RunSandboxedOptions,
): Promise<SandboxRunResult> => {
  const sandboxed = spawnSandboxed(policy, argv, options.tools);
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
    network: false,
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
