/** The rules a bundle's entries obey (check C2 paths, file modes, order), shared by the reader and writer. */
import type { Problem } from '@skillhub/errors';

export type PathKind = 'file' | 'folder';

/**
 * Everything wrong with one archive path (already stripped of a leading `./` and of a folder's
 * trailing `/`). Returns every violation, not just the first, so a publisher can fix them in one go.
 */
export const pathViolations = (path: string, maxPathBytes: number): string[] => {
  if (path.length === 0) return ['the name is empty'];
  const violations: string[] = [];
  if (path.includes('\0')) violations.push('the name contains a NUL character');
  if (path.includes('\\')) violations.push('the name contains a backslash');
  // A drive letter makes the path absolute once extracted on Windows.
  const absolute = path.startsWith('/') || /^[A-Za-z]:/.test(path);
  if (absolute) violations.push('the path is absolute');
  const segments = path.replace(/^\/+/, '').split('/');
  if (segments.includes('..')) violations.push("the path contains a '..' segment");
  if (segments.some((s) => s === '' || s === '.')) {
    violations.push("the path contains an empty or '.' segment");
  }
  const bytes = Buffer.byteLength(path, 'utf8');
  if (bytes > maxPathBytes) {
    violations.push(`the path is ${bytes} bytes long, more than the limit of ${maxPathBytes}`);
  }
  return violations;
};

/** The key two names share when a case-insensitive or normalizing file system would merge them. */
const foldKey = (path: string): string => path.normalize('NFC').toLowerCase();

/**
 * Tracks every file and folder (explicit or implied by a deeper path) so that names which would land
 * on the same place once extracted are caught: case-fold / NFC collisions, duplicates, and a path
 * that is a file in one entry and a folder in another.
 */
export class PathTree {
  private readonly nodes = new Map<string, { path: string; kind: PathKind }>();
  /** Paths already reported: a clash on a folder is reported once, however many entries imply that folder. */
  private readonly reported = new Set<string>();

  add(path: string, kind: PathKind): Problem[] {
    const segments = path.split('/');
    const problems: Problem[] = [];
    for (let depth = 1; depth < segments.length; depth++) {
      problems.push(...this.register(segments.slice(0, depth).join('/'), 'folder'));
    }
    problems.push(...this.register(path, kind));
    return problems;
  }

  private register(path: string, kind: PathKind): Problem[] {
    const key = foldKey(path);
    const existing = this.nodes.get(key);
    if (!existing) {
      this.nodes.set(key, { path, kind });
      return [];
    }
    const shown = displayPath(path);
    let message: string | null = null;
    if (existing.path !== path) {
      message = `'${shown}' and '${displayPath(existing.path)}' collide after Unicode NFC normalization and case folding`;
    } else if (existing.kind !== kind) {
      message = `'${shown}' is both a file and a folder`;
    } else if (kind === 'file') {
      message = `'${shown}' appears more than once`;
    }
    if (message === null || this.reported.has(path)) return [];
    this.reported.add(path);
    return [{ path: shown, message, severity: 'error' }];
  }
}

/** Control characters (NUL above all) are escaped so a reported path is safe to log and to put in JSON. */
export const displayPath = (path: string): string =>
  // eslint-disable-next-line no-control-regex
  path.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Only "executable or not" survives: setuid, setgid, sticky and group/world-write bits must never travel
 * with a skill to the machines that install it.
 */
export const bundleFileMode = (mode: number): number => ((mode & 0o111) !== 0 ? 0o755 : 0o644);

/** Byte order of the UTF-8 encoding: the same on every machine and locale, unlike `localeCompare`. */
export const comparePaths = (a: string, b: string): number =>
  Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
