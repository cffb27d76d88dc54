/** One spelling per source repository, so the evidence shows the same URL however a package writes its link. */

/** `git@github.com:owner/repo`: scp syntax, which `URL` cannot read; the host needs a dot, unlike a URL scheme. */
const SCP_LIKE = /^([\w.-]+@)?([\w-]+(?:\.[\w-]+)+):(.+)$/;
const REPOSITORY_PROTOCOLS = new Set(['https:', 'http:', 'git:', 'ssh:']);

/**
 * `git+https://GitHub.com/a/b.git/`, `git@github.com:a/b.git` and `https://github.com/a/b` all
 * become `https://github.com/a/b`: no `git+`, credentials, query, fragment, `.git` or trailing
 * slash, a lower-case host, and https. Null when it is not a URL of a repository.
 */
export function normalizeRepositoryUrl(raw: string): string | null {
  let text = raw.trim();
  if (text.length === 0 || text.length > 2048) return null;
  if (text.startsWith('git+')) text = text.slice(4);
  const scp = SCP_LIKE.exec(text);
  if (scp && !text.includes('://')) text = `ssh://${scp[1] ?? ''}${scp[2]}/${scp[3]}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (!REPOSITORY_PROTOCOLS.has(url.protocol) || !url.hostname) return null;
  const path = url.pathname
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '');
  return `https://${url.hostname.toLowerCase()}${path}`;
}
