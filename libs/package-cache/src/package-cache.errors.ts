/** The errors the package cache throws; each code is stable so the worker and the runtime can say why. */
import { DomainError } from '@skillhub/errors';

export const PACKAGE_CACHE_INVALID_SPEC = 'PACKAGE_CACHE.INVALID_SPEC';
export const PACKAGE_CACHE_INSTALL_FAILED = 'PACKAGE_CACHE.INSTALL_FAILED';
export const PACKAGE_CACHE_INTEGRITY_MISMATCH = 'PACKAGE_CACHE.INTEGRITY_MISMATCH';
export const PACKAGE_CACHE_TAMPERED = 'PACKAGE_CACHE.TAMPERED';
export const PACKAGE_CACHE_NO_BIN = 'PACKAGE_CACHE.NO_BIN';
export const PACKAGE_CACHE_CONFIG = 'PACKAGE_CACHE.CONFIG';

/** A name, version or integrity that is not an exact npm package reference: refused before any use. */
export class InvalidPackageSpecError extends DomainError {
  constructor(readonly reasons: readonly string[]) {
    super(
      'invalid',
      PACKAGE_CACHE_INVALID_SPEC,
      `not an exact npm package: ${reasons.join('; ')}`,
      reasons.map((message) => ({ path: 'package', message, severity: 'error' as const })),
    );
  }
}

/** npm could not install the package (not found, registry unreachable, timed out). */
export class PackageInstallFailedError extends DomainError {
  constructor(message: string) {
    super('unavailable', PACKAGE_CACHE_INSTALL_FAILED, message);
  }
}

/** The registry's tarball for name@version is not the one asked for. */
export class PackageIntegrityMismatchError extends DomainError {
  constructor(
    readonly expected: string,
    readonly actual: string | null,
    what: string,
  ) {
    super(
      'conflict',
      PACKAGE_CACHE_INTEGRITY_MISMATCH,
      `${what}: the registry's tarball has integrity ${actual ?? '(none)'}, not the pinned ${expected}`,
      [],
      { expected, actual },
    );
  }
}

/** A cache entry whose files are no longer the ones installed: refused, never repaired silently. */
export class PackageTamperedError extends DomainError {
  constructor(
    what: string,
    readonly changes: readonly string[],
  ) {
    super(
      'internal',
      PACKAGE_CACHE_TAMPERED,
      `the cached ${what} was changed after it was installed: ${changes.slice(0, 5).join('; ')}${changes.length > 5 ? `; and ${changes.length - 5} more` : ''}`,
      [],
      { changes: changes.slice(0, 20) },
    );
  }
}

/** The package has no program to run: no `bin`, or several and none named after the package. */
export class PackageNoBinError extends DomainError {
  constructor(message: string) {
    super('invalid', PACKAGE_CACHE_NO_BIN, message);
  }
}

/** A cache built with options that cannot work: a start-up mistake. */
export class PackageCacheConfigError extends DomainError {
  constructor(message: string) {
    super('internal', PACKAGE_CACHE_CONFIG, message);
  }
}
