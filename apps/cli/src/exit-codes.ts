/** The CLI's exit codes and the one error type its commands throw: one line, plus a hint. */
import { HubApiError, HubRequestError, HubResponseError, HubUnreachableError } from '@skillhub/hub-client';

export const EXIT = {
  ok: 0,
  other: 1,
  usage: 2,
  notFound: 3,
  /** The hub (or the local checks) refused: validation, verification, not certified. */
  refused: 4,
  network: 5,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Any thrown value as a CliError: the hub client's errors mapped to their exit codes and hints. */
export function toCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof HubUnreachableError) {
    return new CliError(err.message, EXIT.network, 'Is the hub running? Check KAZMA_HUB_URL or --hub-url.');
  }
  if (err instanceof HubApiError) {
    if (err.status === 404) return new CliError(err.message, EXIT.notFound, 'Check the author, name and version.');
    if (err.status === 401 || err.status === 403) {
      return new CliError(
        err.message,
        EXIT.refused,
        'Set SKILLHUB_TOKEN (or the config file) to a token with the right scopes.',
      );
    }
    if (err.status === 429) return new CliError(err.message, EXIT.other, 'Rate limited: try again in a moment.');
    if (err.status === 409) {
      const hint =
        err.code === 'SKILL.VERSION_EXISTS'
          ? "Versions are immutable: raise the version (the manifest's, or --version) and publish again."
          : 'The hub holds a different state already: check it (skillhub status, info) before trying again.';
      return new CliError(err.message, EXIT.refused, hint);
    }
    if (err.status >= 400 && err.status < 500) {
      return new CliError(
        err.message,
        EXIT.refused,
        'Fix the problems listed and try again (`skillhub validate <dir>`).',
      );
    }
    return new CliError(err.message, EXIT.other, 'The hub failed; try again later.');
  }
  if (err instanceof HubRequestError)
    return new CliError(err.message, EXIT.usage, 'Check the arguments and the hub URL.');
  if (err instanceof HubResponseError) return new CliError(err.message, EXIT.other, 'Is KAZMA_HUB_URL a Skill Hub?');
  const message = err instanceof Error ? err.message : String(err);
  return new CliError(message.split('\n')[0] ?? 'unknown error', EXIT.other);
}
