/**
 * File paths as the Python analyser folds them (`os.path.join(home, ".ssh", "id_rsa")` is
 * `~/.ssh/id_rsa`), and how it asks whether one names a credential store (credential-paths.ts).
 */
import { CREDENTIAL_WORDS, ENV_FILE, credentialIn } from './credential-paths';
import {
  UNKNOWN,
  alternatives,
  constantStrings,
  unknown,
  type PathInfo,
  type PathRoot,
  type Value,
} from './python-values';

/** Where a constant path string points. */
export function pathOfText(text: string): PathInfo {
  if (text.startsWith('~')) return { root: 'home', text };
  if (text.startsWith('/') || text.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(text)) return { root: 'absolute', text };
  return { root: 'relative', text };
}

/** A value used as a path: constant strings point where they say, anything not built from known parts is computed. */
export function pathOf(value: Value): PathInfo {
  switch (value.kind) {
    case 'str':
      return pathOfText(value.text);
    case 'ref':
    case 'unknown':
      return value.path ?? { root: 'computed', text: '*' };
    case 'union': {
      const paths = value.options.map(pathOf);
      return paths.find((path) => READ_OUTSIDE.has(path.root)) ?? (paths[0] as PathInfo);
    }
    default:
      return { root: 'computed', text: '*' };
  }
}

/** Every path a value can be (one per alternative). */
export const pathsOf = (value: Value): PathInfo[] => alternatives(value).map(pathOf);

/** Roots whose reads are outside the skill's own files. */
export const READ_OUTSIDE: ReadonlySet<PathRoot> = new Set(['home', 'absolute', 'computed']);

/** `os.path.join` semantics: an absolute part starts the path again. */
export function joinPaths(parts: readonly PathInfo[]): PathInfo {
  let result: PathInfo | null = null;
  for (const part of parts) {
    if (result === null || part.root === 'absolute' || part.root === 'home') {
      result = { ...part };
      continue;
    }
    const separator: string = result.text === '' || /[\\/]$/.test(result.text) ? '' : '/';
    result = { root: result.root, text: `${result.text}${separator}${part.text}` };
  }
  return result ?? { root: 'relative', text: '' };
}

/** The folder of a path (`os.path.dirname`, `Path.parent`), with its root kept; the home folder's is `~/..`. */
export function parentOf(path: PathInfo): PathInfo {
  if (path.root === 'home' && /^~[\\/]?$/.test(path.text)) return { root: 'home', text: '~/..' };
  const cut = Math.max(path.text.lastIndexOf('/'), path.text.lastIndexOf('\\'));
  return { root: path.root, text: cut > 0 ? path.text.slice(0, cut) : path.text };
}

/** What credential store a path names, or null. A skill's own `.env` (built from `__file__`) is its configuration. */
export function pathCredential(path: PathInfo): string | null {
  const what = credentialIn(path.text);
  return what === ENV_FILE && path.root === 'skill' ? null : what;
}

/** A string that reads as a path (a message that mentions `~/.ssh` in a sentence does not). */
export const looksLikePath = (text: string): boolean =>
  !/\s/.test(text) || /[\\/](?:login data|web data|local state|cookies)$/i.test(text);

/**
 * Words without which no path folded from a call's text can name a credential store (a cheap first
 * look): a store's own words, the pieces calls join them from, and how Python reaches the home folder.
 */
export const CREDENTIAL_HINT = new RegExp(
  `${CREDENTIAL_WORDS.source}|ssh|id_|authorized|aws|azure|credential|\\.gh|docker|kube|cookie|login|key[34]|\\.env|environ|home|getenv|expanduser|~`,
  'i',
);

/** `os.environ[key]`: the home folder for HOME, anything else is a computed string. */
export function environmentValue(key: Value): Value {
  const names = constantStrings(key);
  return names && names.some((name) => name === 'HOME' || name === 'USERPROFILE')
    ? unknown(0, { root: 'home', text: '~' })
    : UNKNOWN;
}
