/**
 * A yes before a change users cannot take back in one step (yank, deprecate, revoke), as npm asks
 * before `unpublish` and gh before `repo delete`: asked at a terminal, or given by `--yes`; a
 * script with no terminal must say `--yes`, so a change is never made by a pipe's accident.
 */
import { CliError, EXIT } from './exit-codes';
import type { SecretStdin } from './secret-input';

export async function confirm(
  stdin: SecretStdin | undefined,
  prompt: { write(text: string): unknown },
  question: string,
): Promise<void> {
  if (!stdin?.isTTY) {
    throw new CliError(`${question} needs a yes`, EXIT.usage, 'Pass --yes to confirm: there is no terminal to ask.');
  }
  prompt.write(`${question} [y/N] `);
  const answer = await new Promise<string>((resolve, reject) => {
    let text = '';
    stdin.on('data', (chunk) => {
      text += chunk.toString();
      if (text.includes('\n')) {
        stdin.removeAllListeners('data');
        stdin.pause();
        resolve(text);
      }
    });
    stdin.on('end', () => resolve(text));
    stdin.on('error', (err) => reject(err ?? new Error('stdin failed')));
    stdin.resume();
  });
  if (!/^\s*y(es)?\s*$/i.test(answer.split('\n')[0]!)) {
    throw new CliError('not confirmed: nothing was changed', EXIT.other);
  }
}
