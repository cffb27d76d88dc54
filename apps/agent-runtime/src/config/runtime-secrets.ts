/**
 * The values of the secrets the runtime config names (`secrets:`), each read once at start from the
 * one place the config says: an environment variable it names, or a file. Nothing else of the
 * runtime's environment ever reaches a server's `${NAME}` placeholders.
 */
import { readFileSync } from 'node:fs';
import type { SecretSource } from './runtime-config';

export type SecretValue = { ok: true; value: string } | { ok: false; problem: string };

export function readSecrets(
  secrets: Readonly<Record<string, SecretSource>>,
  env: NodeJS.ProcessEnv,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): Map<string, SecretValue> {
  return new Map(Object.entries(secrets).map(([name, source]) => [name, readSecret(source, env, readFile)]));
}

function readSecret(source: SecretSource, env: NodeJS.ProcessEnv, readFile: (path: string) => string): SecretValue {
  let value: string | undefined;
  if ('env' in source) {
    value = env[source.env];
    if (value === undefined) return { ok: false, problem: `the environment variable ${source.env} is not set` };
  } else {
    try {
      // A file written by `echo` ends with a newline that is not part of the secret.
      value = readFile(source.file).replace(/\r?\n$/, '');
    } catch (err) {
      return {
        ok: false,
        problem: `${source.file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      };
    }
  }
  const where = 'env' in source ? `the environment variable ${source.env}` : source.file;
  if (value === '') return { ok: false, problem: `${where} is empty` };
  if (value.includes('\0')) return { ok: false, problem: `${where} holds a NUL character` };
  return { ok: true, value };
}
