/**
 * `skillhub-lock.json`: what `install` resolved, so that `install --frozen` (CI, a team) installs
 * exactly the same bytes under exactly the same certificate, or nothing. Keys are sorted and the
 * file ends with a line break, so the same installs always write the same file (docs/cli.md).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { sha256Hex } from '@skillhub/bundle';
import { canonicalJson } from '@skillhub/signing';
import { CliError, EXIT } from './exit-codes';

export const LOCKFILE = 'skillhub-lock.json';
const LOCKFILE_VERSION = 1;

export interface LockEntry {
  /** What was asked for: `update` and `outdated` stay within it. */
  range: string;
  version: string;
  bundle_sha256: string;
  /** SHA-256 of the certificate's DSSE envelope in canonical JSON: the log leaf's content. */
  certificate_sha256: string;
  log_index: number;
}

export interface Lockfile {
  lockfile_version: typeof LOCKFILE_VERSION;
  /** The hub it was resolved against, and the log origin its checkpoints are signed under. */
  hub: string;
  log_origin: string;
  /** By `author/name`. */
  skills: Record<string, LockEntry>;
}

/** The digest a lock entry pins for a certificate: canonical, so whitespace or key order in transit do not count. */
export const certificateDigest = (envelope: unknown): string => sha256Hex(Buffer.from(canonicalJson(envelope)));

const SHA256_HEX = /^[0-9a-f]{64}$/;
const REF = /^[^/@\s]+\/[^/@\s]+$/;

/** The lock at `path`; null when there is none. A lock that does not read is refused, naming what is wrong. */
export function readLockfile(path: string): Lockfile | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CliError(`${path}: ${(err as Error).message}`, EXIT.other);
  }
  const bad = (what: string): never => {
    throw new CliError(
      `${path}: ${what}`,
      EXIT.refused,
      `Restore it from version control, or delete it and install again.`,
    );
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return bad('not valid JSON');
  }
  const lock = value as Partial<Lockfile>;
  if (typeof lock !== 'object' || lock === null) return bad('not a lockfile');
  if (lock.lockfile_version !== LOCKFILE_VERSION) return bad(`lockfile_version must be ${LOCKFILE_VERSION}`);
  if (typeof lock.hub !== 'string' || typeof lock.log_origin !== 'string')
    return bad('hub and log_origin are required');
  if (typeof lock.skills !== 'object' || lock.skills === null) return bad('skills is required');
  for (const [ref, entry] of Object.entries(lock.skills)) {
    const e = entry as Partial<LockEntry>;
    if (!REF.test(ref)) bad(`"${ref}" is not author/name`);
    if (typeof e.range !== 'string' || typeof e.version !== 'string') bad(`${ref}: range and version are required`);
    if (typeof e.bundle_sha256 !== 'string' || !SHA256_HEX.test(e.bundle_sha256))
      bad(`${ref}: bundle_sha256 is not a SHA-256`);
    if (typeof e.certificate_sha256 !== 'string' || !SHA256_HEX.test(e.certificate_sha256)) {
      bad(`${ref}: certificate_sha256 is not a SHA-256`);
    }
    if (!Number.isSafeInteger(e.log_index) || (e.log_index as number) < 0) bad(`${ref}: log_index is not an index`);
  }
  return lock as Lockfile;
}

/** Sorted by skill and by key, written beside and renamed over the old one. */
export function writeLockfile(path: string, lock: Lockfile): void {
  const skills = Object.fromEntries(
    Object.keys(lock.skills)
      .sort()
      .map((ref) => {
        const e = lock.skills[ref]!;
        const entry: LockEntry = {
          range: e.range,
          version: e.version,
          bundle_sha256: e.bundle_sha256,
          certificate_sha256: e.certificate_sha256,
          log_index: e.log_index,
        };
        return [ref, entry];
      }),
  );
  const ordered: Lockfile = { lockfile_version: LOCKFILE_VERSION, hub: lock.hub, log_origin: lock.log_origin, skills };
  const staged = `${path}.tmp`;
  writeFileSync(staged, `${JSON.stringify(ordered, null, 2)}\n`, { mode: 0o644 });
  renameSync(staged, path);
}

/** Where a served version differs from its lock entry; empty when it is the locked one. */
export function lockDifferences(
  entry: LockEntry,
  served: { version?: string; bundle_sha256?: string; certificate_sha256?: string; log_index?: number },
): string[] {
  const keys = ['version', 'bundle_sha256', 'certificate_sha256', 'log_index'] as const;
  return keys
    .filter((key) => served[key] !== undefined && served[key] !== entry[key])
    .map((key) => `${key} is ${String(served[key])} on the hub, ${String(entry[key])} in the lock`);
}
