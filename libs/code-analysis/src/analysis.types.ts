/**
 * What the code analysers report about one file: facts, not verdicts. The certifier (C11) decides
 * what each fact does to the level; see docs/security.md.
 */

/** Languages whose files are parsed (tree-sitter grammars in WASM); `tsx` is TypeScript with JSX. */
export type Language = 'python' | 'shell' | 'javascript' | 'typescript' | 'tsx';

/**
 * Ordinary capabilities: what code can do that a manifest must declare. Each is proven by a
 * file and line; none of them fails a skill by itself.
 * - process_exec: runs a program (a named one, with an argument list or a constant command line);
 * - network: opens outbound connections (HTTP clients, sockets, fetch);
 * - network_inbound: listens for connections;
 * - env_read: reads environment variables;
 * - file_read: reads files outside the skill's own folder (absolute, home or computed paths);
 * - file_write: writes, renames or deletes files.
 */
export const CAPABILITY_KINDS = [
  'process_exec',
  'network',
  'network_inbound',
  'env_read',
  'file_read',
  'file_write',
] as const;
export type CapabilityKind = (typeof CAPABILITY_KINDS)[number];

/**
 * Shapes the certifier refuses (every one of them fails certification):
 * - dynamic-code: eval/exec/compile, `__import__`, importlib, runpy, types.FunctionType, pickle or
 *   marshal loads, new Function, vm, attribute or subscript access on builtins/modules/globals with
 *   a computed name;
 * - obfuscation: decode-then-run, rot13/hex/zlib payloads run as code, non-ASCII identifiers,
 *   a coding cookie other than UTF-8, source that is not UTF-8;
 * - native-code: ctypes, cffi, loading shared libraries, process.dlopen, native addons;
 * - download-and-run: a download piped or handed to a shell or interpreter;
 * - destructive-command: rm -rf of /, ~ or a variable, mkfs, dd onto a device, fork bombs, chmod -R 777 /;
 * - reverse-shell: a shell wired to a socket (/dev/tcp, nc -e, pty.spawn over a socket, ...);
 * - shell-from-input: a shell command line that is not a constant (built from variables or input);
 * - exfiltration: credentials or the whole environment read, and network use in the same file;
 * - credentials-access: reads of credential files (~/.ssh, ~/.aws/credentials, .env, .netrc, ...)
 *   however the path is built (a reviewer must look even when nothing is sent);
 * - endless-loop: a loop with no way out (`while True:` with no break, return, raise, yield, await or
 *   exit), which hangs whatever calls it (a review finding, not a refusal);
 * - busy-loop: such a loop that cannot wait for anything either (it calls nothing outside the file
 *   but the file's own functions and pure builtins), so it holds a CPU until it is killed;
 * - injection: SQL built from a function's input and executed, or a path built under a fixed folder
 *   from a function's input and opened with nothing checking it stays there (python-injection.ts);
 * - persistence: writes to a place that runs what it holds later (shell rc files, authorized_keys,
 *   crontabs, systemd/launchd units, git hooks) or to the skill's own instructions (persistence-paths.ts);
 * - unparsable: the file does not parse as its language, so nothing can be proven about it.
 */
export const ISSUE_KINDS = [
  'dynamic-code',
  'obfuscation',
  'native-code',
  'download-and-run',
  'destructive-command',
  'reverse-shell',
  'shell-from-input',
  'exfiltration',
  'credentials-access',
  'endless-loop',
  'busy-loop',
  'injection',
  'persistence',
  'unparsable',
] as const;
export type IssueKind = (typeof ISSUE_KINDS)[number];

export interface CapabilityUse {
  capability: CapabilityKind;
  file: string;
  /** 1-based. */
  line: number;
  /** What proves it, as written in the file (shortened to EVIDENCE_MAX), e.g. `subprocess.run(["git", ...])`. */
  evidence: string;
}

export interface CodeIssue {
  kind: IssueKind;
  file: string;
  /** 1-based, or null when the issue is about the whole file. */
  line: number | null;
  /** One sentence that says what was found, e.g. "Runs code built at run time with exec()." */
  message: string;
  /** The code that proves it (shortened to EVIDENCE_MAX). */
  evidence: string;
}

/** Text inside code that a model may read: comments and docstrings (the text checks read them). */
export interface CodeText {
  line: number;
  text: string;
}

export interface FileAnalysis {
  path: string;
  language: Language;
  capabilities: CapabilityUse[];
  issues: CodeIssue[];
  comments: CodeText[];
  /** The first line that reads the whole environment, if any (another file may send it: see the certifier). */
  environmentRead?: number;
}

/** What a constant shell command line does, as a shell would read it. */
export interface ShellCommandAnalysis {
  capabilities: CapabilityUse[];
  issues: CodeIssue[];
  /** The first line that reads the whole environment (dumps, copies or serialises it), if any. */
  environmentRead?: number;
}

/** Where a finding inside an analysed string points. */
export interface SourceLocation {
  file: string;
  line: number;
}

/** Longest evidence string kept; longer ones are cut with an ellipsis. */
export const EVIDENCE_MAX = 160;

/** Uses listed per capability and file; the rest are counted, not listed. */
export const MAX_USES_PER_CAPABILITY = 5;

/**
 * Issues listed per file, the first by line: enough for the certifier to list ten of a kind and
 * say how many more there are; a file with more is refused many times over.
 */
export const MAX_ISSUES_PER_FILE = 50;
