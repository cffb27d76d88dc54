/**
 * Places that run what is written to them later, without anyone asking: shell start-up files,
 * SSH's authorized keys, crontabs, systemd, launchd and XDG autostart units, git hooks, login
 * scripts, Python's start-up hooks, and the skill's own instructions and manifests (rewritten
 * after certification, they are no longer what was certified). Every analyser asks here whether
 * a path it writes to is one. Paths are given with the home folder written as `~`.
 */

const PERSISTENCE_PATTERNS: readonly { pattern: RegExp; what: string }[] = [
  {
    pattern:
      /(?:^|\/)\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|zprofile|zlogin|kshrc|cshrc|tcshrc|mkshrc|xprofile|xinitrc|xsessionrc)$/,
    what: 'a shell start-up file',
  },
  { pattern: /(?:^|\/)\.config\/fish\/(?:config\.fish|conf\.d\/)/, what: 'a shell start-up file' },
  {
    pattern: /^\/etc\/(?:profile|bash\.bashrc|zsh\/|environment$|rc\.local$|ld\.so\.preload$)/,
    what: 'a system start-up file',
  },
  { pattern: /(?:^|\/)\.ssh\/(?:authorized_keys2?|rc|config|environment)$/, what: "SSH's authorized keys or start-up" },
  { pattern: /^\/(?:etc\/cron|var\/spool\/cron|etc\/anacrontab|etc\/crontab)/, what: 'a crontab' },
  { pattern: /(?:^|\/)(?:systemd\/(?:user|system)|\.config\/systemd)\//, what: 'a systemd unit' },
  { pattern: /(?:^|\/)library\/(?:launchagents|launchdaemons)\//, what: 'a launchd agent' },
  { pattern: /(?:^|\/)\.config\/autostart\//, what: 'an autostart entry' },
  { pattern: /(?:^|\/)\.git\/hooks\/|(?:^|\/)\.husky\//, what: 'a git hook' },
  {
    pattern: /(?:^|\/)(?:site-packages|dist-packages)\/[^/]*\.pth$|(?:^|\/)(?:sitecustomize|usercustomize)\.py$/,
    what: 'a Python start-up hook',
  },
  {
    pattern: /(?:^|\/)\.(?:npmrc|yarnrc|pip\/pip\.conf|config\/pip\/pip\.conf|pydistutils\.cfg)$/,
    what: 'a package manager configuration',
  },
  {
    pattern: /(?:^|\/)\.(?:vimrc|exrc|emacs|gitconfig|inputrc|wgetrc|curlrc)$/,
    what: 'a start-up file another program runs',
  },
  { pattern: /^\/etc\/(?:sudoers|passwd|shadow|hosts)(?:\.d\/|$)/, what: 'a system account or name file' },
  {
    pattern:
      /(?:^|\/)(?:skill\.md|skill_manifest\.ya?ml|workspace\.ya?ml|agents\.md|claude\.md|\.mcp\.json)$|(?:^|\/)\.(?:claude|cursor)\//,
    what: "an agent's instructions or configuration",
  },
];

/** What persistence location `path` names (`a shell start-up file`), or null. */
export function persistenceIn(path: string): string | null {
  const text = path.replace(/\\/g, '/').replace(/\/+$/, '').toLowerCase();
  for (const { pattern, what } of PERSISTENCE_PATTERNS) if (pattern.test(text)) return what;
  return null;
}
