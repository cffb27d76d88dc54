#!/usr/bin/env node
/**
 * `skillhub`: the hub from the terminal. Tables on a terminal, `--json` for scripts; errors are
 * one line plus a hint on stderr (with `--json`, npm's `{"error": {"code", "summary", "detail"}}`
 * on stdout), with exit codes 2 (usage), 3 (not found), 4 (refused / not certified), 5 (network),
 * 1 (anything else, a missing token, and `outdated` finding something, as npm's). The token is
 * never printed.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { createContext, type CliIo } from './cli-context';
import { accountCommands } from './commands/account';
import { consumerCommands } from './commands/consumer';
import { discoveryCommands } from './commands/discovery';
import { keysCommands } from './commands/keys';
import { localCommands } from './commands/local';
import { publishingCommands } from './commands/publishing';
import { tokensCommands } from './commands/tokens';
import { EXIT, toCliError } from './exit-codes';
import { block, oneLine, type TerminalText, terminalJson } from './format';

/** The version of the workspace package apps/cli, found through the link npm made for it (from src/ and dist/ alike). */
const VERSION = (JSON.parse(readFileSync(require.resolve('@skillhub/cli/package.json'), 'utf8')) as { version: string })
  .version;

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const ctx = createContext(io);
  const { progress, redact } = ctx;
  const program = new Command('skillhub')
    .description('Skill Hub from the terminal: find, check, sign, pack and publish agent skills.')
    .option('--hub-url <url>', 'the hub (default: KAZMA_HUB_URL, then http://127.0.0.1:3000)')
    // Only `-V` is the program's: commander reads program options after a subcommand too, and
    // `--version <semver>` belongs to validate, sign and publish (an Agent Skill's version).
    // `skillhub --version` alone is answered before parsing.
    .version(VERSION, '-V', 'print the version of skillhub (also: skillhub --version)')
    .option('--json', 'print JSON for scripts')
    .showHelpAfterError(false)
    .hook('preAction', (_program, action) => progress.step(`skillhub ${action.name()}`, { quiet: true }))
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: () => undefined,
    });
  for (const commands of [
    accountCommands,
    discoveryCommands,
    localCommands,
    publishingCommands,
    consumerCommands,
    keysCommands,
    tokensCommands,
  ]) {
    commands(program, ctx);
  }

  // Errors name what the hub or a publisher wrote (a name, a problem's message): escaped like any output.
  const report = (text: string) => io.stderr.write(`${redact(text)}\n`);
  if (argv.length === 1 && argv[0] === '--version') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  // Read before parsing, so a usage error is answered in JSON too.
  const json = argv.includes('--json');
  const fail = (
    code: number,
    summary: string,
    detail: string | undefined,
    format: (text: string) => TerminalText = oneLine,
  ): number => {
    if (json) io.stdout.write(`${redact(terminalJson({ error: { code, summary, detail: detail ?? null } }))}\n`);
    else {
      report(format(`error: ${summary}`).text);
      if (detail) report(oneLine(`hint: ${detail}`).text);
    }
    return code;
  };
  try {
    await program.parseAsync([...argv], { from: 'user' });
    progress.done();
    return ctx.exitCode();
  } catch (err) {
    progress.done();
    if (err instanceof CommanderError) {
      // --help and --version end here too, with code 0.
      if (err.exitCode === 0) return EXIT.ok;
      return fail(EXIT.usage, err.message.replace(/^error: /, ''), 'run skillhub --help', block);
    }
    const failure = toCliError(err);
    return fail(failure.exitCode, failure.message, failure.hint);
  }
}

/** The `skillhub` command: the package's bin (bin/skillhub.js) and `node dist/apps/cli/src/main.js` both end here. */
export function main(): void {
  void run(process.argv.slice(2), {
    env: process.env,
    // Read lazily: only login and secret set touch stdin.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
  }).then((code) => {
    process.exitCode = code;
  });
}

if (require.main === module) main();
