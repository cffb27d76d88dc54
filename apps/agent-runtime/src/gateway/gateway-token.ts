/**
 * The bearer token the HTTP gateway requires when the operator names none (`gateway.http.token_env`):
 * 256 random bits in `<state_dir>/gateway-token`, mode 0600, kept across restarts so clients stay
 * configured. A file that others could read, or that is not a token, is replaced by a new one. The
 * token itself is never logged; the runtime logs where it is.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const GATEWAY_TOKEN_FILE = 'gateway-token';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The token and the file it is in: read when the file is sound, else made and written. */
export function gatewayToken(stateDir: string): { token: string; path: string } {
  const path = join(stateDir, GATEWAY_TOKEN_FILE);
  const found = statSync(path, { throwIfNoEntry: false });
  if (found?.isFile() && (found.mode & 0o077) === 0 && found.uid === process.getuid?.()) {
    const token = readFileSync(path, 'utf8').trim();
    if (TOKEN.test(token)) return { token, path };
  }
  const token = randomBytes(32).toString('base64url');
  mkdirSync(dirname(path), { recursive: true });
  // Written whole under another name, then renamed over: never a moment with a half-written or readable token.
  const staging = `${path}.${process.pid}.tmp`;
  writeFileSync(staging, `${token}\n`, { mode: 0o600 });
  chmodSync(staging, 0o600);
  renameSync(staging, path);
  return { token, path };
}
