/**
 * File paths as the Python analyser folds them (`os.path.join(home, ".ssh", "id_rsa")` is
 * `~/.ssh/id_rsa`), and the credential files a skill has no business reading.
 */
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

/** The folder of a path (`os.path.dirname`, `Path.parent`), with its root kept. */
export function parentOf(path: PathInfo): PathInfo {
  const cut = Math.max(path.text.lastIndexOf('/'), path.text.lastIndexOf('\\'));
  return { root: path.root, text: cut > 0 ? path.text.slice(0, cut) : path.text };
}

/** Credential stores by what they are, matched on a path with `/` separators, lower-cased. */
const CREDENTIAL_PATTERNS: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /(?:^|\/)\.ssh(?:\/|$)/, what: 'SSH keys' },
  { pattern: /(?:^|\/)id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?:$|[^a-z0-9])/, what: 'an SSH private key' },
  { pattern: /(?:^|\/)authorized_keys2?$/, what: 'SSH authorized keys' },
  { pattern: /(?:^|\/)\.aws(?:\/|$)/, what: 'AWS credentials' },
  { pattern: /(?:^|\/)\.config\/gcloud(?:\/|$)/, what: 'Google Cloud credentials' },
  { pattern: /(?:^|\/)\.azure(?:\/|$)/, what: 'Azure credentials' },
  { pattern: /(?:^|\/)[._]netrc$/, what: 'a .netrc file' },
  { pattern: /(?:^|\/)\.git-credentials$/, what: 'Git credentials' },
  { pattern: /(?:^|\/)\.config\/gh\/hosts\.ya?ml$/, what: 'GitHub CLI tokens' },
  { pattern: /(?:^|\/)\.docker\/config\.json$/, what: 'Docker registry credentials' },
  { pattern: /(?:^|\/)\.kube\/config$/, what: 'a Kubernetes config' },
  { pattern: /(?:^|\/)\.npmrc$/, what: 'an .npmrc' },
  { pattern: /(?:^|\/)\.pypirc$/, what: 'a .pypirc' },
  { pattern: /(?:^|\/)etc\/(?:shadow|gshadow|passwd|sudoers)$/, what: 'system account files' },
  { pattern: /(?:^|\/)\.gnupg(?:\/|$)/, what: 'GnuPG keys' },
  { pattern: /(?:^|\/)library\/keychains(?:\/|$)|\.keychain(?:-db)?$/, what: 'a keychain' },
  // Only as a file in a folder: a bare "cookies" is more often a dictionary key than a browser's database.
  {
    pattern: /.\/(?:cookies|cookies\.sqlite|login data|web data|logins\.json|key[34]\.db|local state)$/,
    what: 'browser cookies or saved logins',
  },
];

/** `.env` files hold the user's secrets, except the templates shipped beside them. */
const ENV_FILE = /(?:^|\/)\.env(?:\.(?!example$|sample$|template$|dist$|defaults?$)[a-z0-9_-]+)?$/;

/** What credential store a path names, or null. A skill's own `.env` (built from `__file__`) is its configuration. */
export function credentialIn(path: PathInfo): string | null {
  const text = path.text.replace(/\\/g, '/').toLowerCase();
  for (const { pattern, what } of CREDENTIAL_PATTERNS) if (pattern.test(text)) return what;
  if (path.root !== 'skill' && ENV_FILE.test(text)) return 'a .env file';
  return null;
}

/** Where a word of a credential store's path may be written in a source (a cheap first look for string literals). */
export const CREDENTIAL_WORDS =
  /\.ssh|id_(?:rsa|dsa|ecdsa|ed25519)|authorized_keys|\.aws|gcloud|\.azure|netrc|git-credentials|\.docker|\.kube|npmrc|pypirc|shadow|passwd|sudoers|gnupg|keychain|cookies|login data|web data|logins\.json|key[34]\.db|local state|hosts\.ya?ml/gi;

/** A string that reads as a path (a message that mentions `~/.ssh` in a sentence does not). */
export const looksLikePath = (text: string): boolean =>
  !/\s/.test(text) || /[\\/](?:login data|web data|local state|cookies)$/i.test(text);

/** Words without which no path folded from a call's text can name a credential store (a cheap first look). */
export const CREDENTIAL_HINT =
  /ssh|id_|authorized|aws|gcloud|azure|netrc|credential|\.gh|docker|kube|npmrc|pypirc|shadow|passwd|sudoers|gnupg|keychain|cookie|login|web data|local state|key[34]|\.env|environ|home|getenv|expanduser|~/i;

/** `os.environ[key]`: the home folder for HOME, anything else is a computed string. */
export function environmentValue(key: Value): Value {
  const names = constantStrings(key);
  return names && names.some((name) => name === 'HOME' || name === 'USERPROFILE')
    ? unknown(0, { root: 'home', text: '~' })
    : UNKNOWN;
}
