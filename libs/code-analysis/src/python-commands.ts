/**
 * What a process started from Python runs: an argument list read the way `execve` reads it
 * (through `env`, `sudo`, `timeout` …), shells and their `-c` command lines (handed to the shell
 * analyser when constant), interpreters given inline code (`python -c`, `node -e`), downloaded
 * files run as programs. Any other program run with constant arguments goes to the shell analyser
 * as the command line it amounts to.
 */
import type { CallSite } from './python-call-site';
import { shellWords } from './python-literals';
import { pathOfText } from './python-paths';
import {
  DECODED,
  DOWNLOADED,
  alternatives,
  constantString,
  constantStrings,
  taintOf,
  type Value,
} from './python-values';

/** Programs that run a command line (`-c`) or a script. */
export const SHELLS: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'mksh',
  'ash',
  'csh',
  'tcsh',
  'fish',
  'rbash',
]);
const WINDOWS_SHELLS = new Set(['cmd', 'command.com']);
const POWERSHELLS = new Set(['powershell', 'pwsh']);

/** Interpreters and the flags that hand them code on the command line. */
const INLINE_CODE: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['python', new Set(['-c'])],
  ['pypy', new Set(['-c'])],
  ['node', new Set(['-e', '--eval', '-p', '--print'])],
  ['bun', new Set(['-e', '--eval', '-p', '--print'])],
  ['deno', new Set(['eval'])],
  ['perl', new Set(['-e', '-E'])],
  ['ruby', new Set(['-e'])],
  ['php', new Set(['-r'])],
  ['lua', new Set(['-e'])],
  ['osascript', new Set(['-e'])],
  ['rscript', new Set(['-e'])],
]);

/** Programs that start the program named after them. */
const WRAPPERS = new Set([
  'env',
  'sudo',
  'doas',
  'nohup',
  'nice',
  'timeout',
  'stdbuf',
  'setsid',
  'exec',
  'command',
  'time',
  'ionice',
  'xargs',
  'busybox',
  'unbuffer',
  'chrt',
  'taskset',
]);

/** Programs that talk to the network. */
const NETWORK_PROGRAMS = new Set([
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'ftp',
  'telnet',
]);

/** `sh`, `/usr/bin/python3.12`, `cmd.exe` → the program's family name. */
export function programName(path: string): string {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1).toLowerCase();
  const name = base.replace(/\.exe$/, '');
  if (/^python\d*(\.\d+)?[a-z]?$/.test(name) || name === 'py') return 'python';
  if (/^pypy\d*(\.\d+)?$/.test(name)) return 'pypy';
  if (name === 'nodejs') return 'node';
  return name;
}

/** The program an argv value starts, as a name (`sys.executable` is Python), or null when computed. */
function programOf(value: Value): string[] | null {
  const names: string[] = [];
  for (const option of alternatives(value)) {
    if (option.kind === 'str') names.push(option.text);
    else if (option.kind === 'ref' && option.name === 'sys.executable') names.push('python');
    else return null;
  }
  return names;
}

interface RunOptions {
  /** What is written to the process's standard input (`input=`). */
  input?: Value | null;
  /** The process's standard input is a pipe the program writes to later (`stdin=PIPE`). */
  piped?: boolean;
}

/** A process started from an argument list. */
export function runArgv(site: CallSite, argv: Value[] | null, options: RunOptions = {}): void {
  site.capability('process_exec');
  if (!argv || argv.length === 0) return;
  if (argv.some((item) => taintOf(item) & DECODED))
    site.issue('obfuscation', 'Runs a command decoded at run time, hiding what it runs.');
  for (const item of argv) {
    for (const text of constantStrings(item) ?? []) {
      if (!/\s/.test(text) && text.length < 4096) site.py.checkCredentialPath(site.node, pathOfText(text));
    }
  }
  let index = 0;
  let programs = programOf(argv[0] as Value);
  while (programs && programs.length === 1 && WRAPPERS.has(programName(programs[0] as string))) {
    const wrapper = programName(programs[0] as string);
    index = skipWrapperOptions(argv, index + 1, wrapper);
    if (index >= argv.length) return;
    programs = programOf(argv[index] as Value);
  }
  const program = argv[index] as Value;
  const args = argv.slice(index + 1);
  runsFile(site, program, 'as a program');
  if (taintOf(program) & DOWNLOADED) site.issue('download-and-run', 'Runs a program downloaded from the network.');
  if (!programs) {
    // A computed program given `-c` and a command line is a shell whatever it is called.
    const first = args[0];
    if (first && constantString(first) === '-c') shellCommand(site, args[1] ?? null);
    return;
  }
  for (const name of new Set(programs.map(programName))) interpret(site, name, args, options);
}

function skipWrapperOptions(argv: readonly Value[], from: number, wrapper: string): number {
  let index = from;
  for (; index < argv.length; index++) {
    const texts = constantStrings(argv[index] as Value);
    const text = texts?.length === 1 ? (texts[0] as string) : null;
    if (text === null) return index;
    if (wrapper === 'busybox') return index;
    if (text.startsWith('-') || (wrapper === 'env' && /^\w+=/.test(text))) {
      if ((wrapper === 'sudo' || wrapper === 'doas') && /^-[ugCDhprT]$/.test(text)) index++;
      if (wrapper === 'nice' && text === '-n') index++;
      continue;
    }
    if (
      (wrapper === 'timeout' || wrapper === 'nice' || wrapper === 'chrt' || wrapper === 'taskset') &&
      /^[\d.]+[smhd]?$/.test(text)
    )
      continue;
    return index;
  }
  return index;
}

/** What a named program does with its arguments. */
function interpret(site: CallSite, name: string, args: readonly Value[], options: RunOptions): void {
  const words = args.map((arg) => {
    const texts = constantStrings(arg);
    return texts?.length === 1 ? (texts[0] as string) : null;
  });
  if (SHELLS.has(name)) {
    const flag = words.findIndex((word) => word !== null && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word));
    if (flag >= 0) return shellCommand(site, args[flag + 1] ?? null);
    const script = words.findIndex((word) => word === null || !word.startsWith('-'));
    if (script >= 0) return runsFile(site, args[script] as Value, `with ${name}`);
    if (options.input) return shellCommand(site, options.input);
    if (options.piped)
      site.issue('shell-from-input', `Starts ${name} reading commands from a pipe, so what it runs cannot be seen.`);
    return;
  }
  if (WINDOWS_SHELLS.has(name)) {
    const flag = words.findIndex((word) => word !== null && /^\/[ck]$/i.test(word));
    if (flag >= 0) shellCommand(site, joinWords(args.slice(flag + 1)));
    return;
  }
  if (POWERSHELLS.has(name)) {
    if (words.some((word) => word !== null && /^-e(nc|ncodedcommand|c)?$/i.test(word)))
      site.issue('obfuscation', 'Runs an encoded PowerShell command.');
    const flag = words.findIndex((word) => word !== null && /^-(c|command)$/i.test(word));
    if (flag >= 0) shellCommand(site, joinWords(args.slice(flag + 1)));
    return;
  }
  const inline = INLINE_CODE.get(name);
  if (inline) {
    const flag = words.findIndex((word) => word !== null && inline.has(word.toLowerCase()));
    if (flag >= 0) {
      site.issue('dynamic-code', `Runs inline code with ${name} ${words[flag]}.`);
      const code = args[flag + 1];
      if (code && taintOf(code) & DECODED) site.issue('obfuscation', 'Runs code decoded at run time.');
      if (code && taintOf(code) & DOWNLOADED) site.issue('download-and-run', 'Runs code downloaded from the network.');
      return;
    }
    const script = words.findIndex((word) => word === null || !word.startsWith('-'));
    if (script >= 0 && words[script] !== null && words[script - 1] === '-m') return commandLine(site, name, words);
    if (script >= 0) runsFile(site, args[script] as Value, `with ${name}`);
    return;
  }
  if (NETWORK_PROGRAMS.has(name)) {
    site.capability('network');
    if ((name === 'nc' || name === 'ncat' || name === 'netcat') && words.some((word) => word === '-e' || word === '-c'))
      site.issue('reverse-shell', `Hands a program to ${name} -e, wiring it to a network connection.`);
  }
  commandLine(site, name, words);
}

/**
 * A program run with constant arguments goes to the shell analyser as the command line it amounts
 * to (`pip install --index-url …`, `rm -rf ~`): what a command does does not depend on whether a
 * shell split its words.
 */
function commandLine(site: CallSite, program: string, words: readonly (string | null)[]): void {
  if (words.some((word) => word === null)) return;
  const line = [program, ...(words as string[])].map(quoteWord).join(' ');
  site.py.findings.shellFindings(site.py.shell(line, site.node.startPosition.row + 1));
}

/** A word as a shell reads it back: quoted unless it has nothing a shell would read. */
export const quoteWord = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'"'"'`)}'`;

function joinWords(args: readonly Value[]): Value | null {
  const texts = args.map((arg) => constantStrings(arg));
  if (texts.some((text) => text === null || text.length !== 1)) return { kind: 'unknown', taint: 0 };
  return { kind: 'str', text: texts.map((text) => (text as string[])[0]).join(' '), taint: 0 };
}

/**
 * A command line a shell runs: constant lines go to the shell analyser (pipes into `sh`,
 * destructive commands, downloads run); a line built at run time cannot be proven safe.
 */
export function shellCommand(site: CallSite, command: Value | null): void {
  if (!command) {
    site.issue('shell-from-input', 'Runs a shell command that cannot be seen (passed on or hidden in *args).');
    return;
  }
  const taint = taintOf(command);
  if (taint & DECODED) site.issue('obfuscation', 'Runs a shell command decoded at run time, hiding what it runs.');
  if (taint & DOWNLOADED) site.issue('download-and-run', 'Runs a shell command downloaded from the network.');
  const lines = constantStrings(command);
  if (!lines) {
    site.issue('shell-from-input', 'Runs a shell command built at run time, so what it runs cannot be proven.');
    return;
  }
  const line = site.node.startPosition.row + 1;
  for (const text of lines) {
    const analysis = site.py.shell(text, line);
    site.py.findings.shellFindings(analysis);
    for (const word of shellWords(text) ?? []) runsFile(site, { kind: 'str', text: word, taint: 0 }, 'with a shell');
  }
}

/** A file run as a program or script: a download-and-run when the same file is written with downloaded content. */
export function runsFile(site: CallSite, value: Value, what: string): void {
  for (const option of alternatives(value)) {
    const key = site.py.pathKey(null, option);
    if (key) site.py.findings.runsFile(key, site.node, what);
  }
}
