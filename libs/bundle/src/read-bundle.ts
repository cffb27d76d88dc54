/** Reads a gzipped tar skill bundle in memory, enforcing certification checks C2 (paths) and C5 (files, limits). */
import { constants as bufferConstants } from 'node:buffer';
import { gunzipSync } from 'node:zlib';
import type { Problem } from '@skillhub/errors';
import { ARCHIVE_PATH, BundleInvalidError, BundleTooLargeError, archiveProblem } from './bundle.errors';
import { PathTree, bundleFileMode, comparePaths, displayPath, pathViolations } from './bundle-rules';
import { DEFAULT_BUNDLE_LIMITS, type Bundle, type BundleFile, type BundleLimits } from './bundle.types';
import { sha256Hex } from './digest';
import { BLOCK_SIZE, END_OF_ARCHIVE_BYTES, RECORD_SIZE, paddedSize } from './tar-format';
import { TarFormatError, readTarEntries, type TarEntry } from './tar-reader';

/**
 * Below this output size the compression ratio is not enforced: tar pads even a one-line file to a
 * 10 KiB record of zeros, so tiny honest bundles can compress 50–100:1, while a bomb needs far more room.
 */
const RATIO_FLOOR_BYTES = 1024 * 1024;

/** Room for the pax records writers add besides the path (GNU tar: mtime, atime, ctime). */
const EXTENDED_RECORDS_ALLOWANCE = 512;

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

/**
 * Checks the compressed size, decompresses under a hard output cap (so a gzip bomb stops while
 * inflating), then reads every tar entry and reports all problems at once.
 *
 * @throws BundleTooLargeError (`BUNDLE.TOO_LARGE`) when the input or its expansion exceeds a limit.
 * @throws BundleInvalidError (`BUNDLE.INVALID`) with every problem found otherwise.
 */
export const readBundle = (bytes: Buffer, limits: Partial<BundleLimits> = {}): Bundle => {
  const resolved = resolveLimits(limits);
  if (bytes.length > resolved.maxCompressedBytes) {
    throw new BundleTooLargeError(
      `the bundle is ${bytes.length} bytes, more than the limit of ${resolved.maxCompressedBytes}`,
      'maxCompressedBytes',
      resolved.maxCompressedBytes,
    );
  }
  if (bytes.length < GZIP_MAGIC.length || !bytes.subarray(0, GZIP_MAGIC.length).equals(GZIP_MAGIC)) {
    throw new BundleInvalidError([archiveProblem('the bundle is not a gzip stream (it does not start with 1f 8b)')]);
  }

  const scan = scanEntries(gunzip(bytes, resolved), resolved);
  if (scan.problems.length > 0) throw new BundleInvalidError(scan.problems);

  const rootFolder = findRootFolder(scan.files, scan.folders);
  const prefixLength = rootFolder === null ? 0 : rootFolder.length + 1;
  const files: BundleFile[] = scan.files
    .map(({ path, mode, content }) => ({
      path: path.slice(prefixLength).normalize('NFC'),
      size: content.length,
      sha256: sha256Hex(content),
      mode,
      content,
    }))
    .sort((a, b) => comparePaths(a.path, b.path));

  return {
    sha256: sha256Hex(bytes),
    size: bytes.length,
    uncompressedSize: scan.uncompressedSize,
    rootFolder: rootFolder?.normalize('NFC') ?? null,
    files,
  };
};

/** Undefined overrides keep the default; anything else must be a positive number. */
const resolveLimits = (overrides: Partial<BundleLimits>): BundleLimits => {
  const limits: BundleLimits = { ...DEFAULT_BUNDLE_LIMITS };
  for (const key of Object.keys(limits) as (keyof BundleLimits)[]) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value <= 0) {
      throw new RangeError(`bundle limit ${key} must be a positive number, got ${value}`);
    }
    limits[key] = value;
  }
  return limits;
};

/**
 * Tar bytes that are not file data: per entry a header, a partial last block, and room for one pax
 * and one GNU long-name header holding a path of maximal length; then the end marker and record padding.
 */
const tarOverheadAllowance = (limits: BundleLimits): number => {
  const extendedHeader = BLOCK_SIZE + paddedSize(limits.maxPathBytes + EXTENDED_RECORDS_ALLOWANCE);
  const perEntry = 2 * BLOCK_SIZE + 2 * extendedHeader;
  return limits.maxEntries * perEntry + END_OF_ARCHIVE_BYTES + RECORD_SIZE;
};

const gunzip = (bytes: Buffer, limits: BundleLimits): Buffer => {
  const sizeCap = limits.maxUncompressedBytes + tarOverheadAllowance(limits);
  const ratioCap = Math.max(bytes.length * limits.maxCompressionRatio, RATIO_FLOOR_BYTES);
  const maxOutputLength = Math.floor(Math.min(sizeCap, ratioCap, bufferConstants.MAX_LENGTH));
  try {
    return gunzipSync(bytes, { maxOutputLength });
  } catch (error) {
    // Checked by code, not `instanceof`: zlib's errors come from Node's own realm.
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      if (ratioCap < sizeCap) {
        throw new BundleTooLargeError(
          `the bundle expands to more than ${maxOutputLength} bytes, over ${limits.maxCompressionRatio} times its ${bytes.length} compressed bytes (compression ratio limit)`,
          'maxCompressionRatio',
          limits.maxCompressionRatio,
        );
      }
      throw new BundleTooLargeError(
        `the bundle expands to more than ${maxOutputLength} bytes, over the uncompressed limit of ${limits.maxUncompressedBytes} bytes plus tar headers`,
        'maxUncompressedBytes',
        limits.maxUncompressedBytes,
      );
    }
    // zlib's own wording stays out of the message: it is an implementation detail, not the publisher's concern.
    const truncated = (error as NodeJS.ErrnoException).code === 'Z_BUF_ERROR';
    throw new BundleInvalidError([
      archiveProblem(truncated ? 'the gzip stream is truncated' : 'the gzip stream is corrupted'),
    ]);
  }
};

interface ScannedFile {
  /** Validated archive path, leading `./` removed, not yet NFC-normalized. */
  path: string;
  mode: number;
  content: Buffer;
}

interface Scan {
  files: ScannedFile[];
  folders: string[];
  uncompressedSize: number;
  problems: Problem[];
}

const scanEntries = (tar: Buffer, limits: BundleLimits): Scan => {
  const scan: Scan = { files: [], folders: [], uncompressedSize: 0, problems: [] };
  const tree = new PathTree();
  let entryCount = 0;
  /** Whether every entry was seen, so that "no files" is a finding rather than a guess. */
  let complete = true;
  try {
    for (const entry of readTarEntries(tar)) {
      entryCount++;
      if (entryCount > limits.maxEntries) {
        // A limit, like the byte limits: stopping here bounds the work.
        throw new BundleTooLargeError(
          `the archive has more than ${limits.maxEntries} entries`,
          'maxEntries',
          limits.maxEntries,
        );
      }
      inspectEntry(entry, limits, tree, scan);
    }
  } catch (error) {
    if (!(error instanceof TarFormatError)) throw error;
    complete = false;
    scan.problems.push({ path: error.entryName ?? ARCHIVE_PATH, message: error.message, severity: 'error' });
  }
  if (scan.uncompressedSize > limits.maxUncompressedBytes) {
    // Decompression allows room for tar headers, so files can still overrun the limit here.
    throw new BundleTooLargeError(
      `the files total ${scan.uncompressedSize} bytes, more than the uncompressed limit of ${limits.maxUncompressedBytes}`,
      'maxUncompressedBytes',
      limits.maxUncompressedBytes,
    );
  }
  if (complete && scan.files.length === 0) {
    scan.problems.push(archiveProblem('the archive contains no files'));
  }
  return scan;
};

const inspectEntry = (entry: TarEntry, limits: BundleLimits, tree: PathTree, scan: Scan): void => {
  const isFolder = entry.kind === 'folder';
  const name = stripLeadingDotSlash(entry.name);
  // `tar -C skill .` stores the archive root itself as `./`; it names nothing to extract.
  if (isFolder && entry.name !== '' && (name === '' || name === '.')) return;
  const path = isFolder && name.length > 1 && name.endsWith('/') ? name.slice(0, -1) : name;

  const shown = displayPath(path === '' ? entry.name : path);
  const messages = [...entry.problems, ...kindViolations(entry), ...pathViolations(path, limits.maxPathBytes)];
  for (const message of messages) scan.problems.push({ path: shown, message, severity: 'error' });
  if (messages.length > 0) return;

  scan.problems.push(...tree.add(path, isFolder ? 'folder' : 'file'));
  if (isFolder) {
    scan.folders.push(path);
  } else {
    scan.uncompressedSize += entry.content.length;
    scan.files.push({ path, mode: bundleFileMode(entry.mode), content: entry.content });
  }
};

const stripLeadingDotSlash = (name: string): string => {
  let stripped = name;
  while (stripped.startsWith('./')) stripped = stripped.slice(2);
  return stripped;
};

const kindViolations = (entry: TarEntry): string[] => {
  const target = displayPath(entry.linkName);
  switch (entry.kind) {
    case 'file':
    case 'folder':
      return [];
    case 'hardlink':
      return [`the entry is a hard link to '${target}'; links are not allowed`];
    case 'symlink':
      return [`the entry is a symbolic link to '${target}'; links are not allowed`];
    case 'char-device':
      return ['the entry is a character device; only regular files and folders are allowed'];
    case 'block-device':
      return ['the entry is a block device; only regular files and folders are allowed'];
    case 'fifo':
      return ['the entry is a FIFO; only regular files and folders are allowed'];
    case 'unknown':
      return [
        `the entry has unsupported type '${displayPath(entry.typeflag)}'; only regular files and folders are allowed`,
      ];
  }
};

/** The single top-level folder every entry sits under, or null when files sit at the root or under several folders. */
const findRootFolder = (files: readonly ScannedFile[], folders: readonly string[]): string | null => {
  const topLevel = new Set([...files.map((f) => f.path), ...folders].map((path) => path.split('/')[0]));
  if (topLevel.size !== 1) return null;
  const [candidate] = topLevel;
  return files.every((f) => f.path.includes('/')) ? candidate : null;
};
