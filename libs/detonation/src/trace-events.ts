/**
 * What a traced program did that matters, from strace's calls (strace-line.ts): the calls of the
 * launch itself (the cgroup shell, prlimit, bwrap, setpriv) are left out until the program the
 * detonation started runs; every process it starts after that is followed (a clone's child starts
 * as its parent was). Pure: calls in, events out. What counts:
 * - honeytoken-read: a planted file opened (a program's own files, its runtime's modules, are not
 *   honeytokens and never count);
 * - connect / dns: any address but the sandbox's own loopback (a Unix socket never counts; a query
 *   to port 53 is a name lookup, its name read from the packet);
 * - exec-downloader: a network tool started (`curl`, `wget`, `nc`…), tried even where it is not
 *   installed;
 * - exec-shell: a shell started by a program that is not a shell (Python's `os.system`, Node's
 *   `exec`); a shell script running commands, or the shell the detonation starts, is normal;
 * - persistence-write: a file opened for writing, or renamed or linked into place, where something
 *   runs it later (persistenceIn of libs/code-analysis);
 * - delete-outside: a file deleted or renamed away outside the sandbox's scratch folders.
 */
import { posix } from 'node:path';
import type { DetonationEvent, DetonationEventKind } from '@skillhub/certification';
import { persistenceIn } from '@skillhub/code-analysis';
import { SANDBOX_HOME } from '@skillhub/sandbox';
import { canariesIn, type Honeytokens } from './honeytokens';
import {
  StraceLineReader,
  clonedPid,
  fdPath,
  returned,
  socketOf,
  splitArgs,
  stringLiteral,
  stringLiterals,
  type TracedCall,
} from './strace-line';

/** The system calls the tracer records (`strace -e trace=…`). */
export const TRACED_CALLS: readonly string[] = [
  'execve',
  'execveat',
  'open',
  'openat',
  'openat2',
  'creat',
  'connect',
  'sendto',
  'sendmsg',
  'sendmmsg',
  'unlink',
  'unlinkat',
  'rmdir',
  'rename',
  'renameat',
  'renameat2',
  'link',
  'linkat',
  'symlink',
  'symlinkat',
  'clone',
  'clone3',
  'fork',
  'vfork',
];

/** The launch's own programs, before the detonated program runs. */
const LAUNCHERS = new Set(['bwrap', 'setpriv', 'prlimit', 'sh', 'strace']);
/** The launch's programs after which the next exec of the program is the detonated program. */
const LAUNCH_LAST = new Set(['bwrap', 'setpriv']);

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'ash', 'busybox', 'rbash']);
const DOWNLOADERS = new Set([
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'nc.openbsd',
  'nc.traditional',
  'socat',
  'telnet',
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'ftp',
  'tftp',
  'aria2c',
  'lwp-download',
  'lwp-request',
  'http',
  'https',
  'xh',
]);
/** Programs of languages that are not shells: a shell they start is a shell escape. */
const NON_SHELL_INTERPRETER =
  /^(?:python[\d.]*|pypy[\d.]*|node|nodejs|deno|bun|perl[\d.]*|ruby[\d.]*|php[\d.]*|lua[\d.]*)$/;
const NON_SHELL_SCRIPT = /\.(?:py|pyw|js|mjs|cjs|ts|pl|rb|php|lua)$/;

/** Folders of the sandbox that are its own scratch (tmpfs), where deleting is nobody's loss. */
const SCRATCH = ['/tmp', SANDBOX_HOME, '/dev/shm', '/proc', '/dev'];

const WRITE_FLAGS = /\b(?:O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND)\b/;
const EVIDENCE_MAX = 240;
const DETAIL_MAX = 160;
/** Events kept per program run (after duplicates are merged). */
const MAX_EVENTS = 50;
/** Calls of processes whose parent is not known yet, kept until it is. */
const MAX_ORPHAN_CALLS = 5000;

interface ProcessState {
  /** The last program it ran (its path). */
  program: string;
  /** It is the detonated program or one of its descendants. */
  inside: boolean;
}

export interface TraceContext {
  /** The detonated program's path, as the launch runs it (argv[0]). */
  programPath: string;
  /** The run's `what`, which every event names. */
  program: string;
  honeytokens: Pick<Honeytokens, 'files' | 'canaries'>;
  /** Paths inside the sandbox where deleting is harmless besides SCRATCH (the policy's tmpfs). */
  scratch?: readonly string[];
  /**
   * Whether a path outside the scratch folders existed in the sandbox: deleting what was never there
   * (`rm -rf ./build` before a first build) deletes nothing. Some kernels answer EROFS rather than
   * ENOENT for it on a read-only mount, so the result alone cannot tell. Default: everything existed.
   */
  existed?: (path: string) => boolean;
}

/** Feeds strace's lines in order; `events()` gives what the program did. */
export class TraceEvents {
  private readonly reader = new StraceLineReader();
  private readonly processes = new Map<number, ProcessState>();
  private readonly orphans = new Map<number, TracedCall[]>();
  private orphanCalls = 0;
  private readonly found = new Map<string, DetonationEvent>();
  /** Sockets connected to a name server, by inode, and whether a name was read from them. */
  private readonly dnsSockets = new Map<string, { named: boolean; evidence: string; address: string }>();
  private readonly honeyPaths: Map<string, string>;
  private readonly honeyNames: string[];
  private root: number | null = null;
  private dropped = 0;

  constructor(private readonly context: TraceContext) {
    this.honeyPaths = new Map(context.honeytokens.files.map((file) => [file.path, file.path]));
    this.honeyNames = [...new Set(context.honeytokens.files.map((file) => posix.basename(file.path)))];
  }

  /** One line of strace's output. */
  line(line: string): void {
    if (!this.worthReading(line)) return;
    const call = this.reader.push(line);
    if (call) this.call(call);
  }

  /** What was seen, each event once, the first MAX_EVENTS of them. */
  events(): DetonationEvent[] {
    for (const [, socket] of this.dnsSockets) {
      if (!socket.named) this.add('dns', `a name lookup (to ${socket.address})`, socket.evidence);
    }
    this.dnsSockets.clear();
    return [...this.found.values()];
  }

  /** Events past MAX_EVENTS that were not kept. */
  get droppedEvents(): number {
    return this.dropped;
  }

  /**
   * Most lines are a runtime opening its own files for reading: only an open that writes or names a
   * honeytoken, and the other calls, are read at all (the trace of a busy program is long).
   */
  private worthReading(line: string): boolean {
    if (!/^\d+\s+(?:open|openat|openat2)\(/.test(line)) return true;
    return WRITE_FLAGS.test(line) || this.honeyNames.some((name) => line.includes(name));
  }

  private call(call: TracedCall): void {
    if (this.root === null) {
      this.root = call.pid;
      this.processes.set(call.pid, { program: '', inside: false });
    }
    const state = this.processes.get(call.pid);
    if (!state) {
      // A child whose clone has not returned yet in the trace: kept until it has.
      if (this.orphanCalls >= MAX_ORPHAN_CALLS) {
        this.processes.set(call.pid, { program: '', inside: true });
        this.handle(call, this.processes.get(call.pid) as ProcessState);
        return;
      }
      const calls = this.orphans.get(call.pid) ?? [];
      calls.push(call);
      this.orphans.set(call.pid, calls);
      this.orphanCalls++;
      return;
    }
    this.handle(call, state);
  }

  private handle(call: TracedCall, state: ProcessState): void {
    switch (call.name) {
      case 'clone':
      case 'clone3':
      case 'fork':
      case 'vfork': {
        const child = clonedPid(call.result);
        if (child === null) return;
        const childState = { ...state };
        this.processes.set(child, childState);
        const waiting = this.orphans.get(child);
        if (waiting) {
          this.orphans.delete(child);
          this.orphanCalls -= waiting.length;
          for (const queued of waiting) this.handle(queued, childState);
        }
        return;
      }
      case 'execve':
      case 'execveat':
        return this.exec(call, state);
    }
    if (!state.inside) return;
    switch (call.name) {
      case 'open':
      case 'openat':
      case 'openat2':
      case 'creat':
        return this.open(call);
      case 'connect':
        return this.connect(call);
      case 'sendto':
      case 'sendmsg':
      case 'sendmmsg':
        return this.send(call);
      case 'unlink':
      case 'unlinkat':
      case 'rmdir':
        return this.remove(call);
      case 'rename':
      case 'renameat':
      case 'renameat2':
      case 'link':
      case 'linkat':
      case 'symlink':
      case 'symlinkat':
        return this.move(call);
    }
  }

  private exec(call: TracedCall, state: ProcessState): void {
    const pathArg = call.name === 'execveat' ? call.args[1] : call.args[0];
    const path = stringLiteral(pathArg ?? '')?.toString('utf8') ?? '';
    const ok = returned(call.result) === 0 || call.result.startsWith('?');
    const before = state.program;
    if (!state.inside) {
      if (!ok) return;
      if (path === this.context.programPath && LAUNCH_LAST.has(posix.basename(before))) state.inside = true;
      else if (!LAUNCHERS.has(posix.basename(path)) && before !== '') state.inside = true; // not the launch's: follow it
      state.program = path;
      return;
    }
    const name = posix.basename(path);
    const argv = argvOf(call.args[call.name === 'execveat' ? 2 : 1] ?? '');
    const shown = clip(argv.length > 0 ? argv.join(' ') : path, DETAIL_MAX);
    const carried = canariesIn(call.text, this.context.honeytokens);
    const carrying = carried.length > 0 ? ` carrying the value of ${carried.join(', ')}` : '';
    if (DOWNLOADERS.has(name)) this.add('exec-downloader', `${shown}${carrying}`, call.text, `exec ${name}`);
    else if (SHELLS.has(name) && isNonShell(before)) {
      this.add('exec-shell', `${shown} (started by ${posix.basename(before)})${carrying}`, call.text, `shell ${shown}`);
    }
    if (ok) state.program = path;
  }

  private open(call: TracedCall): void {
    const path = this.openedPath(call);
    if (path === null) return;
    const honey = this.honeyPaths.get(path);
    const flags = call.name === 'creat' ? 'O_CREAT' : (call.args[call.name === 'open' ? 1 : 2] ?? '');
    if (honey) {
      this.add('honeytoken-read', honey, call.text);
      return;
    }
    if (call.name === 'creat' || WRITE_FLAGS.test(flags)) this.persistence(path, call.text);
  }

  /** The absolute path an open named: the one `-y` shows for the descriptor it returned, or its argument resolved. */
  private openedPath(call: TracedCall): string | null {
    const opened = fdPath(call.result.split(' ')[0] ?? '');
    if (opened !== null && opened.startsWith('/')) return opened;
    const pathArg = call.name === 'open' || call.name === 'creat' ? call.args[0] : call.args[1];
    const dirArg = call.name === 'open' || call.name === 'creat' ? 'AT_FDCWD' : call.args[0];
    return resolvedPath(dirArg ?? '', pathArg ?? '');
  }

  private persistence(path: string, evidence: string): void {
    if (path.startsWith('/dev/') || path.startsWith('/proc/')) return;
    const what = persistenceIn(tilde(path));
    if (what) this.add('persistence-write', `${path} (${what})`, evidence);
  }

  private connect(call: TracedCall): void {
    const address = socketAddress(call.args[1] ?? '');
    if (!address) return;
    if (address.port === 53) {
      const socket = socketOf(call.args[0] ?? '');
      if (socket !== null) {
        if (!this.dnsSockets.has(socket))
          this.dnsSockets.set(socket, { named: false, evidence: call.text, address: address.text });
      } else this.add('dns', `a name lookup (to ${address.text})`, call.text);
      return;
    }
    if (address.loopback) return;
    this.add('connect', address.text, call.text);
  }

  private send(call: TracedCall): void {
    const socket = socketOf(call.args[0] ?? '');
    const dns = socket === null ? undefined : this.dnsSockets.get(socket);
    const address = call.name === 'sendto' ? socketAddress(call.args[4] ?? '') : null;
    const carried = canariesIn(call.text, this.context.honeytokens);
    const carrying = carried.length > 0 ? ` carrying the value of ${carried.join(', ')}` : '';
    if (dns || address?.port === 53) {
      const names = stringLiterals(call.args.slice(1).join(',')).flatMap((bytes) => {
        const name = dnsQuestion(bytes);
        return name ? [name] : [];
      });
      for (const name of new Set(names)) this.add('dns', `${name}${carrying}`, call.text);
      if (dns && names.length > 0) dns.named = true;
      if (!dns && names.length === 0 && address) this.add('dns', `a name lookup (to ${address.text})`, call.text);
      return;
    }
    if (address && !address.loopback) this.add('connect', `${address.text}${carrying}`, call.text);
  }

  /** A deletion of something that was not there (`rm -rf ./build` before a first build) deletes nothing. */
  private remove(call: TracedCall): void {
    if (call.result.includes(' ENOENT ')) return;
    const path =
      call.name === 'unlinkat'
        ? resolvedPath(call.args[0] ?? '', call.args[1] ?? '')
        : resolvedPath('AT_FDCWD', call.args[0] ?? '');
    if (path !== null && !this.isScratch(path) && this.existed(path)) this.add('delete-outside', path, call.text);
  }

  private move(call: TracedCall): void {
    const at = call.name.endsWith('at') || call.name === 'renameat2';
    const [from, to] =
      call.name === 'symlink'
        ? [null, resolvedPath('AT_FDCWD', call.args[1] ?? '')]
        : call.name === 'symlinkat'
          ? [null, resolvedPath(call.args[1] ?? '', call.args[2] ?? '')]
          : at
            ? [
                resolvedPath(call.args[0] ?? '', call.args[1] ?? ''),
                resolvedPath(call.args[2] ?? '', call.args[3] ?? ''),
              ]
            : [resolvedPath('AT_FDCWD', call.args[0] ?? ''), resolvedPath('AT_FDCWD', call.args[1] ?? '')];
    if (to !== null) this.persistence(to, call.text);
    const renamed = call.name.startsWith('rename') && !call.result.includes(' ENOENT ');
    if (from !== null && renamed && !this.isScratch(from) && this.existed(from)) {
      this.add('delete-outside', from, call.text);
    }
  }

  private existed(path: string): boolean {
    return this.context.existed?.(path) ?? true;
  }

  private isScratch(path: string): boolean {
    return [...SCRATCH, ...(this.context.scratch ?? [])].some(
      (folder) => path === folder || path.startsWith(`${folder}/`),
    );
  }

  private add(kind: DetonationEventKind, detail: string, evidence: string, key = detail): void {
    const id = `${kind}\0${key}`;
    if (this.found.has(id)) return;
    if (this.found.size >= MAX_EVENTS) {
      this.dropped++;
      return;
    }
    this.found.set(id, {
      kind,
      detail: clip(detail, DETAIL_MAX),
      program: this.context.program,
      evidence: clip(evidence, EVIDENCE_MAX),
    });
  }
}

/** `AT_FDCWD</srv/skill>` and `"id_rsa"` → `/srv/skill/id_rsa`; null when the folder is unknown. */
const resolvedPath = (dirArg: string, pathArg: string): string | null => {
  const bytes = stringLiteral(pathArg);
  if (bytes === null) return null;
  const path = bytes.toString('utf8');
  if (path.startsWith('/')) return posix.normalize(path);
  const dir = fdPath(dirArg);
  return dir !== null && dir.startsWith('/') ? posix.normalize(posix.join(dir, path)) : null;
};

const tilde = (path: string): string =>
  path === SANDBOX_HOME ? '~' : path.startsWith(`${SANDBOX_HOME}/`) ? `~${path.slice(SANDBOX_HOME.length)}` : path;

const isNonShell = (program: string): boolean => {
  const name = posix.basename(program);
  return NON_SHELL_INTERPRETER.test(name) || NON_SHELL_SCRIPT.test(name);
};

const argvOf = (arg: string): string[] => {
  const inner = arg.trim().replace(/^\[/, '').replace(/\]$/, '');
  return splitArgs(inner).flatMap((item) => {
    const bytes = stringLiteral(item);
    return bytes === null ? [] : [bytes.toString('utf8')];
  });
};

interface SocketAddress {
  text: string;
  port: number;
  loopback: boolean;
}

/** `{sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("1.2.3.4")}` and its IPv6 kin; null for any other family. */
export const socketAddress = (arg: string): SocketAddress | null => {
  const family = /sa_family=(AF_INET6?)\b/.exec(arg)?.[1];
  if (!family) return null;
  const port = Number(/sin6?_port=htons\((\d+)\)/.exec(arg)?.[1] ?? '0');
  const host =
    family === 'AF_INET'
      ? (/inet_addr\("([^"]*)"\)/.exec(arg)?.[1] ?? '?')
      : (/inet_pton\(AF_INET6, "([^"]*)"/.exec(arg)?.[1] ?? '?');
  const loopback = family === 'AF_INET' ? host.startsWith('127.') : host === '::1' || /^::ffff:127\./.test(host);
  return { text: family === 'AF_INET6' ? `[${host}]:${port}` : `${host}:${port}`, port, loopback };
};

/** The name a DNS query asks for (the question after the 12-byte header), or null when it is not one. */
export const dnsQuestion = (packet: Buffer): string | null => {
  if (packet.length < 17) return null;
  const labels: string[] = [];
  let at = 12;
  while (at < packet.length) {
    const size = packet[at] as number;
    if (size === 0) return labels.length > 0 ? labels.join('.') : null;
    if (size > 63 || at + 1 + size > packet.length) return labels.length > 0 ? `${labels.join('.')}…` : null;
    const label = packet.subarray(at + 1, at + 1 + size).toString('latin1');
    if (!/^[\x21-\x7e]+$/.test(label)) return null;
    labels.push(label);
    at += 1 + size;
  }
  return labels.length > 0 ? `${labels.join('.')}…` : null;
};

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
