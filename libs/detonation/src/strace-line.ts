/**
 * Reads strace's text (`strace -f -qq -y --pidns-translation -s N`): one system call per line,
 * `PID name(args) = result`, a call another process interrupted split over an `<unfinished ...>`
 * and a `<... name resumed>` line. Pure: lines in, calls out, each once it has returned.
 */

export interface TracedCall {
  /** The host pid strace prefixes the line with. */
  pid: number;
  name: string;
  /** The arguments, split at top-level commas, exactly as strace printed them. */
  args: string[];
  /** What follows `= ` (`3</home/sandbox/.ssh/id_rsa>`, `-1 ENOENT (No such file or directory)`, `?`). */
  result: string;
  /** The whole call on one line, the pid left out. */
  text: string;
}

const LINE = /^(\d+)\s+(.*)$/;
const UNFINISHED = ' <unfinished ...>';
const RESUMED = /^<\.\.\. ([\w]+) resumed>(.*)$/;
const CALL = /^([a-z_][a-z0-9_]*)\((.*)\)\s+=\s+(.*)$/s;

/** Joins split calls: `push` each line, get back the call it completes, if any. */
export class StraceLineReader {
  private readonly pending = new Map<number, { name: string; head: string }>();

  push(line: string): TracedCall | null {
    const match = LINE.exec(line);
    if (!match) return null;
    const pid = Number(match[1]);
    const body = match[2] as string;
    if (body.endsWith(UNFINISHED)) {
      const head = body.slice(0, -UNFINISHED.length);
      const name = /^([a-z_][a-z0-9_]*)\(/.exec(head)?.[1];
      if (name) this.pending.set(pid, { name, head });
      return null;
    }
    const resumed = RESUMED.exec(body);
    if (resumed) {
      const started = this.pending.get(pid);
      this.pending.delete(pid);
      return started && started.name === resumed[1] ? parseCall(pid, started.head + (resumed[2] as string)) : null;
    }
    return parseCall(pid, body);
  }
}

const parseCall = (pid: number, body: string): TracedCall | null => {
  const match = CALL.exec(body);
  if (!match) return null;
  return { pid, name: match[1] as string, args: splitArgs(match[2] as string), result: match[3] as string, text: body };
};

/** Splits at commas outside strings, brackets and braces. */
export const splitArgs = (text: string): string[] => {
  const args: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === '[' || c === '{' || c === '(' || c === '<') depth++;
    else if (c === ']' || c === '}' || c === ')' || c === '>') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      args.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last !== '' || args.length > 0) args.push(last);
  return args;
};

/** The bytes of the first C string literal in `text` (strace's escapes undone), or null. */
export const stringLiteral = (text: string): Buffer | null => {
  const at = text.indexOf('"');
  if (at < 0) return null;
  return unescapeFrom(text, at + 1).bytes;
};

/** Every C string literal in `text`, as bytes. */
export const stringLiterals = (text: string): Buffer[] => {
  const found: Buffer[] = [];
  let at = text.indexOf('"');
  while (at >= 0) {
    const { bytes, end } = unescapeFrom(text, at + 1);
    found.push(bytes);
    at = text.indexOf('"', end + 1);
  }
  return found;
};

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  n: 10,
  t: 9,
  r: 13,
  v: 11,
  f: 12,
  a: 7,
  b: 8,
  '"': 34,
  '\\': 92,
};

const unescapeFrom = (text: string, from: number): { bytes: Buffer; end: number } => {
  const bytes: number[] = [];
  let i = from;
  for (; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '"') break;
    if (c !== '\\') {
      for (const byte of Buffer.from(c, 'utf8')) bytes.push(byte);
      continue;
    }
    const next = text[i + 1] ?? '';
    if (next === 'x') {
      bytes.push(parseInt(text.slice(i + 2, i + 4), 16) || 0);
      i += 3;
    } else if (/[0-7]/.test(next)) {
      const digits = /^[0-7]{1,3}/.exec(text.slice(i + 1))?.[0] ?? '0';
      bytes.push(parseInt(digits, 8) & 0xff);
      i += digits.length;
    } else {
      bytes.push(SIMPLE_ESCAPES[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return { bytes: Buffer.from(bytes), end: i };
};

/** The path strace's `-y` shows for a file descriptor (`3</home/sandbox>`, `AT_FDCWD</srv/skill>`), or null. */
export const fdPath = (arg: string): string | null => {
  const match = /^(?:-?\d+|AT_FDCWD)<(.*)>$/s.exec(arg.trim());
  return match ? (match[1] as string) : null;
};

/** The socket's inode in `5<socket:[21616]>`, or null. */
export const socketOf = (arg: string): string | null =>
  /<(?:socket|UDP|TCP|UDPv6|TCPv6):\[([^\]]*)\]>/.exec(arg)?.[1] ?? null;

/** The return value as a number (`-1` for an error), or null for `?`. */
export const returned = (result: string): number | null => {
  const match = /^(-?\d+)/.exec(result);
  return match ? Number(match[1]) : null;
};

/** A clone's child as the host numbers it: `2 /* 10024 in strace's PID NS *\/` → 10024, `10023` → 10023. */
export const clonedPid = (result: string): number | null => {
  const translated = /\/\* (\d+) in strace's PID NS \*\//.exec(result);
  if (translated) return Number(translated[1]);
  const value = returned(result);
  return value !== null && value > 0 ? value : null;
};
