/**
 * A secret (a token, a Kazma secret) read without putting it on a command line, where shell
 * history and `ps` would keep it: piped on stdin (`--token-stdin`, as `docker login
 * --password-stdin`), or typed at a terminal prompt that does not echo it.
 */
import { CliError, EXIT } from './exit-codes';

export interface SecretStdin {
  isTTY?: boolean;
  setRawMode?(raw: boolean): unknown;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  on(event: 'end' | 'error', listener: (err?: Error) => void): unknown;
  removeAllListeners(event?: string): unknown;
  pause(): unknown;
  resume(): unknown;
}

/** Longer than any token or secret the hub takes; a larger input is a mistake (a file piped in). */
const MAX_SECRET_CHARS = 4096;

/** The first line of stdin (or everything, without its trailing line break), trimmed; refused when empty. */
export async function readSecret(
  stdin: SecretStdin | undefined,
  prompt: { write(text: string): unknown },
  what: string,
  pipedOnly = false,
): Promise<string> {
  if (!stdin) throw new CliError(`no ${what} given`, EXIT.usage, `Pipe the ${what} on stdin.`);
  const text = stdin.isTTY && !pipedOnly ? await typed(stdin, prompt, what) : await piped(stdin);
  const secret = text.split(/\r?\n/)[0]!.trim();
  if (secret === '') throw new CliError(`no ${what} given`, EXIT.usage, `Pipe the ${what} on stdin, or type it.`);
  if (secret.length > MAX_SECRET_CHARS) throw new CliError(`the ${what} is too long`, EXIT.usage);
  return secret;
}

function piped(stdin: SecretStdin): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    stdin.on('data', (chunk) => {
      text += chunk.toString();
      if (text.length > MAX_SECRET_CHARS + 2) {
        stdin.removeAllListeners();
        stdin.pause();
        resolve(text);
      }
    });
    stdin.on('end', () => resolve(text));
    stdin.on('error', (err) => reject(err ?? new Error('stdin failed')));
    stdin.resume();
  });
}

/** A terminal in raw mode: nothing echoed, Enter ends, Ctrl-C or Ctrl-D aborts, Backspace erases. */
function typed(stdin: SecretStdin, prompt: { write(text: string): unknown }, what: string): Promise<string> {
  prompt.write(`${what}: `);
  stdin.setRawMode?.(true);
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = (error?: CliError) => {
      stdin.setRawMode?.(false);
      stdin.removeAllListeners('data');
      stdin.pause();
      prompt.write('\n');
      if (error) reject(error);
      else resolve(text);
    };
    stdin.on('data', (chunk) => {
      for (const c of chunk.toString()) {
        if (c === '\r' || c === '\n') return finish();
        if (c === '\u0003' || c === '\u0004') return finish(new CliError('cancelled', EXIT.usage));
        if (c === '\u007f' || c === '\b') text = [...text].slice(0, -1).join('');
        else if (text.length <= MAX_SECRET_CHARS) text += c;
      }
    });
    stdin.resume();
  });
}
