/**
 * The patterns of C11's static scan. They are matched on source text one line at a time and
 * never on a parse of it: code is never executed nor imported. Comments and strings are not told
 * apart from code either, because a scanner that skips them can be fooled into skipping code
 * (`x = "#"; eval(y)`); a false alarm costs a reviewer a look, a miss costs a user their machine.
 * Quantifiers are bounded so that no line can make a pattern backtrack for long.
 */
import type { Severity } from '../finding';
import { KAZMA_PENALTIES } from '../kazma-score';

export interface CodeRule {
  /** Rule id after `C11.`. */
  code: string;
  severity: Severity;
  /** Tested on each line; no `g` flag. */
  pattern: RegExp;
  message: string;
  fixHint: string;
  /** A match counts only when this agrees (a placeholder is not a secret). */
  accept?: (match: RegExpExecArray) => boolean;
  /** Use that a Kazma skill must declare: reported once per file, and only when the permission is missing. */
  unlessPermission?: 'network_outbound' | 'file_write';
  /** A hard-coded secret: each file with one costs Kazma points. */
  secret?: true;
}

const NO_DYNAMIC_CODE = 'Call the code you need directly; a skill must not run code it builds or receives at run time.';
const NO_SHELL =
  'Run the program with an argument list (subprocess.run([...]) without shell=True, or spawn/execFile) and no shell.';
const NO_SECRET =
  'Remove the secret from the bundle, revoke it (it is now public), and read it from the environment or the agent’s secret store.';

/** Values a sample config writes where the real secret goes. */
const PLACEHOLDER = /\$\{|\{\{|<|>|your|example|sample|xxxx|placeholder|changeme|dummy|redacted|\*\*\*/i;

export const CODE_RULES: readonly CodeRule[] = [
  {
    code: 'eval',
    severity: 'high',
    // `model.eval()` and `df.eval()` are methods, not the built-in: only a bare call or a global object's counts.
    pattern: /(?<![\w.$])(?:(?:builtins|globalThis|window|global|self)\.)?eval\s*\(/,
    message: 'Calls eval(), which runs any string as code.',
    fixHint: NO_DYNAMIC_CODE,
  },
  {
    code: 'exec',
    severity: 'high',
    pattern: /(?<![\w.$])(?:builtins\.)?exec\s*\(/,
    message: 'Calls exec(), which runs any string as code (or, in JavaScript, a shell command).',
    fixHint: NO_DYNAMIC_CODE,
  },
  {
    code: 'new-function',
    severity: 'high',
    pattern: /\bnew\s+Function\s*\(/,
    message: 'Builds a function from a string with new Function(), which runs any string as code.',
    fixHint: NO_DYNAMIC_CODE,
  },
  {
    code: 'os-system',
    severity: 'high',
    pattern: /\bos\.(?:system|popen|exec[lv]p?e?|spawn[lv]p?e?)\s*\(/,
    message: 'Runs a shell command or program through the os module (os.system, os.popen, os.exec*).',
    fixHint: NO_SHELL,
  },
  {
    code: 'shell-true',
    severity: 'high',
    pattern: /\bshell\s*=\s*True\b|\bshell\s*:\s*true\b/,
    message:
      'Starts a process through the shell (shell=True / shell: true), so any text in the command is run as shell code.',
    fixHint: NO_SHELL,
  },
  {
    code: 'child-process-exec',
    severity: 'high',
    pattern: /\bchild_process\b.{0,40}?\.exec(?:Sync)?\s*\(|\bexec(?:File)?Sync\s*\(/,
    message: "Runs a command with Node's child_process exec/execSync, through a shell.",
    fixHint: NO_SHELL,
  },
  {
    code: 'dunder-import',
    severity: 'medium',
    pattern: /\b__import__\s*\(/,
    message: 'Imports a module by a computed name with __import__(), which hides what the code uses.',
    fixHint: 'Use a plain import statement.',
  },
  {
    code: 'pickle',
    severity: 'high',
    pattern: /\b(?:c?[Pp]ickle|_pickle|dill|joblib)\.(?:loads?|Unpickler)\s*\(/,
    message: 'Unpickles data, which runs any code the data carries.',
    fixHint: 'Load data as JSON (or another format that cannot carry code).',
  },
  {
    code: 'marshal',
    severity: 'high',
    pattern: /\bmarshal\.loads?\s*\(/,
    message: 'Loads code objects with marshal, which runs what the data carries.',
    fixHint: 'Ship the code as source, and load data as JSON.',
  },
  {
    code: 'ssh-key-read',
    severity: 'high',
    pattern: /(?<![\w$])\.ssh(?![\w-])|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\bauthorized_keys\b/,
    message: "Refers to the user's SSH keys (~/.ssh, id_rsa, authorized_keys).",
    fixHint: "Remove it: a skill has no business with the user's SSH keys.",
  },
  {
    code: 'sensitive-file-read',
    severity: 'high',
    pattern:
      /\/etc\/(?:passwd|shadow|sudoers)\b|(?<![\w$.-])\.env(?![\w-])|\.aws\/credentials|\.netrc\b|\.git-credentials\b/,
    message: 'Refers to a file that holds secrets or accounts (.env, /etc/passwd, ~/.aws/credentials, ~/.netrc).',
    fixHint:
      "Take configuration from the agent's settings or explicit environment variables, not from the user's secret files.",
  },
  {
    code: 'secret-aws-key',
    severity: 'high',
    pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/,
    message: 'Holds what looks like an AWS access key id.',
    fixHint: NO_SECRET,
    secret: true,
  },
  {
    code: 'secret-github-token',
    severity: 'high',
    pattern: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b|\bgithub_pat_\w{22,255}/,
    message: 'Holds what looks like a GitHub token.',
    fixHint: NO_SECRET,
    secret: true,
  },
  {
    code: 'secret-slack-token',
    severity: 'high',
    pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,255}/,
    message: 'Holds what looks like a Slack token.',
    fixHint: NO_SECRET,
    secret: true,
  },
  {
    code: 'secret-private-key',
    severity: 'high',
    pattern: /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY-----/,
    message: 'Holds a private key (a PEM "PRIVATE KEY" block).',
    fixHint: NO_SECRET,
    secret: true,
  },
  {
    code: 'secret-literal',
    severity: 'high',
    pattern:
      /\b[\w-]{0,40}?(?:password|passwd|secret|secret_?key|token|api_?key|access_?key|private_?key)['"]?\s{0,10}[:=]\s{0,10}(['"])([^'"\s]{16,256})\1/i,
    message: 'Assigns a long literal to a password, secret, token or API key.',
    fixHint: NO_SECRET,
    // An all-caps name (`YOUR_API_KEY_HERE`) or a template is where a secret goes, not a secret.
    accept: (match) => !/^[A-Z0-9_.-]+$/.test(match[2] ?? '') && !PLACEHOLDER.test(match[2] ?? ''),
    secret: true,
  },
  {
    code: 'undeclared-network',
    severity: 'medium',
    pattern:
      /\brequests\.(?:get|post|put|patch|delete|head|options|request|Session)\s*\(|\burllib\.request\b|\burllib2\b|\burlopen\s*\(|\bhttp\.client\b|\bhttpx\.|\baiohttp\.|\bsocket\.(?:socket|create_connection)\s*\(|\bfetch\s*\(|\baxios\b|\bhttps?\.(?:get|request)\s*\(|\bXMLHttpRequest\b|\bnew\s+WebSocket\s*\(/,
    message: 'Uses the network, but the manifest does not declare the network_outbound permission.',
    fixHint: 'Add network_outbound to the manifest’s permissions, or remove the network use.',
    unlessPermission: 'network_outbound',
  },
  {
    code: 'undeclared-file-write',
    severity: 'medium',
    pattern:
      /\bopen\s*\([^)\n]{0,200}?,\s{0,10}(?:mode\s*=\s*)?['"][rbt]{0,2}[wax+]|\.write_(?:text|bytes)\s*\(|\bfs(?:\.promises)?\.(?:writeFile|appendFile|createWriteStream|writeFileSync|appendFileSync|mkdir|mkdirSync|rm|rmSync|unlink|unlinkSync|rename|renameSync|copyFile|copyFileSync)\s*\(|\bshutil\.(?:copy\w{0,10}|move|rmtree)\s*\(|\bos\.(?:remove|unlink|rename|replace|makedirs|mkdir|rmdir)\s*\(/,
    message: 'Writes or deletes files, but the manifest does not declare the file_write permission.',
    fixHint: 'Add file_write to the manifest’s permissions, or remove the file writes.',
    unlessPermission: 'file_write',
  },
];

/** Decoding base64 (Python's base64 module, JavaScript's atob or Buffer.from(x, 'base64')). */
export const BASE64_DECODE =
  /\b(?:b64decode|urlsafe_b64decode|decodebytes|decodestring|b32decode|a85decode)\s*\(|\batob\s*\(|['"]base64['"]/;
/** Running a string as code. */
export const CODE_SINK = /(?<![\w.$])(?:eval|exec|compile|Function)\s*\(/;
/** `name = …` (Python) or `const name = …` (JavaScript); `==` is a comparison, not an assignment. */
export const ASSIGNMENT = /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_$][\w$]{0,63})\s*=(?!=)/;

export const BASE64_EXEC_RULE: CodeRule = {
  code: 'base64-exec',
  severity: 'high',
  pattern: BASE64_DECODE,
  message: 'Runs code decoded from base64, a way of hiding what the code does.',
  fixHint: 'Ship the code as readable source.',
};

/**
 * What Kazma's readiness score counts, once per Python file (Kazma skills are Python), wherever
 * the text is: in comments and in method names such as `model.eval(` too, as its validator's
 * lookaround patterns do.
 */
export const KAZMA_PATTERNS: readonly { text: string; pattern: RegExp; points: number; code: string }[] = [
  { text: 'eval(', pattern: /(?<!\w)eval\s*\(/, points: KAZMA_PENALTIES.eval, code: 'score-eval' },
  { text: 'exec(', pattern: /(?<!\w)exec\s*\(/, points: KAZMA_PENALTIES.exec, code: 'score-exec' },
  {
    text: '__import__',
    pattern: /(?<!\w)__import__(?!\w)/,
    points: KAZMA_PENALTIES.dunderImport,
    code: 'score-dunder-import',
  },
  { text: 'os.system(', pattern: /(?<!\w)os\.system\s*\(/, points: KAZMA_PENALTIES.osSystem, code: 'score-os-system' },
];

export const isPythonFile = (extension: string): boolean => extension === '.py' || extension === '.pyw';

const CODE_EXTENSIONS = new Set(
  '.py .pyw .js .mjs .cjs .jsx .ts .mts .cts .tsx .sh .bash .zsh .ksh .fish .rb .ps1 .psm1 .pl .pm .php .lua .bat .cmd'.split(
    ' ',
  ),
);
/** Files scanned for secrets only. */
const CONFIG_EXTENSIONS = new Set('.json .yaml .yml .toml .ini .cfg .conf .env .properties'.split(' '));

/** Code by its extension, or by a `#!` first line (a script named `run`). */
export const isCodeFile = (extension: string, content: Buffer): boolean =>
  CODE_EXTENSIONS.has(extension) || (content[0] === 0x23 && content[1] === 0x21);

export const isConfigFile = (extension: string, path: string): boolean =>
  CONFIG_EXTENSIONS.has(extension) || /(?:^|\/)\.env(?:\.[^/]*)?$/.test(path);
