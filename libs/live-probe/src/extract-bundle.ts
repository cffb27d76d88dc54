/**
 * Writes a bundle held in memory (as `readBundle` returns it) to a fresh temporary folder, so the live
 * probe can mount it read-only into the sandbox and run a server file from it.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Bundle } from '@skillhub/bundle';

export interface ExtractedBundle {
  /** The folder holding the bundle's files (its root folder stripped, as in `Bundle.files`). */
  dir: string;
  /** Deletes the folder and everything in it. */
  remove(): Promise<void>;
}

/**
 * @throws Error for a path that would land outside the folder (readBundle never returns one; this is
 *   a second line of defence, since the folder is then given to a sandboxed program).
 */
export const extractBundle = async (bundle: Bundle, parent: string = tmpdir()): Promise<ExtractedBundle> => {
  const dir = await mkdtemp(join(parent, 'skillhub-bundle-'));
  // The sandbox's own user reads it (mkdtemp makes it 0700); its files are 0644/0755.
  await chmod(dir, 0o755);
  const remove = (): Promise<void> => rm(dir, { recursive: true, force: true });
  try {
    for (const file of bundle.files) {
      const segments = file.path.split('/');
      if (
        file.path.includes('\0') ||
        file.path.includes('\\') ||
        segments.some((s) => s === '' || s === '.' || s === '..')
      ) {
        throw new Error(`the bundle path ${JSON.stringify(file.path)} cannot be extracted`);
      }
      const path = join(dir, ...segments);
      await mkdir(dirname(path), { recursive: true });
      // `wx`: never through something already there (two names that collide on this file system).
      await writeFile(path, file.content, { flag: 'wx' });
      await chmod(path, (file.mode & 0o111) !== 0 ? 0o755 : 0o644);
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { dir, remove };
};
