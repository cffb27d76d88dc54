/** Exact npm packages, installed once with their integrity checked and re-verified on every use. */
export { PackageCache, type InstalledPackage, type PackageCacheOptions } from './package-cache';
export { assertPackageSpec, type PackageSpec } from './package-spec';
export {
  InvalidPackageSpecError,
  PACKAGE_CACHE_CONFIG,
  PACKAGE_CACHE_INSTALL_FAILED,
  PACKAGE_CACHE_INTEGRITY_MISMATCH,
  PACKAGE_CACHE_INVALID_SPEC,
  PACKAGE_CACHE_NO_BIN,
  PACKAGE_CACHE_TAMPERED,
  PackageCacheConfigError,
  PackageInstallFailedError,
  PackageIntegrityMismatchError,
  PackageNoBinError,
  PackageTamperedError,
} from './package-cache.errors';
export {
  PYTHON_INTERPRETERS,
  PythonPackageCache,
  type InstalledPythonPackage,
  type PythonCacheOptions,
} from './python-cache';
export { assertPythonLock, type LockedWheel, type PythonLock } from './python-lock';
