/** Reads a skill folder into bundle input files, and packs it deterministically. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { writeBundle, type BundleInputFile } from '@skillhub/bundle';
import { detectFormat, type SkillFile } from '@skillhub/skill-formats';
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

/** The folder's files as the parsers take them, contents as bytes. */
export const asSkillFiles = (files: readonly BundleInputFile[]): SkillFile[] =>
  files.map((f) => ({ path: f.path, content: typeof f.content === 'string' ? Buffer.from(f.content) : f.content }));

/**
 * The folder as a gzipped tar under its own name: the same folder always gives the same bytes. A
 * folder without exactly one skill manifest at its root is refused before anything is packed (or
 * uploaded), with the manifests looked for and the files found (the hub's own detection).
 */
export function packDir(dir: string): Buffer {
  const files = readSkillDir(dir);
  if (files.length === 0) throw new CliError(`${dir}: the folder is empty`, EXIT.usage);
  const detected = detectFormat(asSkillFiles(files));
  if (!detected.ok) {
    // The hub lists the root's files only; a folder of folders (`libs`) is named by them here.
    const folders = [...new Set(files.filter((f) => f.path.includes('/')).map((f) => f.path.split('/')[0]!))];
    const only = files.every((f) => f.path.includes('/'))
      ? ` (only folders at its root: ${folders.slice(0, 10).join(', ')})`
      : '';
    throw new CliError(
      `${dir} is not a skill folder: ${detected.problem.message}${only}`,
      EXIT.refused,
      'Pass the folder that holds the manifest, or create one: skillhub init <dir> --format kazma|swarmkit|agent-skill',
    );
  }
  return writeBundle(files, { rootFolder: basename(resolve(dir)) });
}
