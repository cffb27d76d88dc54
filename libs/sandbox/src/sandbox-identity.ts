/**
 * Who a sandbox is on the host. Run by root, each sandbox gets an unprivileged uid/gid of its own
 * (SANDBOX_UID_BASE + a slot no other live sandbox of this process holds, spread by process id so two
 * processes on one host rarely meet), so that it is never the host's root, owns no host file, and
 * RLIMIT_NPROC counts its processes alone. Run by anyone else, the sandbox is that user (bwrap maps its
 * nobody to the caller), which is not root either.
 *
 * Such a user reads only what any user may: bwrap mounts each folder as root (the folders above it do
 * not matter), but what is mounted must be world-readable. `unreachableMounts` names what is not, so
 * the launch fails with the path instead of the program failing inside with EACCES.
 */
import { statSync } from 'node:fs';

/** Far above the ranges distributions give people (1000+) and user namespaces (subuid 100000+). */
export const SANDBOX_UID_BASE = 1_800_000_000;
const SLOTS_PER_PROCESS = 4096;
const PROCESS_SPREAD = 1000;

export interface SandboxUser {
  uid: number;
  gid: number;
  /** Gives the slot back once the sandbox is gone. */
  release(): void;
}

const taken = new Set<number>();
let next = 0;

/** A uid/gid of its own for one sandbox when this process is root; null otherwise (the caller's own user is used). */
export const sandboxUser = (): SandboxUser | null => {
  if (process.getuid?.() !== 0) return null;
  if (taken.size >= SLOTS_PER_PROCESS) throw new Error(`more than ${SLOTS_PER_PROCESS} sandboxes at once`);
  while (taken.has(next)) next = (next + 1) % SLOTS_PER_PROCESS;
  const slot = next;
  taken.add(slot);
  next = (next + 1) % SLOTS_PER_PROCESS;
  const id = SANDBOX_UID_BASE + (process.pid % PROCESS_SPREAD) * SLOTS_PER_PROCESS + slot;
  return { uid: id, gid: id, release: () => taken.delete(slot) };
};

/** Mount sources a user with none of the host's ids cannot read: a folder without `o+rx`, a file without `o+r`. */
export const unreachableMounts = (sources: readonly string[]): string[] => {
  const problems: string[] = [];
  for (const source of sources) {
    const problem = blocker(source);
    if (problem) problems.push(`${source}: ${problem}`);
  }
  return problems;
};

const blocker = (source: string): string | null => {
  const found = statSync(source, { throwIfNoEntry: false });
  if (!found) return 'does not exist';
  const needed = found.isDirectory() ? 0o005 : found.isSocket() ? 0 : 0o004;
  if ((found.mode & needed) !== needed) return `not readable by other users (mode ${octal(found.mode)})`;
  return null;
};

const octal = (mode: number): string => (mode & 0o777).toString(8).padStart(4, '0');
