/** A redis-server of a test's own on a spare loopback port, for fault tests (the machine's shared one is never stopped). */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';

export const sparePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

export async function startRedis(port: number, extraArgs: readonly string[] = []): Promise<ChildProcess> {
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extraArgs],
    {
      stdio: 'ignore',
    },
  );
  // A PING on a plain socket, not a Redis client: a client that gives up while the server starts
  // rejects the commands it had queued ("Connection is closed.") where no one awaits them.
  for (let i = 0; i < 50; i++) {
    if (await pong(port)) return proc;
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill();
  throw new Error('private redis-server did not start');
}

/** Whether a Redis server answers PING on 127.0.0.1:`port`. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}

export async function stopRedis(proc: ChildProcess | null): Promise<void> {
  if (!proc || proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGKILL');
  await exited;
}

export const waitFor = async <T>(
  fn: () => Promise<T | null | undefined | false>,
  ms: number,
  what = 'condition',
): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
