/**
 * `npm start`'s hub as an operator runs it: hub-api (dist/…/main.js) on the embedded database,
 * which runs in a process of its own (libs/database/src/embedded-database.ts). What a user would
 * notice: the data outlives a restart, no database process is left behind however the hub ends, a
 * database process that died is started again while the hub answers 503, and a disk that fills up
 * refuses writes with 503 (never 500, never a hang) until room is made, when writes come back on
 * their own. The full disk is a small tmpfs mounted for the test (root only, as in CI).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBundle } from '@skillhub/bundle';
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

  async function startHub(dataDir = join(dir, 'data')): Promise<Hub> {
    const port = await freePort();
    const child = spawn(process.execPath, [HUB_MAIN], {
      env: embeddedHubEnv(port, dataDir, prefix),
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

  it('a database process that died is started again, and the hub serves what it held', async () => {
    const hub = await startHub();
    const token = readFileSync(join(dir, 'data', 'admin-token'), 'utf8').trim();
    process.kill(hub.databasePid, 'SIGKILL');
    await until('the hub says it is starting it again', () => hub.output().includes('starting it again'));
    await until(
      'the hub serves again',
      async () =>
        (
          await fetch(`${hub.base}/api/v1/tokens?namespace=acme-labs`, {
            headers: { authorization: `Bearer ${token}` },
          }).catch(() => null)
        )?.status === 200,
      60_000,
    );
    expect(hub.child.exitCode).toBeNull();
    expect(hub.output()).toContain('The embedded database is back');
    const children = readFileSync(`/proc/${hub.child.pid}/task/${hub.child.pid}/children`, 'utf8').trim().split(/\s+/);
    hub.child.kill('SIGTERM');
    expect(await hub.exited).toBe('SIGTERM');
    await until('the new database process ended', () => children.every((pid) => !alive(Number(pid))));
  });

  const asRoot = process.getuid?.() === 0;
  (asRoot ? it : it.skip)(
    'refuses writes with 503 while its disk is low, and takes them again once room is made',
    async () => {
      const disk = join(dir, 'small-disk');
      mkdirSync(disk);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', disk]);
      try {
        const hub = await startHub(join(disk, 'data'));
        const admin = readFileSync(join(disk, 'data', 'admin-token'), 'utf8').trim();
        const created = await fetch(`${hub.base}/api/v1/tokens`, {
          method: 'POST',
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
          body: JSON.stringify({ namespace: 'disk-full', scopes: ['publish'] }),
        });
        const { token } = (await created.json()) as { token: string };
        // Each bundle holds a megabyte that does not compress.
        const publish = (i: number) =>
          fetch(`${hub.base}/api/v1/skills?version=1.0.0`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
            body: writeBundle(
              [
                {
                  path: 'SKILL.md',
                  content: `---\nname: fill-${i}\ndescription: Fills the disk for a test.\n---\n# Fill\n`,
                },
                { path: 'data.txt', content: randomBytes(1_000_000).toString('base64') },
              ],
              { rootFolder: `fill-${i}` },
            ),
          });
        const refusals: Array<{ status: number; retryAfter: string | null; code: unknown }> = [];
        let published = 0;
        for (let i = 0; i < 200 && refusals.length < 3; i++) {
          const res = await publish(i);
          if (res.status === 201) published++;
          else
            refusals.push({
              status: res.status,
              retryAfter: res.headers.get('retry-after'),
              code: ((await res.json()) as { code?: string }).code,
            });
        }
        expect(published).toBeGreaterThan(0);
        expect(refusals).toEqual(Array(3).fill({ status: 503, retryAfter: '60', code: 'STORAGE.LOW' }));
        const ready = await (await fetch(`${hub.base}/api/v1/health/ready`)).json();
        expect(ready).toMatchObject({ status: 'degraded', database: { status: 'up' }, storage: { status: 'down' } });
        const listed = async () =>
          ((await (await fetch(`${hub.base}/api/v1/skills?author=disk-full&per_page=100`)).json()) as { total: number })
            .total;
        expect(await listed()).toBe(published);

        // Room made: the same hub takes writes again, with nothing lost.
        execFileSync('mount', ['-o', 'remount,size=400m', disk]);
        await until('a publish succeeds again', async () => (await publish(1000)).status === 201, 60_000);
        expect(await listed()).toBe(published + 1);
        expect(hub.child.exitCode).toBeNull();
        hub.child.kill('SIGTERM');
        expect(await hub.exited).toBe('SIGTERM');
        await until('the database process ended', () => !alive(hub.databasePid));
      } finally {
        execFileSync('umount', ['-l', disk]);
      }
    },
  );
});
