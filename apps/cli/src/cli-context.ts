/**
 * What every command shares: the environment, output (answers on stdout, progress on stderr, both
 * redacted), colours, and a hub client. The token is known before anything is printed, so no
 * output can carry it.
 */
import type { Command } from 'commander';
import { HubClient } from '@skillhub/hub-client';
import { resolveHubUrl, resolveToken } from './config';
import { CliError, EXIT, type ExitCode } from './exit-codes';
import { colorEnabled, painter, terminalJson, type Painter, type TerminalText } from './format';
import { Progress } from './progress';
import { confirm } from './confirm';
import { readSecret, type SecretStdin } from './secret-input';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  /** Where `login --token-stdin` and `secret set` read a secret; absent in callers that pipe none. */
  stdin?: SecretStdin;
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

interface GlobalOptions {
  hubUrl?: string;
  json?: boolean;
}

export interface CliContext {
  env: NodeJS.ProcessEnv;
  /** A secret from stdin (piped, or typed at a prompt that does not echo): never from argv. */
  readSecret(what: string, pipedOnly?: boolean): Promise<string>;
  /** Goes on when `yes`, or when the user types y at the terminal; otherwise throws (confirm.ts). */
  confirm(question: string, yes: boolean | undefined): Promise<void>;
  paint: Painter;
  progress: Progress;
  /** Removes the token from any text. */
  redact(text: string): string;
  /** The answer: JSON with --json, else the human form (escaped: format.ts); it replaces the spinner. */
  print(cmd: Command, value: unknown, human: () => TerminalText): void;
  /** The hub in use: --hub-url, KAZMA_HUB_URL, the config file's, or the default; normalised. */
  hubUrl(cmd: Command): string;
  /**
   * A hub client for `hubUrl`; `needsToken` fails early, with a hint, when there is none. `token`
   * overrides the one configured (login checks a token before storing it).
   */
  client(cmd: Command, needsToken?: boolean, token?: string): HubClient;
  statusColour(status: string): TerminalText;
  /** What the command found asks for a non-zero exit with no error (npm's `outdated`): set, then read by main. */
  setExitCode(code: ExitCode): void;
  exitCode(): ExitCode;
}

const REDACTED = '[redacted]';

export function createContext(io: CliIo): CliContext {
  const { env } = io;
  let secretToken: string | undefined = env.SKILLHUB_TOKEN || undefined;
  const redact = (text: string) => (secretToken ? text.split(secretToken).join(REDACTED) : text);
  const progress = new Progress(io.stderr, redact);
  const paint = painter(colorEnabled(io.stdout, env));
  const globals = (cmd: Command): GlobalOptions => cmd.optsWithGlobals() as GlobalOptions;
  let exitCode: ExitCode = EXIT.ok;
  return {
    setExitCode: (code) => void (exitCode = code),
    exitCode: () => exitCode,
    env,
    readSecret: (what, pipedOnly) => {
      progress.done();
      return readSecret(io.stdin, io.stderr, what, pipedOnly);
    },
    confirm: async (question, yes) => {
      if (yes) return;
      progress.done();
      await confirm(io.stdin, io.stderr, redact(question));
    },
    paint,
    progress,
    redact,
    print(cmd, value, human) {
      progress.done();
      io.stdout.write(`${redact(globals(cmd).json ? terminalJson(value) : human().text)}\n`);
    },
    hubUrl: (cmd) => resolveHubUrl(globals(cmd).hubUrl, env),
    client(cmd, needsToken = false, given?: string) {
      const baseUrl = resolveHubUrl(globals(cmd).hubUrl, env);
      const token = given ?? resolveToken(env, baseUrl);
      secretToken = token;
      if (needsToken && token === undefined) {
        // npm's ENEEDAUTH: exit 1, not a usage error.
        throw new CliError('no token', EXIT.other, `Run skillhub login (for ${baseUrl}), or set SKILLHUB_TOKEN.`);
      }
      return new HubClient({
        baseUrl,
        token,
        maxAttempts: 2,
        userAgent: 'skillhub-cli',
      });
    },
    statusColour(status) {
      if (status === 'certified' || status === 'active') return paint.green(status);
      return ['failed', 'revoked', 'yanked', 'expired'].includes(status) ? paint.red(status) : paint.yellow(status);
    },
  };
}

/** Parses a skill reference: `author/name` or `author/name@version`. */
export function parseRef(ref: string, requireVersion = false): { author: string; name: string; version?: string } {
  const match = /^([^/@\s]+)\/([^/@\s]+)(?:@([^/@\s]+))?$/.exec(ref);
  if (!match || (requireVersion && !match[3])) {
    const form = requireVersion ? 'author/name@version' : 'author/name[@version]';
    throw new CliError(`"${ref}" is not a skill reference`, EXIT.usage, `Write it as ${form}.`);
  }
  return { author: match[1]!, name: match[2]!, version: match[3] };
}

/** A comma list option: trimmed, empties dropped; undefined when not given. */
export const csv = (value?: string): string[] | undefined =>
  value
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
