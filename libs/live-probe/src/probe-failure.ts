/**
 * Why a server did not list its tools, in a sentence a publisher can act on. Pure: the probe passes
 * what it saw (timeout, exit, stderr, the client's error) and gets the detail of a 'failed' probe.
 */

export interface ProbeFailure {
  /** The probe's own deadline passed. */
  timedOut: boolean;
  timeoutMs: number;
  /** How the sandbox ended, when it did before the probe gave up. */
  exit: { code: number | null; signal: string | null } | null;
  /** The end of the server's stderr. */
  stderr: string;
  /** The MCP client's error, when there was one. */
  error: string | null;
}

/** What a server says when it was started without network (the sandbox gives none unless granted). */
export const NEEDS_NETWORK =
  /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ENETUNREACH|EHOSTUNREACH|getaddrinfo|fetch failed)\b/i;

/** What the server's own words suggest it is missing; the first that matches wins. */
const HINTS: readonly { pattern: RegExp; hint: string }[] = [
  {
    pattern: NEEDS_NETWORK,
    hint: 'it looks like it needs network access to start, which the certifier does not give',
  },
  {
    pattern: /api[ _-]?key|\btoken\b|environment variable|\benv(ironment)? var|\bsecret\b|credential/i,
    hint: 'it looks like it needs a secret or an environment variable to start; list its tools without one, or declare it',
  },
];

const MAX_QUOTED = 300;

export const probeFailureDetail = (failure: ProbeFailure): string => {
  const lines = failure.stderr
    .split('\n')
    .map((line) => plainText(line))
    .filter((line) => line !== '');
  const matched = HINTS.flatMap(({ pattern, hint }) => {
    const line = [...lines].reverse().find((candidate) => pattern.test(candidate));
    return line ? [{ hint, line }] : [];
  })[0];
  const quoted = matched?.line ?? lines.at(-1);
  const parts = [what(failure)];
  if (matched) parts.push(matched.hint);
  if (quoted) parts.push(`stderr: "${quoted.slice(0, MAX_QUOTED)}"`);
  else if (failure.error && !failure.timedOut && !failure.exit)
    parts.push(plainText(failure.error).slice(0, MAX_QUOTED));
  return parts.join('; ');
};

const what = (failure: ProbeFailure): string => {
  if (failure.timedOut) return `the server did not list its tools within ${Math.round(failure.timeoutMs / 100) / 10} s`;
  const exit = failure.exit;
  if (exit?.signal) return `the server was killed by ${exit.signal}, often a sandbox limit on CPU time or memory`;
  if (exit) return `the server exited with code ${exit.code} before listing its tools`;
  return 'the server did not answer the MCP handshake and tools/list';
};

// eslint-disable-next-line no-control-regex
const ANSI_SEQUENCE = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** Control characters (ANSI colours above all) removed, so the detail is plain text. */
export const plainText = (text: string): string => text.replace(ANSI_SEQUENCE, '').replace(CONTROL, ' ').trim();
