/**
 * The record of an installed tree: every regular file's SHA-256 and executable bit, and one digest
 * over all of them. Anything else in the tree (a symlink, a device, a socket) is refused outright:
 * npm installs none with `--no-bin-links`, and a link could point anywhere.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** path (POSIX, relative) → `<x|->:<sha256 hex>`. */
export type TreeFiles = Record<string, string>;

export interface TreeRecord {
  files: TreeFiles;
  /** SHA-256 over the sorted `path\0entry\n` lines. */
  digest: string;
  /** What is neither a file nor a folder. */
  strays: string[];
}

/** Files hashed at once: enough to keep the disk busy, few enough never to run out of descriptors. */
const CONCURRENCY = 16;

/** Reads every file under `root` except the top-level names in `skip`. */
export const recordTree = async (root: string, skip: ReadonlySet<string>): Promise<TreeRecord> => {
  const paths: string[] = [];
  const strays: string[] = [];
  const walk = async (folder: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = `${prefix}${entry.name}`;
      if (prefix === '' && skip.has(entry.name)) continue;
      if (entry.isDirectory()) await walk(join(folder, entry.name), `${path}/`);
      else if (entry.isFile()) paths.push(path);
      else strays.push(path);
    }
  };
  await walk(root, '');

  const files: TreeFiles = {};
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const path = paths[next++] as string;
      const full = join(root, path);
      const [{ mode }, content] = await Promise.all([stat(full), readFile(full)]);
      files[path] = `${(mode & 0o111) !== 0 ? 'x' : '-'}:${createHash('sha256').update(content).digest('hex')}`;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { files: sortKeys(files), digest: treeDigest(files), strays: strays.sort() };
};

export const treeDigest = (files: TreeFiles): string => {
  const hash = createHash('sha256');
  for (const [path, entry] of Object.entries(sortKeys(files))) hash.update(`${path}\0${entry}\n`);
  return hash.digest('hex');
};

/** What differs between the recorded files and the ones found, each in a short phrase. */
export const treeChanges = (recorded: TreeFiles, found: TreeRecord): string[] => {
  const changes = found.strays.map((path) => `${path} is not a regular file`);
  for (const [path, entry] of Object.entries(found.files)) {
    if (!Object.hasOwn(recorded, path)) changes.push(`${path} was added`);
    else if (recorded[path] !== entry) changes.push(`${path} was modified`);
  }
  for (const path of Object.keys(recorded)) if (!Object.hasOwn(found.files, path)) changes.push(`${path} was removed`);
  return changes;
};

const sortKeys = (files: TreeFiles): TreeFiles =>
  Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
