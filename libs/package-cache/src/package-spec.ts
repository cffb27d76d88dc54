/**
 * An exact npm package reference (name, version, the registry's sha512 integrity), checked before any
 * of it reaches a file path or an npm command line. Pure.
 */
import { createHash } from 'node:crypto';
import { valid } from 'semver';
import { InvalidPackageSpecError } from './package-cache.errors';

export interface PackageSpec {
  name: string;
  version: string;
  /** The registry's `dist.integrity`: SRI sha512. */
  integrity: string;
}

/**
 * npm's rules for new package names: lowercase, URL-safe, at most 214 characters, optionally scoped,
 * not starting with `.` or `_`. No `/` outside the scope separator, so no path tricks (`../x`).
 */
const NPM_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
const MAX_NAME_LENGTH = 214;
/** X.Y.Z with an optional prerelease: a registry strips build metadata, so a `+build` version is not exact. */
const EXACT_VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?$/;
/** One sha512 in SRI form (64 bytes, base64). */
const SHA512_SRI = /^sha512-[A-Za-z0-9+/]{86}==$/;

/** @throws InvalidPackageSpecError listing every reason the reference is not exact. */
export const assertPackageSpec = (spec: PackageSpec): void => {
  const reasons: string[] = [];
  const { name, version, integrity } = spec;
  if (typeof name !== 'string' || !NPM_NAME.test(name) || name.length > MAX_NAME_LENGTH || name === 'node_modules') {
    reasons.push(`'${shown(name)}' is not an npm package name`);
  }
  if (typeof version !== 'string' || !EXACT_VERSION.test(version) || valid(version) !== version) {
    reasons.push(`'${shown(version)}' is not an exact version`);
  }
  if (typeof integrity !== 'string' || !SHA512_SRI.test(integrity)) {
    reasons.push(`'${shown(integrity)}' is not a sha512 integrity`);
  }
  if (reasons.length > 0) throw new InvalidPackageSpecError(reasons);
};

/** The cache entry's folder name: one per exact reference, so another integrity never shares an entry. */
export const packageEntryKey = (spec: PackageSpec): string =>
  createHash('sha256').update(`${spec.name}@${spec.version}\0${spec.integrity}`).digest('hex');

export const packageLabel = (spec: PackageSpec): string => `${spec.name}@${spec.version}`;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;

const shown = (value: unknown): string => String(value).replace(CONTROL, '?').slice(0, 100);
