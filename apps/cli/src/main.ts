#!/usr/bin/env node
/**
 * `skillhub`: the hub from the terminal. Tables on a terminal, `--json` for scripts; errors are
 * one line plus a hint, with exit codes 2 (usage), 3 (not found), 4 (refused / not certified),
 * 5 (network), 1 (anything else). The token is never printed.
 */
import { Command, CommanderError } from 'commander';
import { createContext, type CliIo } from './cli-context';
import { consumerCommands } from './commands/consumer';
import { discoveryCommands } from './commands/discovery';
import { keysCommands } from './commands/keys';
import { localCommands } from './commands/local';
import { publishingCommands } from './commands/publishing';
import { tokensCommands } from './commands/tokens';
import { EXIT, toCliError } from './exit-codes';

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const ctx = createContext(io);
  const { progress, redact } = ctx;
  const program = new Command('skillhub')
    .description('Skill Hub from the terminal: find, check, sign, pack and publish agent skills.')
    .option('--hub-url <url>', 'the hub (default: KAZMA_HUB_URL, then http://127.0.0.1:3000)')
    .option('--json', 'print JSON for scripts')
    .showHelpAfterError(false)
    .hook('preAction', (_program, action) => progress.step(`skillhub ${action.name()}`, { quiet: true }))
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: () => undefined,
    });
  for (const commands of [
    discoveryCommands,
    localCommands,
    publishingCommands,
    consumerCommands,
    keysCommands,
    tokensCommands,
  ]) {
    commands(program, ctx);
  }

  try {
    await program.parseAsync([...argv], { from: 'user' });
    progress.done();
    return EXIT.ok;
  } catch (err) {
    progress.done();
    if (err instanceof CommanderError) {
      // --help and --version end here too, with code 0.
      if (err.exitCode === 0) return EXIT.ok;
      io.stderr.write(`${redact(`error: ${err.message.replace(/^error: /, '')}`)}\nhint: run skillhub --help\n`);
      return EXIT.usage;
    }
    const failure = toCliError(err);
    io.stderr.write(`${redact(`error: ${failure.message}`)}\n`);
    if (failure.hint) io.stderr.write(`${redact(`hint: ${failure.hint}`)}\n`);
    return failure.exitCode;
  }
}

if (require.main === module) {
  void run(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr }).then((code) => {
    process.exitCode = code;
  });
}
