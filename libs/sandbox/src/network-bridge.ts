/**
 * The sandbox end of the egress proxy. A sandbox granted network has its own network namespace with
 * only a loopback in it; this small Node program runs as its pid 1, listens on
 * 127.0.0.1:SANDBOX_PROXY_PORT there, carries each connection to the proxy's Unix socket bound into the
 * sandbox, and runs the server itself as its child (stdio inherited, its exit passed on). Pure: it
 * only builds the command line.
 */
import { SANDBOX_PROXY_PORT } from './egress-proxy';

/** Where the proxy's socket appears inside the sandbox. */
export const SANDBOX_PROXY_SOCKET = '/run/skillhub/egress.sock';

/** The proxy URL a sandboxed program is given. */
export const SANDBOX_PROXY_URL = `http://127.0.0.1:${SANDBOX_PROXY_PORT}`;

/** What tells programs to use the proxy: curl, Python, Go, npm and most HTTP clients read these; Node 22.21+ with NODE_USE_ENV_PROXY. */
export const PROXY_ENV: Readonly<Record<string, string>> = Object.freeze({
  HTTP_PROXY: SANDBOX_PROXY_URL,
  HTTPS_PROXY: SANDBOX_PROXY_URL,
  http_proxy: SANDBOX_PROXY_URL,
  https_proxy: SANDBOX_PROXY_URL,
  NODE_USE_ENV_PROXY: '1',
});

// argv: [node, socket, port, program, ...args]. Signals to pid 1 are passed to the server; its exit
// (code, or 128 + signal) is the sandbox's.
const BRIDGE = `
const net = require('net');
const { spawn } = require('child_process');
const { signals } = require('os').constants;
const [socketPath, port, program, ...args] = process.argv.slice(1);
const bridge = net.createServer((inside) => {
  const outside = net.connect(socketPath);
  inside.pipe(outside);
  outside.pipe(inside);
  inside.on('error', () => outside.destroy());
  outside.on('error', () => inside.destroy());
});
bridge.on('error', (error) => { console.error('network bridge: ' + error.message); process.exit(125); });
bridge.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(program, args, { stdio: 'inherit' });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => { console.error(program + ': ' + error.message); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code === null ? 128 + (signals[signal] || 9) : code));
});
`;

/** `argv` run behind the bridge by `node` (its path inside the sandbox). */
export const bridgedArgv = (node: string, argv: readonly string[]): string[] => [
  node,
  '-e',
  BRIDGE,
  '--',
  SANDBOX_PROXY_SOCKET,
  String(SANDBOX_PROXY_PORT),
  ...argv,
];
