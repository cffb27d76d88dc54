/**
 * What the Python interpreter does to a source file before it tokenises it, so the analyser reads
 * the same program: the PEP 263 coding cookie, universal newlines, NFKC identifiers.
 */

/** PEP 263: `# -*- coding: NAME -*-`, `# vim: set fileencoding=NAME :` on line 1 or 2. */
const COOKIE = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/;

/** The encoding a coding cookie names when it is not UTF-8 (which Python calls by these names), or null. */
export function foreignCodingCookie(text: string): { name: string; line: number } | null {
  const lines = text.split('\n', 2);
  for (const [index, line] of lines.entries()) {
    const name = COOKIE.exec(line)?.[1];
    if (!name) continue;
    const normal = name.toLowerCase().replace(/_/g, '-');
    const utf8 = normal === 'utf-8' || normal === 'utf8' || normal === 'u8' || normal.startsWith('utf-8-');
    return utf8 ? null : { name, line: index + 1 };
  }
  return null;
}

/**
 * Python reads a lone carriage return as a line break; tree-sitter does not, so `# note\rexec(x)`
 * would hide code inside a comment. Same length, so node offsets stay those of the source.
 */
export const universalNewlines = (text: string): string => text.replace(/\r(?!\n)/g, '\n');

/** Python normalises identifiers with NFKC: `ｅｘｅｃ` is `exec`. */
export const pythonName = (raw: string): string => (isAscii(raw) ? raw : raw.normalize('NFKC'));

/** Any character beyond ASCII (written as a range above U+007F, so the pattern holds no control character). */
export const NON_ASCII = /[\u0080-\uffff]/;
export const isAscii = (text: string): boolean => !NON_ASCII.test(text);
