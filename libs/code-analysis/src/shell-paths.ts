/**
 * What the shell rules know about the paths a command is given: the files that hold a process's
 * whole environment, disks, logs, and the places whose deletion destroys a system or a home folder
 * (credential files are in credential-paths.ts). Paths are given with the home folder written as `~`.
 */

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

/**
 * Whether deleting or overwriting every file under `path` (a walk of its tree) destroys the system
 * or the user's files: every destructive target above, and every top-level folder of the home
 * folder (`~/Pictures`, `~/Downloads`, `~/.kube`) but its cache, which tools rebuild.
 */
export function isPreciousTree(path: string): boolean {
  const normalised = path.replace(/\/{2,}/g, '/').replace(/(?<=.)\/+$/, '');
  return isDestructiveTarget(normalised) || (/^~\/[^/]+$/.test(normalised) && normalised !== '~/.cache');
}
