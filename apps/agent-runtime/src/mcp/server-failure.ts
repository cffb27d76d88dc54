/**
 * Why a server did not start or stopped, in a sentence an operator can act on: how it ended, the
 * last thing it wrote to stderr, and, when a server without network says it could not reach
 * anything, the grant that gives it network. Pure.
 */
import { NEEDS_NETWORK, plainText } from '@skillhub/live-probe';

export interface ServerFailure {
  /** The client's error (a timeout, a closed connection, an install refused). */
  error: string;
  /** How the process ended, when it did. */
  exit: { code: number | null; signal: string | null } | null;
  /** The end of its stderr ('' when not captured). */
  stderr: string;
  /** Whether it ran with the host's network. */
  network: boolean;
  /** The skills (`author/name`) whose grant would give it network; [] for an operator's server. */
  grantTo: readonly string[];
}

const MAX_QUOTED = 300;

export function describeFailure(failure: ServerFailure): string {
  const lines = failure.stderr
    .split('\n')
    .map(plainText)
    .filter((line) => line !== '');
  const parts = [how(failure)];
  const last = lines.at(-1);
  if (last) parts.push(`stderr: "${last.slice(0, MAX_QUOTED)}"`);
  const offline = !failure.network && [failure.error, ...lines].some((text) => NEEDS_NETWORK.test(text));
  if (offline && failure.grantTo.length > 0) {
    const grants = failure.grantTo.map((skill) => `"${skill}": { network: true }`).join(', ');
    parts.push(
      `it looks like it needs network access, which its sandbox does not give: add grants: { ${grants} } to the runtime config`,
    );
  } else if (offline) {
    parts.push(
      'it looks like it needs network access, which its sandbox does not give: set sandbox: { network: true } on it',
    );
  }
  return parts.join('; ');
}

function how({ exit, error }: ServerFailure): string {
  if (exit?.signal) return `the server was killed by ${exit.signal} (a sandbox limit on CPU time or memory, often)`;
  if (exit) return `the server exited with code ${exit.code}`;
  return plainText(error).slice(0, MAX_QUOTED);
}
