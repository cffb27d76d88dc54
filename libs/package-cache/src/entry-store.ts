/**
 * The content-addressed store under a cache's root, for any kind of package: `entries/<key>/` (one
 * per exact reference, with the record `.skillhub-entry.json` of every file in it) and `_staging/`
 * (installs in progress, renamed into place when complete, so an entry is never half there). An
 * entry already there is verified against its record, without touching the network, and refused
 * when anything changed.
 */
import { access, chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PackageInstallFailedError, PackageNoBinError, PackageTamperedError } from './package-cache.errors';
import { recordTree, treeChanges, type TreeFiles } from './package-tree';

export const ENTRY_RECORD = '.skillhub-entry.json';

/** What every entry's record holds, besides what its kind adds. */
export interface RecordedTree {
  treeDigest: string;
  files: TreeFiles;
}

export interface EntryKind<R extends RecordedTree> {
  /** The entry folder's name: one per exact reference. */
  key: string;
  /** `name@version`, for messages. */
  label: string;
  /** The record, when it describes this very reference (anything else is tampering). */
  accept(record: unknown): R | null;
  /** Installs into `staging` (an empty folder) and says what the record adds. */
  install(staging: string): Promise<Omit<R, keyof RecordedTree>>;
  /** A file the record names that must be one of the entry's (its program). */
  required(record: Omit<R, keyof RecordedTree>): string;
}

export interface StoredEntry<R> {
  entryDir: string;
  record: R;
  /** True when the entry was already there (and verified), false when this call installed it. */
  fromCache: boolean;
}

/** The verified entry, installed first when it is not there. */
export async function storedEntry<R extends RecordedTree>(root: string, kind: EntryKind<R>): Promise<StoredEntry<R>> {
  const entryDir = join(root, 'entries', kind.key);
  const cached = await readRecord(entryDir, kind);
  if (cached) return { entryDir, record: await verified(entryDir, kind, cached), fromCache: true };

  await mkdir(join(root, '_staging'), { recursive: true });
  const staging = await mkdtemp(join(root, '_staging', `${kind.key.slice(0, 16)}-`));
  try {
    // The entry is mounted into sandboxes whose user is none of the host's: readable by all (mkdtemp makes it 0700).
    await chmod(staging, 0o755);
    const added = await kind.install(staging);
    const tree = await recordTree(staging, new Set([ENTRY_RECORD]));
    if (tree.strays.length > 0) {
      throw new PackageInstallFailedError(
        `${kind.label} installed entries that are not regular files: ${tree.strays.slice(0, 5).join(', ')}`,
      );
    }
    const program = kind.required(added);
    if (!Object.hasOwn(tree.files, program)) {
      throw new PackageNoBinError(`${kind.label} names ${program} as its program, but has no such file`);
    }
    const record = { ...added, treeDigest: tree.digest, files: tree.files } as R;
    await writeFile(join(staging, ENTRY_RECORD), JSON.stringify(record));
    await mkdir(join(root, 'entries'), { recursive: true });
    try {
      await rename(staging, entryDir);
    } catch (error) {
      // Another process finished the same entry first: use (and verify) that one.
      if (!['EEXIST', 'ENOTEMPTY'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
      const theirs = await readRecord(entryDir, kind);
      if (!theirs) throw error;
      return { entryDir, record: await verified(entryDir, kind, theirs), fromCache: true };
    }
    return { entryDir, record, fromCache: false };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** The record of a complete entry, or null when there is none. A record for another reference is tampering. */
async function readRecord<R extends RecordedTree>(entryDir: string, kind: EntryKind<R>): Promise<R | null> {
  let text: string;
  try {
    text = await readFile(join(entryDir, ENTRY_RECORD), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // An entry appears only by renaming a complete install into place, so a folder without its record was changed.
    if (await exists(entryDir)) throw new PackageTamperedError(kind.label, [`${ENTRY_RECORD} was removed`]);
    return null;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new PackageTamperedError(kind.label, [`${ENTRY_RECORD} is not JSON`]);
  }
  const record = kind.accept(parsed);
  const whole =
    record !== null &&
    typeof record.treeDigest === 'string' &&
    typeof record.files === 'object' &&
    record.files !== null;
  if (!whole) throw new PackageTamperedError(kind.label, [`${ENTRY_RECORD} does not describe this package`]);
  return record;
}

async function verified<R extends RecordedTree>(entryDir: string, kind: EntryKind<R>, record: R): Promise<R> {
  const found = await recordTree(entryDir, new Set([ENTRY_RECORD]));
  const changes = treeChanges(record.files, found);
  if (found.digest !== record.treeDigest && changes.length === 0)
    changes.push('the tree digest differs from its record');
  const program = kind.required(record);
  if (!Object.hasOwn(record.files, program)) changes.push(`the program ${program} is not one of its files`);
  if (changes.length > 0) throw new PackageTamperedError(kind.label, changes);
  return record;
}

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );
