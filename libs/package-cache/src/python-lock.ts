/**
 * A Python server's lock: the release it runs and every wheel pip installs for it, each by its
 * sha256, as the certifier resolved them and the certificate records them. Checked before any of
 * it reaches a file path or a pip command line. Pure.
 */
import { createHash } from 'node:crypto';
import { InvalidPackageSpecError } from './package-cache.errors';

export interface LockedWheel {
  /** PEP 503 normalized. */
  name: string;
  version: string;
  /** The wheel's sha256, lowercase hex. */
  sha256: string;
}

export interface PythonLock {
  /** The release the server is (`uvx <name>==<version>`), one of `wheels`. */
  name: string;
  version: string;
  wheels: LockedWheel[];
}

const NORMALIZED_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** PEP 440's characters, no spaces or operators: an exact version only. */
const EXACT_VERSION = /^[0-9][0-9A-Za-z.!+_-]{0,63}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** More than any real server's dependency tree. */
export const MAX_LOCKED_WHEELS = 200;

/** @throws InvalidPackageSpecError listing every reason the lock is not exact. */
export const assertPythonLock = (lock: PythonLock): void => {
  const reasons: string[] = [];
  const wheels = Array.isArray(lock?.wheels) ? lock.wheels : [];
  if (wheels.length === 0 || wheels.length > MAX_LOCKED_WHEELS)
    reasons.push(`a lock has 1 to ${MAX_LOCKED_WHEELS} wheels, not ${wheels.length}`);
  const names = new Set<string>();
  for (const wheel of wheels) {
    if (typeof wheel?.name !== 'string' || !NORMALIZED_NAME.test(wheel.name) || wheel.name.length > 100)
      reasons.push(`'${String(wheel?.name).slice(0, 100)}' is not a normalized PyPI name`);
    else if (names.has(wheel.name)) reasons.push(`${wheel.name} is locked twice`);
    names.add(wheel?.name);
    if (typeof wheel?.version !== 'string' || !EXACT_VERSION.test(wheel.version))
      reasons.push(`'${String(wheel?.version).slice(0, 64)}' is not an exact version`);
    if (typeof wheel?.sha256 !== 'string' || !SHA256_HEX.test(wheel.sha256))
      reasons.push(`the wheel of ${String(wheel?.name).slice(0, 100)} has no sha256`);
  }
  if (!wheels.some((wheel) => wheel?.name === lock?.name && wheel?.version === lock?.version))
    reasons.push(`the lock does not hold the release it runs (${String(lock?.name)}==${String(lock?.version)})`);
  if (reasons.length > 0) throw new InvalidPackageSpecError(reasons);
};

/** The cache entry's folder name: one per exact lock (whatever the order of its wheels), never shared with an npm entry. */
export const pythonEntryKey = (lock: PythonLock): string =>
  `py-${createHash('sha256')
    .update(
      JSON.stringify([
        lock.name,
        lock.version,
        [...lock.wheels]
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
          .map((wheel) => [wheel.name, wheel.version, wheel.sha256]),
      ]),
    )
    .digest('hex')}`;

export const pythonLabel = (lock: PythonLock): string => `${lock.name}==${lock.version}`;

/** pip's requirements file for the lock: every wheel by name, version and hash. */
export const requirementsOf = (lock: PythonLock): string =>
  lock.wheels.map((wheel) => `${wheel.name}==${wheel.version} --hash=sha256:${wheel.sha256}\n`).join('');
