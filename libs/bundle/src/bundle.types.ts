/** The in-memory view of a skill bundle: what `readBundle` returns and `writeBundle` takes. */

export interface BundleLimits {
  /** Gzipped size of the whole bundle. Default 5 MiB. */
  maxCompressedBytes: number;
  /** Sum of the sizes of every file once decompressed. Default 25 MiB. */
  maxUncompressedBytes: number;
  /** Tar entries of any kind (files and folders). Default 2,000. */
  maxEntries: number;
  /** Uncompressed tar size / compressed size. Default 100. */
  maxCompressionRatio: number;
  /** Length of one path inside the bundle, in UTF-8 bytes. Default 512. */
  maxPathBytes: number;
}

export const DEFAULT_BUNDLE_LIMITS: Readonly<BundleLimits> = Object.freeze({
  maxCompressedBytes: 5 * 1024 * 1024,
  maxUncompressedBytes: 25 * 1024 * 1024,
  maxEntries: 2_000,
  maxCompressionRatio: 100,
  maxPathBytes: 512,
});

export interface BundleFile {
  /** POSIX path relative to the skill folder (the single top-level folder is stripped), NFC. */
  path: string;
  size: number;
  /** Lowercase hex SHA-256 of `content`. */
  sha256: string;
  /** Unix permission bits (e.g. 0o644, 0o755). */
  mode: number;
  content: Buffer;
}

export interface Bundle {
  /** Lowercase hex SHA-256 of the exact gzipped bytes received. */
  sha256: string;
  /** Size of the gzipped bytes. */
  size: number;
  /** Sum of the file sizes. */
  uncompressedSize: number;
  /** Name of the single top-level folder the entries sit under, or null when they sit at the root. */
  rootFolder: string | null;
  /** Regular files only, sorted by path (folders are implied). */
  files: BundleFile[];
}

export interface BundleInputFile {
  path: string;
  content: Buffer | string;
  mode?: number;
}
