/**
 * One JSON file of the state a runtime keeps between runs (pinned hub keys, the last checkpoint,
 * the last revocation list, tool pins): private to its owner, and replaced atomically, so a crash
 * mid-write leaves the old file rather than half a new one.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export class JsonStateFile<T> {
  constructor(readonly path: string) {}

  /** Null when the file does not exist yet; a file that exists but does not read or parse throws, naming it. */
  read(): T | null {
    try {
      return JSON.parse(readFileSync(this.path, 'utf8')) as T;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new Error(`${this.path} is unreadable: ${(err as Error).message}`, { cause: err });
    }
  }

  /** Written beside the file, then renamed over it (a rename within one folder is atomic). */
  write(value: T): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const staged = `${this.path}.tmp`;
    writeFileSync(staged, JSON.stringify(value, null, 2), { mode: 0o600 });
    renameSync(staged, this.path);
  }
}
