/**
 * `npm start`'s hub as an operator runs it: hub-api (dist/…/main.js) on the embedded database,
 * which runs in a process of its own (libs/database/src/embedded-database.ts). What a user would
 * notice: the data outlives a restart, no database process is left behind however the hub ends,
 * and a hub whose database went away ends too instead of answering 500s.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deleteRedisKeys, embeddedHubEnv, freePort, newTestRedisPrefix } from '@skillhub/testing';

const HUB_MAIN = join(__dirname, '..', 'dist/apps/hub-api/src/main.js');

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Hub {
  child: ChildProcess;
  base: string;
  /** The embedded database's process. */
  databasePid: number;
  output: () => string;
  /** The exit code, or the signal that ended it. */
  exited: Promise<number | string | null>;
}

describe('the embedded database in its own process (npm start)', () => {
  let dir: string;
  let prefix: string;
  const started: ChildProcess[] = [];

  beforeAll(() => {
    if (!existsSync(HUB_MAIN)) throw new Error('run `npm run build` first');
    dir = mkdtempSync(join(tmpdir(), 'skillhub-embedded-process-'));
    prefix = newTestRedisPrefix();
  });
  afterAll(async () => {
    for (const child of started) child.kill('SIGKILL');
    await deleteRedisKeys(prefix);
    rmSync(dir, { recursive: true, force: true });
  });

  async function startHub(): Promise<Hub> {
    const port = await freePort();
    const child = spawn(process.execPath, [HUB_MAIN], {
      env: embeddedHubEnv(port, join(dir, 'data'), prefix),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | string | null>((resolve) =>
      child.once('exit', (code, signal) => resolve(code ?? signal)),
    );
    const base = `http://127.0.0.1:${port}`;
    await until(
      'hub-api answers',
      async () => {
        if (child.exitCode !== null) throw new Error(`hub-api exited with ${child.exitCode}:\n${output}`);
        return fetch(`${base}/api/v1/health`).then(
          (res) => res.ok,
          () => false,
        );
      },
      60_000,
    );
    const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/);
    expect(children).toHaveLength(1);
    return { child, base, databasePid: Number(children[0]), output: () => output, exited };
  }

  it('keeps what was written across a stop (SIGTERM), and leaves no process behind', async () => {
    const hub = await startHub();
    const token = readFileSync(join(dir, 'data', 'admin-token'), 'utf8').trim();
    const created = await fetch(`${hub.base}/api/v1/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ namespace: 'acme-labs', scopes: ['publish'] }),
    });
    expect(created.status).toBe(201);
    // Nest closes the app, then ends by the signal it caught.
    hub.child.kill('SIGTERM');
    expect(await hub.exited).toBe('SIGTERM');
    await until('the database process ended', () => !alive(hub.databasePid));

    const again = await startHub();
    const tokens = await fetch(`${again.base}/api/v1/tokens?namespace=acme-labs`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(tokens.status).toBe(200);
    expect(JSON.stringify(await tokens.json())).toContain('acme-labs');
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe('SIGTERM');
    await until('the database process ended', () => !alive(again.databasePid));
  });

  it('the database process ends with a hub killed outright (SIGKILL)', async () => {
    const hub = await startHub();
    hub.child.kill('SIGKILL');
    await hub.exited;
    await until('the database process ended', () => !alive(hub.databasePid));
  });

  it('a hub whose database process died ends, saying why', async () => {
    const hub = await startHub();
    process.kill(hub.databasePid, 'SIGKILL');
    expect(await hub.exited).toBe(1);
    expect(hub.output()).toContain('The embedded database ended on its own');
  });
});
