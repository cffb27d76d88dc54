/**
 * What the detonation saw (C16): the programs a skill would run, run in the sandbox with planted
 * honeytokens and traced system calls, and what they tried. Gathered by the worker before
 * certification (see libs/detonation); the check only reads it.
 */

export const DETONATION_EVENT_KINDS = [
  /** A planted credential (`~/.ssh/id_rsa`, `~/.aws/credentials`, the working folder's `.env`…) opened. */
  'honeytoken-read',
  /** A connection to an address other than the sandbox's own loopback. */
  'connect',
  /** A name looked up (a query to port 53). */
  'dns',
  /** A shell started by a program that is not a shell (Python's `os.system`, Node's `exec`). */
  'exec-shell',
  /** A program that fetches or sends over the network started (`curl`, `wget`, `nc`, `socat`…). */
  'exec-downloader',
  /** A file that something else runs later written (a shell start-up file, authorized_keys, a crontab…). */
  'persistence-write',
  /** A file deleted or renamed away outside the sandbox's own scratch folders. */
  'delete-outside',
] as const;
export type DetonationEventKind = (typeof DETONATION_EVENT_KINDS)[number];

/** One program the detonation ran. */
export interface DetonationRun {
  /** What it was, for a reader: `scripts/fetch.py --help`, `SKILL.md code block`, `tool get_forecast`. */
  what: string;
  /** The bundle file it came from, or null. */
  file: string | null;
  /** 1-based line in `file` (a code block's first line), or null. */
  line: number | null;
  /** Its exit code; null when it was killed (timeout, limits). */
  exit: number | null;
  timedOut: boolean;
}

export interface DetonationEvent {
  kind: DetonationEventKind;
  /** What was touched: the honeytoken's path, the address and port, the name looked up, the program started. */
  detail: string;
  /** The `what` of the run it happened in. */
  program: string;
  /** The traced system call, shortened. */
  evidence: string;
}

export interface DetonationNotRun {
  what: string;
  reason: string;
}

/**
 * What a program printed (its first bytes): the agent reads it after running it, so it is text a
 * model reads and, often, the next command it runs (C11 and C12 judge it where the program is).
 * Not kept in the report.
 */
export interface DetonationOutput {
  what: string;
  file: string | null;
  line: number | null;
  text: string;
}

export interface DetonationResult {
  ran: DetonationRun[];
  events: DetonationEvent[];
  notRun: DetonationNotRun[];
  outputs?: DetonationOutput[];
}
