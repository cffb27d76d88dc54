/**
 * What the analysers know about paths, whatever language builds them: files that hold credentials,
 * the whole environment, disks and the places whose deletion destroys a system or a home folder.
 * Paths are given with the home folder written as `~` (the analysers map $HOME, os.homedir() and
 * expanduser("~") to it).
 */

/** Credential stores by what they are, matched on a path with `/` separators, lower-cased. */
const CREDENTIAL_PATTERNS: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /(?:^|\/)\.ssh(?:\/|$)/, what: 'SSH keys' },
  { pattern: /(?:^|\/)id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?:\.pub)?$/, what: 'an SSH key' },
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
  { pattern: /^\/etc\/(?:shadow|gshadow|passwd|sudoers|master\.passwd)$/, what: 'system account files' },
  { pattern: /(?:^|\/)\.gnupg(?:\/|$)/, what: 'GnuPG keys' },
  { pattern: /(?:^|\/)library\/keychains(?:\/|$)|\.keychain(?:-db)?$/, what: 'a keychain' },
  {
    pattern: /(?:^|\/)(?:cookies|cookies\.sqlite|login data|web data|logins\.json|key[34]\.db|local state)$/,
    what: 'browser cookies or saved logins',
  },
  // `.env`, `.env.local`: a project's secrets; `.env.example` and its kind are the templates shipped beside them.
  {
    pattern: /(?:^|\/)\.env(?:\.(?!example$|sample$|template$|dist$|defaults?$|schema$)[a-z0-9_-]+)?$/,
    what: 'a .env file',
  },
];

/** What credential store `path` names (`SSH keys`, `a .env file`), or null. */
export function credentialIn(path: string): string | null {
  const text = path.replace(/\\/g, '/').replace(/\/+$/, '').toLowerCase();
  for (const { pattern, what } of CREDENTIAL_PATTERNS) if (pattern.test(text)) return what;
  return null;
}

export const isCredentialPath = (path: string): boolean => credentialIn(path) !== null;

/** A file through which a process reads another's (or its own) whole environment. */
export const isEnvironmentFile = (path: string): boolean => /^\/proc\/(?:self|\d+|\*|\$\$)\/environ$/.test(path);

/** Block devices and raw memory: writing to one destroys a disk or the running system. */
export const isDevice = (path: string): boolean =>
  /^\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md\d|dm-|mapper\/|loop|sr\d|mem$|kmem$|port$)/.test(path);

/** Logs and shell histories: wiping them only serves to hide what ran. */
export const isLogOrHistory = (path: string): boolean =>
  /^\/var\/log(?:\/|$)|(?:^|\/)\.(?:bash|zsh|sh|python|node_repl|mysql|psql)_history$|^\/var\/run\/utmp$|^\/var\/log\/wtmp$/.test(
    path,
  );

const SYSTEM_FOLDERS = new Set(
  '/bin /boot /dev /etc /home /lib /lib32 /lib64 /opt /proc /root /sbin /srv /sys /usr /var /Users /System /Library /Applications /private /usr/bin /usr/lib /usr/local /usr/share /var/lib'.split(
    ' ',
  ),
);

/**
 * Whether deleting (or recursively changing) `path` destroys the system, the home folder or the
 * parent of the working folder (the working folder itself is the caller's call: `rm -rf *` is a
 * build step in ./build and a disaster in ~). `path` is the value with
 * every unknown part left empty, which is what an unset variable turns `rm -rf "$DIR"/` into.
 */
export function isDestructiveTarget(path: string): boolean {
  const normalised = path.replace(/\/{2,}/g, '/').replace(/(?<=.)\/+$/, '');
  if (normalised === '' || normalised === '/' || normalised === '~' || normalised === '~/') return true;
  if (normalised === '..' || normalised === '../*') return true;
  if (/^(?:\/|~\/)(?:\*|\.\*|\.\.)$/.test(normalised) || normalised === '/*' || normalised === '~/*') return true;
  if (/^~\/(?:\.ssh|\.gnupg|\.config|\.local|Documents|Desktop|\.aws)$/.test(normalised)) return true;
  const folder = normalised.replace(/\/\*$/, '');
  return SYSTEM_FOLDERS.has(folder);
}
