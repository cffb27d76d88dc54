/**
 * The files that hold credentials, whatever language names them: every analyser asks here whether
 * a path it folded (`~/.ssh/id_rsa`, `$HOME/.aws/credentials`, `os.homedir() + "/.netrc"`) is one.
 * Paths are given with the home folder written as `~` (the analysers map $HOME, os.homedir() and
 * expanduser("~") to it).
 */

/** What `credentialIn` calls a `.env` file: a project's own `.env` may be its configuration, which callers decide. */
export const ENV_FILE = 'a .env file';

/** Credential stores by what they are, matched on a path with `/` separators, lower-cased. */
const CREDENTIAL_PATTERNS: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /(?:^|\/)\.ssh(?:\/|$)/, what: 'SSH keys' },
  // `id_rsa`, `id_rsa.pub`, `id_ed25519_sk`, `id_rsa.bak`: not `id_rsa2fa` (a word that starts the same).
  { pattern: /(?:^|\/)id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?:$|[^a-z0-9])/, what: 'an SSH key' },
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
  {
    pattern: /(?:^|\/)\.(?:cargo|gem|terraform\.d)\/credentials(?:\.\w+)?$|(?:^|\/)\.vault-token$/,
    what: 'registry or vault tokens',
  },
  { pattern: /(?:^|\/)\.password-store(?:\/|$)/, what: 'a password store' },
  // `../../etc/shadow` climbs to the system's files as surely as `/etc/shadow`.
  { pattern: /(?:^|\/)etc\/(?:shadow|gshadow|passwd|sudoers|master\.passwd)$/, what: 'system account files' },
  { pattern: /(?:^|\/)\.gnupg(?:\/|$)/, what: 'GnuPG keys' },
  { pattern: /(?:^|\/)library\/keychains(?:\/|$)|\.keychain(?:-db)?$/, what: 'a keychain' },
  // Only as a file in a folder (a browser profile's): a bare "cookies" is more often a dictionary key or a local file.
  {
    pattern: /.\/(?:cookies|cookies\.sqlite|login data|web data|logins\.json|key[34]\.db|local state)$/,
    what: 'browser cookies or saved logins',
  },
  // `.env`, `.env.local`: a project's secrets; `.env.example` and its kind are the templates shipped beside them.
  {
    pattern: /(?:^|\/)\.env(?:\.(?!example$|sample$|template$|dist$|defaults?$|schema$)[a-z0-9_-]+)?$/,
    what: ENV_FILE,
  },
];

/** What credential store `path` names (`SSH keys`, ENV_FILE), or null. */
export function credentialIn(path: string): string | null {
  const text = path.replace(/\\/g, '/').replace(/\/+$/, '').toLowerCase();
  for (const { pattern, what } of CREDENTIAL_PATTERNS) if (pattern.test(text)) return what;
  return null;
}

export const isCredentialPath = (path: string): boolean => credentialIn(path) !== null;

/**
 * A word every credential store's path holds, to find in a whole source the string literals worth
 * folding (a cheap first look): a store added above needs its word here. `.env` has none: a literal
 * ".env" is most often a skill naming its own configuration, and its reads are judged where they happen.
 * Global: for `matchAll` only.
 */
export const CREDENTIAL_WORDS =
  /\.ssh|id_(?:rsa|dsa|ecdsa|ed25519)|authorized_keys|\.aws|gcloud|\.azure|netrc|git-credentials|hosts\.ya?ml|\.docker|\.kube|npmrc|pypirc|\.cargo|\.gem\/|terraform\.d|vault-token|password-store|shadow|passwd|sudoers|gnupg|keychain|cookies|login data|web data|logins\.json|key[34]\.db|local state/gi;
