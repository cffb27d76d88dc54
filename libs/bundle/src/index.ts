export * from './bundle.types';
export {
  ARCHIVE_PATH,
  BUNDLE_INVALID,
  BUNDLE_TOO_LARGE,
  BundleInvalidError,
  BundleTooLargeError,
} from './bundle.errors';
export { readBundle } from './read-bundle';
export { writeBundle, type WriteBundleOptions } from './write-bundle';
export { sha256, sha256Hex } from './digest';
