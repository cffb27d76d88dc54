/**
 * Limits for a whole sandbox (the server and everything it spawns), from the kernel's control groups:
 * a process count (`pids`), memory (`memory`, the tmpfs files it writes included) and a CPU quota
 * (`cpu`). Each sandbox gets a group of its own under this process's own group, so whatever limits
 * this process has (a container's) still hold above it.
 *
 * Both layouts are supported: cgroup v2 (one hierarchy; needs the controllers delegated, which holds
 * for root in a container or on a host where this process sits in the root group), and cgroup v1 with
 * `pids` and `memory` mounted writable (the development machines: v1 controllers, and a v2 hierarchy
 * holding only hugetlb). `cpu` is used when it is there. Without either, `cgroupSupport()` says why and
 * the sandbox keeps its per-process limits.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxLimits } from './sandbox-policy';

export type CgroupSupport =
  { ok: true; layout: 'v1' | 'v2'; controllers: string[]; root: CgroupRoots } | { ok: false; reason: string };

/** Controller → the folder under which this process's sandboxes get their groups. */
export type CgroupRoots = Record<string, string>;

export interface SandboxCgroup {
  /** The `cgroup.procs` files to join (one per hierarchy). */
  procs: string[];
  /** Kills whatever is left in the group. */
  killAll(): void;
  /** Removes the group (its processes must be gone); true when every folder went. */
  remove(): boolean;
}

const PERIOD_US = 100_000;
const GROUP_FOLDER = 'skillhub-sandboxes';

/** What the layout is read from: /proc/self/mountinfo, /proc/self/cgroup, and a v2 group's `cgroup.controllers`. */
export interface CgroupSources {
  mountinfo: string;
  cgroup: string;
  controllersOf: (folder: string) => string[];
}

let cached: CgroupSupport | null = null;

/** Whether this process can put sandboxes in groups of their own, and where (checked once). */
export const cgroupSupport = (): CgroupSupport => {
  cached ??= probeCgroups({
    mountinfo: readFileSync('/proc/self/mountinfo', 'utf8'),
    cgroup: readFileSync('/proc/self/cgroup', 'utf8'),
    controllersOf: (folder) => readList(join(folder, 'cgroup.controllers')),
  });
  return cached;
};

/** Where this process's groups live, per the mount table and its own memberships. Pure. */
export const cgroupLayout = (
  sources: CgroupSources,
): { layout: 'v1' | 'v2'; roots: CgroupRoots } | { reason: string } => {
  const mounts = sources.mountinfo
    .split('\n')
    .map((line) => line.split(' - '))
    .filter((parts) => parts.length === 2)
    .map(([head, tail]) => {
      const fields = head!.split(' ');
      const [type, , superOptions] = tail!.split(' ');
      return {
        point: unescape(fields[4] ?? ''),
        type,
        options: (superOptions ?? '').split(','),
        rw: fields[5]?.split(',')[0],
      };
    });
  const membership = new Map<string, string>();
  for (const line of sources.cgroup.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    if (match[1] === '') membership.set('', match[2]!);
    else for (const controller of match[1]!.split(',')) membership.set(controller, match[2]!);
  }
  const v2 = mounts.find((mount) => mount.type === 'cgroup2');
  if (v2 && membership.has('')) {
    const own = join(v2.point, membership.get('')!);
    const available = sources.controllersOf(own);
    if (available.includes('pids') && available.includes('memory')) {
      const roots = Object.fromEntries(
        ['pids', 'memory', 'cpu'].filter((c) => available.includes(c)).map((c) => [c, join(own, GROUP_FOLDER)]),
      );
      return { layout: 'v2', roots };
    }
  }
  const roots: CgroupRoots = {};
  for (const controller of ['pids', 'memory', 'cpu']) {
    const mount = mounts.find((m) => m.type === 'cgroup' && m.options.includes(controller) && m.rw === 'rw');
    const path = membership.get(controller);
    if (mount && path !== undefined) roots[controller] = join(mount.point, path, GROUP_FOLDER);
  }
  if (roots.pids && roots.memory) return { layout: 'v1', roots };
  return { reason: 'neither a cgroup v2 hierarchy with the pids and memory controllers nor cgroup v1 pids and memory' };
};

const probeCgroups = (sources: CgroupSources): CgroupSupport => {
  const layout = cgroupLayout(sources);
  if ('reason' in layout) return { ok: false, reason: layout.reason };
  try {
    if (layout.layout === 'v2') {
      // Controllers reach a child only when its parent hands them down (cgroup.subtree_control).
      const folder = Object.values(layout.roots)[0]!;
      const own = join(folder, '..');
      const wanted = Object.keys(layout.roots);
      writeFileSync(join(own, 'cgroup.subtree_control'), wanted.map((c) => `+${c}`).join(' '));
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'cgroup.subtree_control'), wanted.map((c) => `+${c}`).join(' '));
    } else {
      for (const folder of new Set(Object.values(layout.roots))) mkdirSync(folder, { recursive: true });
    }
  } catch (error) {
    return {
      ok: false,
      reason: `cannot make control groups here (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    };
  }
  return { ok: true, layout: layout.layout, controllers: Object.keys(layout.roots), root: layout.roots };
};

/** A group of its own for one sandbox, with `limits` written; undone if any write fails. */
export const createSandboxCgroup = (
  support: Extract<CgroupSupport, { ok: true }>,
  name: string,
  limits: SandboxLimits,
): SandboxCgroup => {
  const folders = [...new Set(Object.values(support.root))].map((root) => join(root, name));
  const made: string[] = [];
  const group: SandboxCgroup = {
    procs: folders.map((folder) => join(folder, 'cgroup.procs')),
    killAll: () => {
      for (const folder of folders) {
        if (support.layout === 'v2' && existsSync(join(folder, 'cgroup.kill'))) {
          tryWrite(join(folder, 'cgroup.kill'), '1');
          continue;
        }
        for (const pid of readList(join(folder, 'cgroup.procs'))) {
          try {
            process.kill(Number(pid), 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
      }
    },
    remove: () => made.every((folder) => tryRemove(folder)),
  };
  try {
    for (const folder of folders) {
      mkdirSync(folder);
      made.push(folder);
    }
    const quota = String(Math.max(1000, Math.round(limits.cpuCores * PERIOD_US)));
    const at = (controller: string, file: string): string => join(support.root[controller]!, name, file);
    writeFileSync(at('pids', 'pids.max'), String(limits.processes));
    if (support.layout === 'v2') {
      writeFileSync(at('memory', 'memory.max'), String(limits.memoryBytes));
      tryWrite(at('memory', 'memory.swap.max'), '0');
      if (support.root.cpu) writeFileSync(at('cpu', 'cpu.max'), `${quota} ${PERIOD_US}`);
    } else {
      writeFileSync(at('memory', 'memory.limit_in_bytes'), String(limits.memoryBytes));
      // Memory and swap together at the same figure, where swap accounting is on: no way around it by swapping.
      tryWrite(at('memory', 'memory.memsw.limit_in_bytes'), String(limits.memoryBytes));
      if (support.root.cpu) {
        writeFileSync(at('cpu', 'cpu.cfs_period_us'), String(PERIOD_US));
        writeFileSync(at('cpu', 'cpu.cfs_quota_us'), quota);
      }
    }
  } catch (error) {
    group.remove();
    throw error;
  }
  return group;
};

const readList = (path: string): string[] => {
  try {
    return readFileSync(path, 'utf8').split(/\s+/).filter(Boolean);
  } catch {
    return [];
  }
};

const tryWrite = (path: string, value: string): void => {
  try {
    writeFileSync(path, value);
  } catch {
    // Optional: not every kernel has it.
  }
};

const tryRemove = (folder: string): boolean => {
  try {
    rmdirSync(folder);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
};

/** mountinfo escapes spaces and the like as octal (`\040`). */
const unescape = (text: string): string =>
  text.replace(/\\([0-7]{3})/g, (_, code: string) => String.fromCharCode(parseInt(code, 8)));
