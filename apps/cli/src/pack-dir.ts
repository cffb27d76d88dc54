/** Reads a skill folder into bundle input files, and packs it deterministically. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { writeBundle, type BundleInputFile } from '@skillhub/bundle';
import { CliError, EXIT } from './exit-codes';

/** Folders that never belong in a bundle. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['.git', 'node_modules', '__pycache__']);

/** Regular files under `dir`, paths relative to it with `/`, sorted by byte order of their paths. */
export function readSkillDir(dir: string): BundleInputFile[] {
  const root = resolve(dir);
  let stat;
  try {
    stat = statSync(root);
  } catch {
    throw new CliError(`${dir}: no such folder`, EXIT.usage, 'Pass the folder that holds the skill manifest.');
  }
  if (!stat.isDirectory()) throw new CliError(`${dir}: not a folder`, EXIT.usage, 'Pass the skill folder, not a file.');
  const files: BundleInputFile[] = [];
  const walk = (abs: string, rel: string): void => {
    for (const entry of readdirSync(abs, { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      const full = join(abs, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(full, path);
      } else if (entry.isFile()) {
        files.push({ path, content: readFileSync(full), mode: statSync(full).mode & 0o777 });
      }
      // Links and other entries are left out: a bundle may not hold them.
    }
  };
  walk(root, '');
  return files.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
}

/** The folder as a gzipped tar under its own name: the same folder always gives the same bytes. */
export function packDir(dir: string): Buffer {
  const files = readSkillDir(dir);
  if (files.length === 0) throw new CliError(`${dir}: the folder is empty`, EXIT.usage);
  return writeBundle(files, { rootFolder: basename(resolve(dir)) });
}
