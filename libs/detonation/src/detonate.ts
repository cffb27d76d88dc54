/**
 * Detonation (C16's evidence): runs what a skill would run (detonation-plan.ts) in the live probe's
 * sandbox (own network namespace with nothing but loopback, tmpfs home, the bundle read-only, its
 * own user when root, cgroup and rlimit limits) with honeytokens planted in its home, its working
 * folder and its environment, under `strace -f` run outside the sandbox, where the program cannot
 * reach it. What each program touched becomes events (trace-events.ts). Every program is bounded in
 * time, the whole skill too; each runs as a child process, never on the caller's event loop. It
 * never throws: what could not run is listed with the reason.
 */
import { accessSync, constants as fsConstants, createReadStream, existsSync } from 'node:fs';
import { access, chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { createInterface } from 'node:readline';
import type { Bundle } from '@skillhub/bundle';
import type { DetonationResult, DetonationRun } from '@skillhub/certification';
import { extractBundle } from '@skillhub/live-probe';
import {
  DEFAULT_SANDBOX_LIMITS,
  SANDBOX_TOOLS,
  isSystemPath,
  nodeInSandbox,
  nodeOptionsFor,
  sandboxAvailable,
  spawnSandboxed,
  type SandboxLimits,
  type SandboxMount,
  type SandboxPolicy,
  type SandboxTools,
} from '@skillhub/sandbox';
import type { NormalizedSkill } from '@skillhub/skill-formats';
import {
  HARNESS_PLACEHOLDER,
  SKILL_PLACEHOLDER,
  planDetonation,
  type Language,
  type PlannedRun,
} from './detonation-plan';
import { plantHoneytokens, type Honeytokens } from './honeytokens';
import { KAZMA_HARNESS } from './kazma-harness';
import { TRACED_CALLS, TraceEvents } from './trace-events';

/** Where the bundle is mounted (read-only) and worked in. */
export const DETONATION_SKILL_MOUNT = '/srv/skill';
const HARNESS_MOUNT = '/srv/detonation';
const HARNESS_FILE = 'kazma_harness.py';
const MIB = 1024 * 1024;

export interface DetonateOptions {
  /** Wall clock per program. Default 5 s. */
  programTimeoutMs?: number;
  /** Wall clock for the whole skill; programs past it are listed as not run. Default 20 s. */
  totalTimeoutMs?: number;
  limits?: Partial<SandboxLimits>;
  sandboxTools?: SandboxTools;
  /** strace's path on the host. */
  strace?: string;
  /** A trace larger than this stops the program (a loop flooding the tracer). Default 32 MiB. */
  maxTraceBytes?: number;
  /** Folder for the extracted bundle, the honeytokens and the traces; default the system's temporary folder. */
  workRoot?: string;
  /** False: the programs run in the same sandbox without the tracer, so nothing is seen (a benchmark's baseline). */
  trace?: boolean;
}

export const DETONATION_DEFAULTS = Object.freeze({
  programTimeoutMs: 5_000,
  totalTimeoutMs: 20_000,
  strace: '/usr/bin/strace',
  maxTraceBytes: 32 * MIB,
});

/** Tighter than a server's: a script run with no arguments needs little. */
export const DETONATION_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  ...DEFAULT_SANDBOX_LIMITS,
  cpuSeconds: 10,
  memoryBytes: 512 * MIB,
  fileSizeBytes: 16 * MIB,
  tmpfsBytes: 32 * MIB,
  processes: 64,
});

const INTERPRETERS: Readonly<Record<Exclude<Language, 'node'>, readonly string[]>> = {
  shell: ['/bin/bash', '/usr/bin/bash', '/bin/sh'],
  python: ['/usr/bin/python3', '/usr/local/bin/python3'],
};
const OUTPUT_KEPT = 16 * 1024;
const TRACE_POLL_MS = 250;

export type DetonationAvailability = { ok: true } | { ok: false; reason: string };

/** Whether detonation can run here: bubblewrap works and strace is installed. */
export const detonationAvailable = async (
  options: Pick<DetonateOptions, 'sandboxTools' | 'strace'> = {},
): Promise<DetonationAvailability> => {
  const sandbox = await sandboxAvailable(options.sandboxTools ?? SANDBOX_TOOLS);
  if (!sandbox.ok) return { ok: false, reason: `no sandbox: ${sandbox.reason}` };
  const strace = options.strace ?? DETONATION_DEFAULTS.strace;
  if (!(await isExecutable(strace))) return { ok: false, reason: `strace is not installed at ${strace}` };
  return { ok: true };
};

export interface Detonator {
  detonate(bundle: Bundle, skill: NormalizedSkill | null): Promise<DetonationResult>;
}

/**
 * A detonator that runs at most `concurrency` skills at once, the others waiting their turn (the
 * wait is not counted against their time): on a busy machine a program the CPU never reaches would
 * only reach its time limit, and show nothing.
 */
export const createDetonator = (options: DetonateOptions & { concurrency: number }): Detonator => {
  const { concurrency, ...detonateOptions } = options;
  let running = 0;
  const waiting: (() => void)[] = [];
  const turn = (): Promise<void> => {
    if (running < concurrency) {
      running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const done = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return {
    detonate: async (bundle, skill) => {
      await turn();
      try {
        return await detonate(bundle, skill, detonateOptions);
      } finally {
        done();
      }
    },
  };
};

/** Runs what the skill would run and reports what it did; never throws. */
export const detonate = async (
  bundle: Bundle,
  skill: NormalizedSkill | null,
  options: DetonateOptions = {},
): Promise<DetonationResult> => {
  const plan = planDetonation(bundle, skill);
  const result: DetonationResult = { ran: [], events: [], notRun: [...plan.notRun], outputs: [] };
  if (plan.runs.length === 0) return result;
  const notRunAll = (reason: string): DetonationResult => ({
    ...result,
    notRun: [...plan.runs.map((run) => ({ what: run.what, reason })), ...result.notRun],
  });
  const available = await detonationAvailable(options);
  if (!available.ok) return notRunAll(available.reason);
  let work: string | null = null;
  try {
    work = await mkdtemp(join(options.workRoot ?? tmpdir(), 'skillhub-detonation-'));
    const setup = await prepare(bundle, work);
    const deadline = Date.now() + (options.totalTimeoutMs ?? DETONATION_DEFAULTS.totalTimeoutMs);
    for (const [index, run] of plan.runs.entries()) {
      const left = deadline - Date.now();
      if (left <= 0) {
        result.notRun.push({ what: run.what, reason: 'the time the detonation gives one skill was spent' });
        continue;
      }
      const argv = commandLine(run, setup);
      if (typeof argv === 'string') {
        result.notRun.push({ what: run.what, reason: argv });
        continue;
      }
      const outcome = await runTraced(run, argv, setup, join(work, `trace-${index}.txt`), options, left);
      result.ran.push(outcome.ran);
      result.events.push(...outcome.events);
      if (outcome.output.trim() !== '')
        result.outputs?.push({ what: run.what, file: run.file, line: run.line, text: outcome.output });
    }
    return result;
  } catch (error) {
    return notRunAll(`the detonation failed: ${(error as Error).message}`);
  } finally {
    if (work) await rm(work, { recursive: true, force: true }).catch(() => undefined);
  }
};

interface Setup {
  skillDir: string;
  honeytokens: Honeytokens;
  mounts: SandboxMount[];
  node: { path: string; mounts: SandboxMount[] };
}

/** The bundle extracted with the `.env` honeytoken beside it (unless it ships one), the home honeytokens, the harness. */
const prepare = async (bundle: Bundle, work: string): Promise<Setup> => {
  await chmod(work, 0o700);
  const extracted = await extractBundle(bundle, work);
  const honeytokens = plantHoneytokens(DETONATION_SKILL_MOUNT);
  const honeyHome = join(work, 'home');
  const planted: typeof honeytokens.files = [];
  for (const file of honeytokens.files) {
    const host = file.under === 'home' ? join(honeyHome, file.relative) : join(extracted.dir, file.relative);
    const exists = await stat(host).catch(() => null);
    if (exists) continue; // the skill ships its own `.env`: its own, not bait
    await mkdir(dirname(host), { recursive: true, mode: 0o755 });
    await writeFile(host, file.content, { mode: 0o644 });
    planted.push(file);
  }
  await chmod(honeyHome, 0o755);
  await chmod(work, 0o755);
  const harness = join(work, 'harness');
  await mkdir(harness, { mode: 0o755 });
  await writeFile(join(harness, HARNESS_FILE), KAZMA_HARNESS, { mode: 0o644 });
  // One mount per top folder or file of the home honeytokens, so the rest of home stays a writable tmpfs.
  const homeTops = [...new Set(planted.filter((f) => f.under === 'home').map((f) => topOf(f.relative)))];
  const mounts: SandboxMount[] = [
    { source: extracted.dir, target: DETONATION_SKILL_MOUNT },
    { source: harness, target: HARNESS_MOUNT },
    ...homeTops.map((top) => ({ source: join(honeyHome, top), target: posix.join('/home/sandbox', top) })),
  ];
  return { skillDir: extracted.dir, honeytokens: { ...honeytokens, files: planted }, mounts, node: nodeInSandbox() };
};

/** `.ssh/id_rsa` → `.ssh`; `.config/gh/hosts.yml` → `.config/gh` (so `~/.config` itself stays free). */
const topOf = (relative: string): string => {
  const parts = relative.split('/');
  if (parts.length === 1) return relative;
  return parts[0] === '.config' ? parts.slice(0, 2).join('/') : (parts[0] as string);
};

/** The argv inside the sandbox, or why it cannot run (no such interpreter there). */
const commandLine = (run: PlannedRun, setup: Setup): string[] | string => {
  const interpreter = run.language === 'node' ? setup.node.path : firstPresent(INTERPRETERS[run.language]);
  if (interpreter === null) {
    return `no ${run.language === 'python' ? 'Python' : 'shell'} in the sandbox (looked for ${INTERPRETERS[run.language === 'python' ? 'python' : 'shell'].join(', ')})`;
  }
  const args = run.args.map((arg) =>
    arg
      .replace(SKILL_PLACEHOLDER, DETONATION_SKILL_MOUNT)
      .replace(HARNESS_PLACEHOLDER, posix.join(HARNESS_MOUNT, HARNESS_FILE)),
  );
  return [interpreter, ...args];
};

const interpreterPresence = new Map<string, boolean>();
const firstPresent = (paths: readonly string[]): string | null => {
  for (const path of paths) {
    let present = interpreterPresence.get(path);
    if (present === undefined) {
      present = existsExecutableSync(path);
      interpreterPresence.set(path, present);
    }
    if (present) return path;
  }
  return null;
};

interface TracedOutcome {
  ran: DetonationRun;
  events: DetonationResult['events'];
  /** What it printed on standard output, up to OUTPUT_KEPT bytes. */
  output: string;
}

const runTraced = async (
  run: PlannedRun,
  argv: string[],
  setup: Setup,
  tracePath: string,
  options: DetonateOptions,
  timeLeftMs: number,
): Promise<TracedOutcome> => {
  const limits = { ...DETONATION_LIMITS, ...options.limits };
  const policy: SandboxPolicy = {
    network: null,
    readOnly: [...(run.language === 'node' ? setup.node.mounts : []), ...setup.mounts],
    tmpfs: [],
    env: {
      ...setup.honeytokens.env,
      LANG: 'C.UTF-8',
      PYTHONDONTWRITEBYTECODE: '1',
      // Tools that look for their own updates on every run: a lookup the skill did not ask for.
      NO_UPDATE_NOTIFIER: '1',
      npm_config_update_notifier: 'false',
      PIP_DISABLE_PIP_VERSION_CHECK: '1',
      ...(run.language === 'node' ? { NODE_OPTIONS: nodeOptionsFor(limits) } : {}),
    },
    cwd: DETONATION_SKILL_MOUNT,
    limits,
  };
  const strace = options.strace ?? DETONATION_DEFAULTS.strace;
  const traced = options.trace !== false;
  const tracer = [
    strace,
    '-f',
    '-qq',
    '-y',
    '--pidns-translation',
    '-e',
    'signal=none',
    '-e',
    `trace=${TRACED_CALLS.join(',')}`,
    '-s',
    '256',
    '-o',
    tracePath,
    '--',
  ];
  const timeoutMs = Math.min(options.programTimeoutMs ?? DETONATION_DEFAULTS.programTimeoutMs, timeLeftMs);
  const maxTrace = options.maxTraceBytes ?? DETONATION_DEFAULTS.maxTraceBytes;
  const sandboxed = spawnSandboxed(policy, argv, options.sandboxTools ?? SANDBOX_TOOLS, traced ? tracer : []);
  // Output is drained (a full pipe would stall the program); the start of what it prints is kept: the agent reads it.
  const printed: Buffer[] = [];
  let kept = 0;
  sandboxed.stdout.on('data', (chunk: Buffer) => {
    if (kept < OUTPUT_KEPT) printed.push(chunk.subarray(0, OUTPUT_KEPT - kept));
    kept = Math.min(OUTPUT_KEPT, kept + chunk.length);
  });
  sandboxed.stderr.resume();
  let timedOut = false;
  let flooded = false;
  const timer = setTimeout(() => {
    timedOut = true;
    sandboxed.kill();
  }, timeoutMs);
  const watch = setInterval(() => {
    void stat(tracePath)
      .then((found) => {
        if (found.size > maxTrace) {
          flooded = true;
          sandboxed.kill();
        }
      })
      .catch(() => undefined);
  }, TRACE_POLL_MS);
  try {
    await sandboxed.spawned.then(
      () => sandboxed.stdin.end(),
      () => undefined,
    );
    const exit = await sandboxed.exited;
    const events = traced ? await readTrace(tracePath, argv[0] as string, run.what, setup, maxTrace) : [];
    return {
      ran: {
        what: run.what,
        file: run.file,
        line: run.line,
        exit: timedOut || flooded ? null : exit.code,
        // A trace past its cap stops the program like a timeout does.
        timedOut: timedOut || flooded,
      },
      events,
      output: Buffer.concat(printed).toString('utf8'),
    };
  } finally {
    clearTimeout(timer);
    clearInterval(watch);
  }
};

const readTrace = async (
  tracePath: string,
  programPath: string,
  program: string,
  setup: Setup,
  maxBytes: number,
): Promise<DetonationResult['events']> => {
  const events = new TraceEvents({ programPath, program, honeytokens: setup.honeytokens, existed: existedIn(setup) });
  const found = await stat(tracePath).catch(() => null);
  if (!found) return [];
  const lines = createInterface({ input: createReadStream(tracePath, { end: maxBytes }), crlfDelay: Infinity });
  for await (const line of lines) events.line(line);
  return events.events();
};

/** What a path of the sandbox is on the host: the bundle's copy, or a system folder (mounted as it is). */
const existedIn =
  (setup: Setup) =>
  (path: string): boolean => {
    if (path === DETONATION_SKILL_MOUNT || path.startsWith(`${DETONATION_SKILL_MOUNT}/`)) {
      return existsSync(join(setup.skillDir, path.slice(DETONATION_SKILL_MOUNT.length)));
    }
    return isSystemPath(path) && existsSync(path);
  };

const isExecutable = (path: string): Promise<boolean> =>
  access(path, fsConstants.X_OK).then(
    () => true,
    () => false,
  );

const existsExecutableSync = (path: string): boolean => {
  try {
    accessSync(path, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
};
