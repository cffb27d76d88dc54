/**
 * The logs as an operator reads them: hub-api and the agent-runtime as their own processes, their
 * output redirected to files. One line per request (method, path, status, duration, request id,
 * never a credential or a query string); readable text without colour codes by default, JSON with
 * NODE_ENV=production; the agent-runtime's log on stderr, its stdout left to MCP.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deleteRedisKeys, embeddedHubEnv, freePort, newTestRedisPrefix } from '@skillhub/testing';

const ROOT = join(__dirname, '..');
const HUB_MAIN = join(ROOT, 'dist/apps/hub-api/src/main.js');
const RUNTIME_MAIN = join(ROOT, 'dist/apps/agent-runtime/src/main.js');
/** Every ANSI colour code starts with ESC [. */
const ANSI = '\u001b[';
const SECRET = `shp_${'s3cr3t'.repeat(8)}`;

/** The environment a shell would give the process: nothing of jest's (which sets NODE_ENV=test). */
const baseEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() });

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
}

interface RunningHub {
  baseUrl: string;
  dataDir: string;
  /** Stops the process and returns every line it wrote. */
  stop(): Promise<string[]>;
}

async function startHub(env: Record<string, string>): Promise<RunningHub> {
  const dir = mkdtempSync(join(tmpdir(), 'skillhub-logging-e2e-'));
  const logFile = join(dir, 'hub.log');
  const out = openSync(logFile, 'w');
  const port = await freePort();
  const prefix = newTestRedisPrefix();
  const child = spawn(process.execPath, [HUB_MAIN], {
    env: { ...embeddedHubEnv(port, join(dir, 'data'), prefix), LOG_LEVEL: 'log', ...env },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<string[]> => {
    child.kill('SIGTERM');
    await exited(child);
    await deleteRedisKeys(prefix);
    const lines = readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
    rmSync(dir, { recursive: true, force: true });
    return lines;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${baseUrl}/api/v1/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return { baseUrl, dataDir: join(dir, 'data'), stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      const lines = await stop();
      throw new Error(`hub-api did not start:\n${lines.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The requests whose lines are checked: each with its own request id, one with a credential. */
async function sendRequests(
  baseUrl: string,
): Promise<Array<{ id: string; method: string; path: string; status: number }>> {
  const sent = [
    { id: 'log-e2e-health-0001', method: 'GET', path: '/api/v1/health', query: '', status: 200 },
    { id: 'log-e2e-search-0002', method: 'GET', path: '/api/v1/skills/search', query: '?q=private-words', status: 200 },
    // Refused by the body parser, before any route runs: logged all the same.
    { id: 'log-e2e-broken-0003', method: 'POST', path: '/api/v1/skills/submit', query: '', status: 400 },
    { id: 'log-e2e-absent-0004', method: 'GET', path: '/api/v1/no-such-route', query: '', status: 404 },
  ];
  for (const r of sent) {
    const res = await fetch(`${baseUrl}${r.path}${r.query}`, {
      method: r.method,
      headers: {
        'x-request-id': r.id,
        authorization: `Bearer ${SECRET}`,
        ...(r.method === 'POST' ? { 'content-type': 'application/json' } : {}),
      },
      ...(r.method === 'POST' ? { body: '{"manifest": ' } : {}),
    });
    expect({ path: r.path, status: res.status }).toEqual({ path: r.path, status: r.status });
    expect(res.headers.get('x-request-id')).toBe(r.id);
  }
  return sent;
}

function adminToken(dataDir: string): string {
  const file = join(dataDir, 'admin-token');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : 'no admin token file';
}

describe('logs', () => {
  beforeAll(() => {
    if (!existsSync(HUB_MAIN) || !existsSync(RUNTIME_MAIN)) throw new Error('run `npm run build` first');
  });

  it('hub-api by default, into a file: one readable line per request, no colour codes, no credential', async () => {
    const hub = await startHub({});
    const token = adminToken(hub.dataDir);
    let lines: string[] = [];
    try {
      const sent = await sendRequests(hub.baseUrl);
      lines = await hub.stop();
      for (const r of sent) {
        const mine = lines.filter((line) => line.includes(r.id));
        expect(mine).toHaveLength(1);
        expect(mine[0]).toMatch(
          new RegExp(`\\[http\\] ${r.method} ${r.path} ${r.status} \\d+ms \\(request ${r.id}\\)$`),
        );
      }
    } finally {
      if (!lines.length) lines = await hub.stop();
    }
    const all = lines.join('\n');
    expect(all).not.toContain(ANSI);
    expect(all).toContain('Skill Hub listening on');
    for (const secret of [SECRET, token, 'private-words']) expect(all).not.toContain(secret);
  });

  it('hub-api with NODE_ENV=production: every line one JSON object; the access line has its fields', async () => {
    const hub = await startHub({ NODE_ENV: 'production' });
    let lines: string[] = [];
    try {
      const sent = await sendRequests(hub.baseUrl);
      lines = await hub.stop();
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const r of sent) {
        const mine = entries.filter((e) => e.request_id === r.id);
        expect(mine).toEqual([
          expect.objectContaining({
            level: r.status >= 500 ? 'error' : 'info',
            name: 'hub-api',
            context: 'http',
            method: r.method,
            path: r.path,
            status: r.status,
            duration_ms: expect.any(Number),
          }),
        ]);
      }
    } finally {
      if (!lines.length) lines = await hub.stop();
    }
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  it('agent-runtime: its log on stderr, nothing on stdout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillhub-logging-e2e-'));
    const [outFile, errFile] = [join(dir, 'stdout'), join(dir, 'stderr')];
    const [out, err] = [openSync(outFile, 'w'), openSync(errFile, 'w')];
    try {
      // No RUNTIME_CONFIG and no hub: it warns about both and has nothing to serve.
      const child = spawn(process.execPath, [RUNTIME_MAIN], {
        env: { ...baseEnv(), KAZMA_HUB_URL: `http://127.0.0.1:${await freePort()}`, LOG_LEVEL: 'log' },
        stdio: ['ignore', out, err],
      });
      const deadline = Date.now() + 30_000;
      while (!readFileSync(errFile, 'utf8').includes('ready') && child.exitCode === null && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      child.kill('SIGTERM');
      await exited(child);
      expect(readFileSync(outFile, 'utf8')).toBe('');
      const logged = readFileSync(errFile, 'utf8');
      expect(logged).toMatch(/WARN .*\[agent-runtime\] RUNTIME_CONFIG is unset/);
      expect(logged).toMatch(/INFO .*\[agent-runtime\] ready/);
      expect(logged).not.toContain(ANSI);
    } finally {
      closeSync(out);
      closeSync(err);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('on a terminal the same lines are coloured (util-linux `script` gives the process a pseudo-terminal)', async () => {
    const command = [process.execPath, RUNTIME_MAIN].map((arg) => `'${arg}'`).join(' ');
    const env = { ...baseEnv(), KAZMA_HUB_URL: `http://127.0.0.1:${await freePort()}`, LOG_LEVEL: 'log' };
    const shown = execFileSync('script', ['-qec', command, '/dev/null'], { env, timeout: 30_000, stdio: 'pipe' });
    const warning = shown
      .toString('utf8')
      .split('\n')
      .find((line) => line.includes('RUNTIME_CONFIG is unset'));
    expect(warning).toContain(`${ANSI}33mWARN`);
  });
});
