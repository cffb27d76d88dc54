/**
 * What the shell analyser knows about programs: which are builtins, shells, interpreters,
 * downloaders or network tools, how their options are read (where the inline code of `sh -c` or
 * `python -c` is), and which wrappers (`sudo`, `env`, `timeout`, `xargs`…) run another command.
 * Arguments are given as the values the shell passes (quotes removed).
 */

/** Builtins and keywords: running one starts no program. `exec`, `command`, `eval`, `source` are read as wrappers. */
export const BUILTINS: ReadonlySet<string> = new Set(
  ': . [ [[ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true type typeset ulimit umask unalias unset wait time'.split(
    ' ',
  ),
);

/** Shells that read bash-like syntax from `-c`, a script file or standard input. */
export const SHELLS: ReadonlySet<string> = new Set(
  'sh bash zsh dash ksh mksh ash yash posh fish csh tcsh rbash'.split(' '),
);

export type Interpreter =
  | 'python'
  | 'node'
  | 'perl'
  | 'ruby'
  | 'php'
  | 'osascript'
  | 'lua'
  | 'r'
  | 'julia'
  | 'powershell'
  | 'deno'
  | 'bun'
  | 'tcl';

/** The language a program runs, from its name (`python3.11`, `/usr/bin/node`, `pwsh`). */
export function interpreterOf(program: string): Interpreter | null {
  if (/^(?:python|pypy)(?:\d+(?:\.\d+)*)?$/.test(program)) return 'python';
  if (program === 'node' || program === 'nodejs') return 'node';
  if (/^perl(?:\d+(?:\.\d+)*)?$/.test(program)) return 'perl';
  if (/^ruby(?:\d+(?:\.\d+)*)?$/.test(program) || program === 'jruby') return 'ruby';
  if (/^php(?:\d+(?:\.\d+)*)?$/.test(program)) return 'php';
  if (program === 'osascript') return 'osascript';
  if (/^lua(?:jit|\d+(?:\.\d+)*)?$/.test(program)) return 'lua';
  if (program === 'Rscript' || program === 'R') return 'r';
  if (program === 'julia') return 'julia';
  if (program === 'pwsh' || program === 'powershell' || program === 'powershell.exe') return 'powershell';
  if (program === 'deno') return 'deno';
  if (program === 'bun') return 'bun';
  if (/^(?:tclsh|wish)(?:\d+(?:\.\d+)*)?$/.test(program)) return 'tcl';
  return null;
}

/** Programs that fetch a URL (their output is what the server sent). */
export const DOWNLOADERS: ReadonlySet<string> = new Set(
  'curl wget wget2 fetch aria2c axel http https xh curlie lwp-download lwp-request GET POST HEAD ftp tftp'.split(' '),
);

/** Programs that connect a raw socket. */
export const SOCKET_TOOLS: ReadonlySet<string> = new Set(
  'nc ncat netcat nc.traditional nc.openbsd cryptcat telnet socat'.split(' '),
);

const NETWORK_PROGRAMS: ReadonlySet<string> = new Set(
  'ssh scp sftp rsync ping ping6 dig nslookup host traceroute tracepath mtr whois nmap npx bunx pnpx uvx pipx ngrok cloudflared'.split(
    ' ',
  ),
);

/** Subcommands of package managers and version control that go to the network. */
const NETWORK_SUBCOMMANDS: Readonly<Record<string, ReadonlySet<string>>> = {
  git: new Set('clone fetch pull push ls-remote submodule remote'.split(' ')),
  apt: new Set('install update upgrade full-upgrade dist-upgrade download source'.split(' ')),
  'apt-get': new Set('install update upgrade dist-upgrade download source build-dep'.split(' ')),
  aptitude: new Set('install update upgrade'.split(' ')),
  yum: new Set('install update upgrade makecache'.split(' ')),
  dnf: new Set('install update upgrade makecache'.split(' ')),
  apk: new Set('add update upgrade fetch'.split(' ')),
  brew: new Set('install update upgrade tap reinstall fetch'.split(' ')),
  pip: new Set('install download wheel'.split(' ')),
  uv: new Set('pip add sync tool run lock venv'.split(' ')),
  poetry: new Set('install add update lock'.split(' ')),
  conda: new Set('install create update env'.split(' ')),
  mamba: new Set('install create update env'.split(' ')),
  npm: new Set('install i ci add update up exec x publish view info'.split(' ')),
  pnpm: new Set('install i add update up dlx exec'.split(' ')),
  yarn: new Set('install add upgrade dlx'.split(' ')),
  bun: new Set('install i add update x'.split(' ')),
  gem: new Set('install update fetch'.split(' ')),
  cargo: new Set('install fetch build update'.split(' ')),
  go: new Set('get install mod'.split(' ')),
  docker: new Set('pull push run build login'.split(' ')),
  openssl: new Set(['s_client']),
};

/** The program a command name runs: its last path component (`/usr/bin/curl` runs curl). */
export const programName = (value: string): string => value.slice(value.lastIndexOf('/') + 1);

/** The pip-like family of a program (`pip3.11` is pip). */
const familyOf = (program: string): string =>
  /^pip\d*(?:\.\d+)?$/.test(program) ? 'pip' : program === 'apt-get' ? 'apt-get' : program;

/** Whether running `program args` goes to the network. */
export function usesNetwork(program: string, args: readonly string[]): boolean {
  if (DOWNLOADERS.has(program) || SOCKET_TOOLS.has(program) || NETWORK_PROGRAMS.has(program)) return true;
  if (interpreterOf(program) === 'python') {
    const module = args[args.indexOf('-m') + 1];
    return args.includes('-m') && module === 'pip' && subcommand(args.slice(args.indexOf('-m') + 2)) === 'install';
  }
  const subcommands = NETWORK_SUBCOMMANDS[familyOf(program)];
  if (!subcommands) return false;
  const first = subcommand(args);
  if (program === 'yarn' && first === null) return true;
  return first !== null && subcommands.has(first);
}

/** The first argument that is not an option. */
export function subcommand(args: readonly string[]): string | null {
  return args.find((arg) => !arg.startsWith('-')) ?? null;
}

/** Options of a program that take a value in the next argument (or attached: `-ofile`). */
const VALUE_OPTIONS: Readonly<Record<string, string>> = {
  curl: 'oOdDHXuAeTFxwmKbcrCEUYyzQP',
  wget: 'OoaPeitTwUQlDAR',
  aria2c: 'odsxkj',
  sudo: 'ugCDhprtUT',
  doas: 'uC',
  xargs: 'adEILnPse',
  nc: 'pswqiIOTVXx',
  timeout: 'sk',
  nice: 'n',
  ionice: 'cnp',
  tar: 'fCbTXgLHN',
};

/**
 * The value of a short option (`-o FILE`, `-oFILE`, `-sSLo FILE`) or a long one
 * (`--output FILE`, `--output=FILE`) of `program`, if given.
 */
export function optionValue(program: string, args: readonly string[], short: string, long?: string): string | null {
  const takesValue = VALUE_OPTIONS[program] ?? '';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') return null;
    if (long && (arg === long || arg.startsWith(`${long}=`))) {
      return arg === long ? (args[i + 1] ?? null) : arg.slice(long.length + 1);
    }
    if (arg.startsWith('--') || !arg.startsWith('-') || arg.length < 2) continue;
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j] as string;
      if (letter === short) return j + 1 < arg.length ? arg.slice(j + 1) : (args[i + 1] ?? null);
      if (takesValue.includes(letter)) {
        if (j + 1 === arg.length) i++;
        break;
      }
    }
  }
  return null;
}

/** Whether a flag is set, in a cluster (`-rf`) or alone, or as a long option. */
export function hasFlag(args: readonly string[], letters: string, ...long: string[]): boolean {
  return args.some(
    (arg) =>
      long.includes(arg.split('=')[0] as string) ||
      (/^-[A-Za-z0-9]+$/.test(arg) && [...arg.slice(1)].some((letter) => letters.includes(letter))),
  );
}

/** Where the code a shell runs comes from: an argument (`-c`), a script file, or standard input. */
export type ShellSource = { from: 'inline'; index: number } | { from: 'file'; index: number } | { from: 'stdin' };

/** `bash [options] [-c string | file] [args]` as bash reads it. */
export function shellSource(args: readonly string[]): ShellSource {
  let inline = false;
  let stdin = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--' || arg === '-') {
      const next = i + 1;
      if (inline && next < args.length) return { from: 'inline', index: next };
      return stdin || arg === '-' || next >= args.length ? { from: 'stdin' } : { from: 'file', index: next };
    }
    if (/^--(?:rcfile|init-file)$/.test(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('--')) continue;
    if (/^[-+][A-Za-z]+$/.test(arg)) {
      if (arg.includes('c') && arg.startsWith('-')) inline = true;
      if (arg.includes('s') && arg.startsWith('-')) stdin = true;
      if (/[oO]/.test(arg)) i++;
      continue;
    }
    if (inline) return { from: 'inline', index: i };
    if (stdin) return { from: 'stdin' };
    return { from: 'file', index: i };
  }
  return { from: 'stdin' };
}

/** Where an interpreter's code comes from; `none` when it runs none (`python3 -m venv`, `node --version`). */
export type CodeSource =
  | { from: 'inline'; index: number; attached?: string }
  | { from: 'file'; index: number }
  | { from: 'stdin' }
  | { from: 'encoded'; index: number }
  | { from: 'none' };

const INLINE_FLAGS: Readonly<Record<Interpreter, { inline: string[]; value: string[]; stop: string[] }>> = {
  python: { inline: ['-c'], value: ['-W', '-X', '-Q'], stop: ['-m', '-V', '--version', '-h', '--help'] },
  node: {
    inline: ['-e', '--eval', '-p', '--print', '-pe'],
    value: ['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--env-file'],
    stop: ['-v', '--version', '-h', '--help', '--test', '--check', '-c'],
  },
  perl: { inline: [], value: [], stop: ['-v', '--version', '-h'] },
  ruby: { inline: ['-e'], value: ['-r', '-I', '-C'], stop: ['-v', '--version', '-h', '--help'] },
  php: {
    inline: ['-r', '-B', '-R', '-E'],
    value: ['-c', '-d', '-z'],
    stop: ['-v', '--version', '-h', '-S', '-f', '-l', '-m', '-i'],
  },
  osascript: { inline: ['-e'], value: ['-l', '-s'], stop: [] },
  lua: { inline: ['-e'], value: ['-l'], stop: ['-v'] },
  r: { inline: ['-e', '--expr'], value: [], stop: ['--version'] },
  julia: {
    inline: ['-e', '--eval', '-E', '--print'],
    value: ['-t', '--threads', '-p', '--project', '-L', '--load'],
    stop: ['-v', '--version'],
  },
  powershell: {
    inline: ['-c', '-command', '-Command', '-C'],
    value: ['-ExecutionPolicy', '-ex', '-ep', '-WorkingDirectory', '-wd', '-WindowStyle', '-w', '-ConfigurationName'],
    stop: ['-v', '-Version', '-File', '-f', '-file'],
  },
  deno: { inline: [], value: [], stop: [] },
  bun: { inline: ['-e', '--eval', '-p', '--print'], value: [], stop: ['-v', '--version'] },
  tcl: { inline: [], value: [], stop: [] },
};

/** Short options that can be clustered before the inline-code letter (`python -uc`, `perl -lne`, `ruby -ne`). */
const CLUSTERS: Partial<Record<Interpreter, { flags: RegExp; inline: RegExp }>> = {
  python: { flags: /^[bBdEhiIOqsSuvxR]*$/, inline: /c/ },
  perl: { flags: /^[aFlnpsTtuUwWX0-9]*$/, inline: /[eE]/ },
  ruby: { flags: /^[adlnpswvWy]*$/, inline: /e/ },
};

/** `python3 -c code`, `node -e code`, `perl -lne code`, `deno eval code`, `pwsh -EncodedCommand …`. */
export function codeSource(interpreter: Interpreter, args: readonly string[]): CodeSource {
  if (interpreter === 'deno' || interpreter === 'bun') {
    const first = subcommand(args);
    const index = first === null ? -1 : args.indexOf(first);
    if (first === 'eval') return index + 1 < args.length ? { from: 'inline', index: index + 1 } : { from: 'stdin' };
    if (first === 'run' && index + 1 < args.length) {
      const script = args.slice(index + 1).findIndex((arg) => !arg.startsWith('-'));
      return script === -1 ? { from: 'none' } : { from: 'file', index: index + 1 + script };
    }
    if (interpreter === 'deno') return first === null ? { from: 'none' } : { from: 'file', index };
  }
  const flags = INLINE_FLAGS[interpreter];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (interpreter === 'powershell' && /^-(?:e|ec|enc|encodedcommand)$/i.test(arg))
      return { from: 'encoded', index: i + 1 };
    if (flags.inline.includes(arg)) return i + 1 < args.length ? { from: 'inline', index: i + 1 } : { from: 'none' };
    if (flags.stop.includes(arg)) return { from: 'none' };
    if (flags.value.includes(arg)) {
      i++;
      continue;
    }
    if (arg === '-') return { from: 'stdin' };
    if (arg === '--') return i + 1 < args.length ? { from: 'file', index: i + 1 } : { from: 'stdin' };
    if (/^-[A-Za-z]/.test(arg)) {
      // Clusters: `python -uc code`, `perl -lne code`, `perl -e'code'`, `ruby -ne code`.
      const cluster = CLUSTERS[interpreter];
      const letters = arg.slice(1);
      const at = cluster ? letters.search(cluster.inline) : -1;
      if (cluster && at !== -1 && cluster.flags.test(letters.slice(0, at))) {
        const attached = letters.slice(at + 1);
        if (!attached) return i + 1 < args.length ? { from: 'inline', index: i + 1 } : { from: 'none' };
        return { from: 'inline', index: i, attached };
      }
      if (interpreter === 'python' && /^[bBdEhiIOqsSuvxR]*m/.test(letters)) return { from: 'none' };
      continue;
    }
    if (arg.startsWith('-')) continue;
    return { from: 'file', index: i };
  }
  return { from: 'stdin' };
}

/** Where a wrapper's command starts, or the argument it runs as a shell command line. */
export type Wrapped = { kind: 'command'; index: number } | { kind: 'shell-line'; index: number; join: boolean } | null;

/** Wrappers whose options take no value before the command. */
const PLAIN_WRAPPERS: ReadonlySet<string> = new Set(
  'nohup builtin unbuffer chronic torsocks tsocks proxychains proxychains4 setsid time caffeinate nocache catchsegv busybox'.split(
    ' ',
  ),
);

/** `sudo -u x cmd`, `env -i A=1 cmd`, `timeout 5 cmd`, `nice -n 5 cmd`, `su -c line`, `watch line`… */
export function wrappedCommand(program: string, args: readonly string[]): Wrapped {
  const firstCommand = (from: number, valueOptions = ''): Wrapped => {
    for (let i = from; i < args.length; i++) {
      const arg = args[i] as string;
      if (arg === '--') return i + 1 < args.length ? { kind: 'command', index: i + 1 } : null;
      if (arg.startsWith('-') && arg.length > 1) {
        if (arg.length === 2 && valueOptions.includes(arg[1] as string)) i++;
        continue;
      }
      return { kind: 'command', index: i };
    }
    return null;
  };
  switch (program) {
    case 'sudo':
    case 'doas':
      if (hasFlag(args.slice(0, 1), 'e', '--edit') || args.includes('-v') || args.includes('-l')) return null;
      return firstCommand(0, VALUE_OPTIONS[program]);
    case 'exec':
      return firstCommand(0, 'a');
    case 'command':
      return args.some((arg) => arg === '-v' || arg === '-V') ? null : firstCommand(0);
    case 'nice':
    case 'ionice':
    case 'stdbuf':
    case 'taskset':
      return firstCommand(0, program === 'taskset' ? 'p' : (VALUE_OPTIONS[program] ?? 'ioe'));
    case 'env': {
      for (let i = 0; i < args.length; i++) {
        const arg = args[i] as string;
        if (arg === '-S' || arg === '--split-string')
          return i + 1 < args.length ? { kind: 'shell-line', index: i + 1, join: false } : null;
        if (arg === '-u' || arg === '--unset' || arg === '-C' || arg === '--chdir') {
          i++;
          continue;
        }
        if (arg.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) continue;
        return { kind: 'command', index: i };
      }
      return null;
    }
    case 'timeout': {
      const start = firstCommand(0, VALUE_OPTIONS.timeout);
      return start && start.kind === 'command' && start.index + 1 < args.length
        ? { kind: 'command', index: start.index + 1 }
        : null;
    }
    case 'chroot': {
      const start = firstCommand(0);
      return start && start.kind === 'command' && start.index + 1 < args.length
        ? { kind: 'command', index: start.index + 1 }
        : null;
    }
    case 'flock': {
      const line = args.findIndex((arg) => arg === '-c' || arg === '--command');
      if (line !== -1) return line + 1 < args.length ? { kind: 'shell-line', index: line + 1, join: false } : null;
      const lock = firstCommand(0, 'wE');
      return lock && lock.kind === 'command' && lock.index + 1 < args.length
        ? { kind: 'command', index: lock.index + 1 }
        : null;
    }
    case 'su':
    case 'runuser':
    case 'script': {
      const line = args.findIndex((arg) => arg === '-c' || arg === '--command');
      return line !== -1 && line + 1 < args.length ? { kind: 'shell-line', index: line + 1, join: false } : null;
    }
    case 'watch': {
      const start = firstCommand(0, 'nqd');
      return start && start.kind === 'command' ? { kind: 'shell-line', index: start.index, join: true } : null;
    }
    case 'xargs': {
      for (let i = 0; i < args.length; i++) {
        const arg = args[i] as string;
        if (arg === '--') return i + 1 < args.length ? { kind: 'command', index: i + 1 } : null;
        if (
          /^--[a-z-]+$/.test(arg) &&
          /^--(?:arg-file|delimiter|eof|max-lines|max-args|max-procs|max-chars|process-slot-var)$/.test(arg)
        ) {
          i++;
          continue;
        }
        if (arg.startsWith('-') && arg.length > 1) {
          if (arg.length === 2 && (VALUE_OPTIONS.xargs as string).includes(arg[1] as string)) i++;
          continue;
        }
        return { kind: 'command', index: i };
      }
      return null;
    }
    case 'strace':
    case 'ltrace':
      return firstCommand(0, 'oepsuSEa');
    default:
      return PLAIN_WRAPPERS.has(program) ? firstCommand(0) : null;
  }
}

/** The text xargs replaces with each input line (`-I {}`, `-i`, `--replace`), if any. */
export function xargsReplacement(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-I') return args[i + 1] ?? null;
    if (arg.startsWith('-I') && arg.length > 2) return arg.slice(2);
    if (arg === '-i' || arg === '--replace') return '{}';
    if (arg.startsWith('--replace=')) return arg.slice('--replace='.length);
    if (arg.startsWith('-i') && arg.length > 2) return arg.slice(2);
  }
  return null;
}

/** Programs whose file arguments are read (a path outside the skill's folder is a read of the user's files). */
export const FILE_READERS: ReadonlySet<string> = new Set(
  'cat tac head tail less more grep egrep fgrep rg ag awk gawk sed cut sort uniq wc strings od xxd hexdump base64 base32 jq yq diff cmp md5sum sha1sum sha256sum sha512sum file stat cp scp rsync tar zip gzip bzip2 xz zstd gpg openssl source . nl tr iconv column paste join comm split csplit fold fmt pr look dos2unix'.split(
    ' ',
  ),
);

/** Programs that create, change or delete the files they are given. */
export const FILE_WRITERS: ReadonlySet<string> = new Set(
  'rm rmdir unlink mv cp mkdir touch tee ln install truncate shred chmod chown chgrp dd rsync unzip patch'.split(' '),
);

/** Programs that print the whole environment when given no variable name. */
export function dumpsEnvironment(program: string, args: readonly string[]): boolean {
  const operands = args.filter((arg) => !arg.startsWith('-'));
  if (program === 'env')
    return operands.length === 0 && !args.some((arg) => /^-[uSC]|^--(?:unset|split-string|chdir)/.test(arg));
  if (program === 'printenv') return operands.length === 0;
  if (program === 'set') return args.length === 0;
  if (program === 'export' || program === 'declare' || program === 'typeset') {
    return operands.length === 0 && (args.length === 0 || args.some((arg) => /^-[a-zA-Z]*[px]/.test(arg)));
  }
  if (program === 'compgen') return args.some((arg) => arg === '-e' || arg === '-v');
  return false;
}

/**
 * Programs that turn encoded or scrambled text back into what it hides: base64, hex dumps,
 * compression, reversal, rot13 with `tr`, escape sequences with `printf` or `echo -e`.
 */
export function decodes(program: string, args: readonly string[]): boolean {
  switch (program) {
    case 'base64':
    case 'base32':
    case 'basenc':
      return hasFlag(args, 'dD', '--decode');
    case 'xxd':
      return hasFlag(args, 'r', '-revert');
    case 'openssl':
      return (
        (args[0] === 'enc' || args[0] === 'base64' || /^-?(?:aes|des|bf|rc4|chacha)/.test(args[0] ?? '')) &&
        args.includes('-d')
      );
    case 'rev':
    case 'uudecode':
    case 'zcat':
    case 'gzcat':
    case 'bzcat':
    case 'xzcat':
    case 'zstdcat':
    case 'gunzip':
    case 'unxz':
    case 'uncompress':
    case 'lzcat':
      return true;
    case 'gzip':
    case 'bzip2':
    case 'xz':
    case 'zstd':
    case 'lzma':
      return hasFlag(args, 'd', '--decompress', '--uncompress');
    case 'tr': {
      const sets = args.filter((arg) => !arg.startsWith('-'));
      return sets.length === 2 &&
        /[a-zA-Z]-[a-zA-Z]/.test(sets[0] as string) &&
        sets[0] !== sets[1] &&
        /[a-zA-Z]-[a-zA-Z]/.test(sets[1] as string)
        ? !/^(?:a-z|\[:lower:\])$/i.test(sets[0] as string) || !/^(?:A-Z|\[:upper:\])$/i.test(sets[1] as string)
        : false;
    }
    case 'printf':
      return args.some((arg) => /\\(?:x[0-9A-Fa-f]|[0-7]{2,3}|u[0-9A-Fa-f])/.test(arg));
    case 'echo':
      return hasFlag(args, 'e') && args.some((arg) => /\\(?:x[0-9A-Fa-f]|0[0-7]{1,3}|u[0-9A-Fa-f])/.test(arg));
    default:
      return false;
  }
}

/** Archive tools that unpack what they are given (`tar x`, `unzip`). */
export function extracts(program: string, args: readonly string[]): boolean {
  if (program === 'tar' || program === 'bsdtar') {
    const first = args[0] ?? '';
    return /^-?[A-Za-z]*x/.test(first) || args.some((arg) => arg === '-x' || arg === '--extract' || arg === '--get');
  }
  return program === 'unzip' || program === 'cpio' || program === '7z' || program === 'unrar';
}
