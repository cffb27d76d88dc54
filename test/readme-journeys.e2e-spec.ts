/**
 * The README's journeys, run as a newcomer would: the fenced bash blocks are read from README.md by
 * this test and run with bash, in order, in a temporary folder laid out like the repository (its
 * package.json, node_modules and sources linked; its build and `examples/` copied), with
 * node_modules/.bin on PATH, on a fresh data folder, a fresh PostgreSQL database and Redis
 * prefixes of their own. The hub is started with `npm start`, as the README's first block says.
 * Variables carry from one block to the next, as in one terminal. A block that serves (the
 * runtime, the production services) runs until what it serves answers, and is then stopped.
 * Values the README leaves to the reader (`NAME=…`) are filled in by this test. The journeys use
 * the README's ports, 3000 and 3333. They must leave the tracked files (the copied examples) as
 * they were.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  createTestDatabase,
  deleteRedisKeys,
  newTestRedisPrefix,
  testRedisUrl,
  type TestDatabase,
} from '@skillhub/testing';
import { EVERY_SKILL_LOADED } from './support/runtime-log';

const ROOT = join(__dirname, '..');
const HUB = 'http://127.0.0.1:3000';
const GATEWAY = 'http://127.0.0.1:3333/mcp';
/** What the temporary folder links from the repository, so `npm start` and `npm run …` work there. */
const LINKED = [
  'package.json',
  'package-lock.json',
  'node_modules',
  'apps',
  'libs',
  'scripts',
  'tsconfig.json',
  'tsconfig.build.json',
];

interface Block {
  heading: string;
  code: string;
  /** 1-based line of the opening fence, for messages. */
  line: number;
}

/** Every fenced bash block of a Markdown text, with the heading it sits under. */
function bashBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let heading = '';
  let open: { info: string; line: number; lines: string[] } | null = null;
  markdown.split('\n').forEach((text, i) => {
    const fence = /^```(\S*)\s*$/.exec(text);
    if (open) {
      if (fence && fence[1] === '') {
        if (open.info === 'bash') blocks.push({ heading, code: open.lines.join('\n'), line: open.line });
        open = null;
      } else open.lines.push(text);
      return;
    }
    if (fence) open = { info: fence[1]!, line: i + 1, lines: [] };
    else if (/^#{1,6} /.test(text)) heading = text.replace(/^#+ /, '');
  });
  return blocks;
}

/** `NAME=…` words (the reader's to fill) replaced by the test's values; an unknown one is an error. */
function fillPlaceholders(code: string, values: Record<string, string>): string {
  return code.replace(/\b([A-Z][A-Z0-9_]*)=(\S*…\S*)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined)
      throw new Error(`the README leaves ${name} to the reader, and this test has no value for it`);
    return `${name}='${value}'`;
  });
}

async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
  log: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe().catch(() => undefined);
    if (found !== undefined) return found;
    if (Date.now() > deadline)
      throw new Error(`${what}: not after ${timeoutMs / 1000} s\n--- output ---\n${log().slice(-4000)}`);
    await sleep(250);
  }
}

/** A process group started by this test: a block, or `npm start`. */
class Group {
  output = '';
  exit: number | null | undefined = undefined;
  private readonly child: ChildProcess;

  constructor(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
    // Its own process group, so everything it starts (npm, node, background jobs) stops with it.
    this.child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (d: Buffer) => (this.output += d.toString()));
    this.child.stderr!.on('data', (d: Buffer) => (this.output += d.toString()));
    this.child.on('exit', (code) => (this.exit = code));
  }

  /** Waits for the leader (bash, npm) to exit; its background jobs may live on. */
  async exited(timeoutMs: number): Promise<number | null> {
    return waitFor(
      'exit',
      timeoutMs,
      async () => (this.exit === undefined ? undefined : this.exit),
      () => this.output,
    );
  }

  async stop(): Promise<void> {
    const pgid = this.child.pid!;
    const alive = () => {
      try {
        process.kill(-pgid, 0);
        return true;
      } catch {
        return false;
      }
    };
    if (!alive()) return;
    process.kill(-pgid, 'SIGTERM');
    for (let i = 0; i < 80 && alive(); i++) await sleep(250);
    if (alive()) process.kill(-pgid, 'SIGKILL');
  }
}

const digests = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => {
        const path = join(e.parentPath, e.name);
        return [relative(dir, path), createHash('sha256').update(readFileSync(path)).digest('hex')];
      }),
  );

describe("the README's journeys", () => {
  const blocks = bashBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  let work: string;
  let database: TestDatabase | undefined;
  const prefixes = [newTestRedisPrefix(), newTestRedisPrefix()];
  const groups: Group[] = [];
  let env: NodeJS.ProcessEnv;
  let state: string;

  beforeAll(async () => {
    for (const port of [3000, 3333]) {
      if (!(await portIsFree(port))) throw new Error(`port ${port} is in use: the README's journeys listen on it`);
    }
    if (!existsSync(join(ROOT, 'node_modules', '.bin', 'skillhub'))) {
      throw new Error('node_modules/.bin/skillhub is missing: run npm ci (the CLI is the workspace apps/cli)');
    }
    work = mkdtempSync(join(tmpdir(), 'skillhub-readme-'));
    for (const entry of LINKED) symlinkSync(join(ROOT, entry), join(work, entry));
    cpSync(join(ROOT, 'examples'), join(work, 'examples'), { recursive: true });
    // Copied, not linked: the README's own `npm run build` (tsc sees the sources at other paths and
    // emits them all) must never rewrite the build that suites running beside this one load.
    cpSync(join(ROOT, 'dist'), join(work, 'dist'), { recursive: true });
    mkdirSync(join(work, 'home'));
    mkdirSync(join(work, '.journeys'));
    state = join(work, '.journeys', 'state.sh');
    env = {
      PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
      HOME: join(work, 'home'),
      LANG: 'C.UTF-8',
      TMPDIR: tmpdir(),
      npm_config_update_notifier: 'false',
      // The README: "on a Redis that another hub uses, give each hub its own REDIS_PREFIX".
      REDIS_URL: testRedisUrl(),
      REDIS_PREFIX: prefixes[0],
    };
  });

  afterAll(async () => {
    for (const group of groups.reverse()) await group.stop();
    await database?.drop();
    for (const prefix of prefixes) await deleteRedisKeys(prefix).catch(() => undefined);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /**
   * One block as a bash script: the variables the blocks before it left, `set -euo pipefail`, the
   * block, then (unless it serves) the variables it leaves for the next one.
   */
  const script = (block: Block, index: number, options: { fresh?: boolean; code?: string } = {}): string => {
    const file = join(work, '.journeys', `${index}.sh`);
    writeFileSync(
      file,
      [
        `__initial=" $(compgen -v | tr '\\n' ' ') "`,
        options.fresh ? '' : `[ -f '${state}' ] && source '${state}'`,
        'set -euo pipefail',
        `# README.md line ${block.line}: ${block.heading}`,
        options.code ?? block.code,
        'set +eu',
        `for __name in $(compgen -v); do case "$__initial" in *" $__name "*) continue;; esac; case "$__name" in __*) continue;; esac; declare -p "$__name"; done > '${state}.next' && mv '${state}.next' '${state}'`,
        '',
      ].join('\n'),
    );
    return file;
  };
  const start = (block: Block, index: number, options: { fresh?: boolean; code?: string } = {}) => {
    const group = new Group('bash', [script(block, index, options)], work, env);
    groups.push(group);
    return group;
  };
  /** Runs a block to its end; it must succeed. */
  const run = async (block: Block, index: number, timeoutMs: number): Promise<string> => {
    const group = start(block, index);
    const code = await group.exited(timeoutMs);
    if (code !== 0) {
      throw new Error(`README.md line ${block.line} (${block.heading}) exited ${code}\n${group.output.slice(-6000)}`);
    }
    return group.output;
  };
  const json = async (url: string, init?: RequestInit) => {
    const res = await fetch(url, init);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('run in order: curl publish, the CLI, publisher keys, the runtime, production (without Docker)', async () => {
    expect(blocks.map((b) => b.heading)).toEqual([
      'Skill Hub',
      'A first publish, with curl',
      'From the terminal',
      'Publisher keys: your own signature (C14)',
      'The agent runtime',
      'Running it in production',
    ]);
    const [setup, curl, terminal, keys, runtime, production] = blocks as [Block, Block, Block, Block, Block, Block];
    const examples = digests(join(work, 'examples'));

    // The first block installs (this checkout is installed: npm ci), tests (this run) and starts the hub.
    const commands = setup.code.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
    expect(commands).toEqual(['npm ci && npm start', 'npm test']);
    const hub = new Group('npm', ['start'], work, env);
    groups.push(hub);
    await waitFor(
      'the hub started by npm start',
      180_000,
      async () => ((await fetch(`${HUB}/api/v1/health`)).ok ? true : undefined),
      () => hub.output,
    );
    expect(existsSync(join(work, '.skillhub-data', 'admin-token'))).toBe(true);

    await run(curl, 1, 60_000);
    expect(readFileSync(join(work, 'back.tar.gz'))).toEqual(readFileSync(join(work, 'weather.tar.gz')));
    expect((await json(`${HUB}/api/v1/skills/acme-labs/weather`)).status).toBe(200);

    const cli = await run(terminal, 2, 240_000);
    expect(cli).toMatch(/weather@1\.0\.1: certified/);
    expect(cli).toMatch(/installed acme-labs\/weather@1\.0\.1 in /);
    expect(cli).toMatch(/verified acme-labs\/weather@1\.0\.1/);
    // Signed with the secret the block registered for the namespace: the hub verified it.
    const mine = await json(`${HUB}/api/v1/skills/acme-labs/weather/versions/1.0.1/certification`);
    expect(mine.body.requirements_met).toMatchObject({ checksum_valid: true, signature_valid: true });

    await run(keys, 3, 180_000);
    const signed = await json(`${HUB}/api/v1/skills/acme-labs/weather/versions/1.0.2/certification`);
    expect(signed.body).toMatchObject({ status: 'certified', requirements_met: expect.any(Object) });

    // The runtime serves until stopped: its gateway answers at once, and says when every skill is loaded.
    const agent = start(runtime, 4);
    await waitFor(
      'the runtime to load every skill',
      180_000,
      async () => (agent.output.includes(EVERY_SKILL_LOADED) ? true : undefined),
      () => agent.output,
    );
    expect(agent.output).toMatch(
      /gateway: http:\/\/127\.0\.0\.1:3333\/mcp \(send Authorization: Bearer <the token in /,
    );
    expect(agent.output).toMatch(/installed acme-labs\/weather@1\.0\.2/);
    // As the README says, a client sends the token the runtime keeps in its state folder.
    const gatewayToken = readFileSync(join(work, '.skillhub-runtime', 'gateway-token'), 'utf8').trim();
    const anonymous = await fetch(GATEWAY, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
    const initialize = await fetch(GATEWAY, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${gatewayToken}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'readme-journeys', version: '1' },
        },
      }),
    });
    expect(initialize.status).toBe(200);
    await agent.stop();
    await hub.stop();
    await waitFor(
      'port 3000 to be free',
      30_000,
      async () => ((await portIsFree(3000)) ? true : undefined),
      () => hub.output,
    );

    // Production, on a server: Docker is not run here (no daemon); the block starts the same
    // services as docker-compose.yml (the migration, hub-api, certifier-worker, agent-runtime).
    process.stderr.write(
      'readme-journeys: docker compose is not run; the production block starts its services without Docker\n',
    );
    database = await createTestDatabase({ migrate: false });
    const adminToken = randomBytes(24).toString('hex');
    const services = start(production, 5, {
      fresh: true,
      code: fillPlaceholders(production.code, {
        DATABASE_URL: database.url,
        REDIS_URL: testRedisUrl(),
        REDIS_PREFIX: prefixes[1]!,
        HUB_ADMIN_TOKEN: adminToken,
        HUB_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      }),
    });
    expect(await services.exited(180_000)).toBe(0); // the migration ran; the services run in the background
    const ready = await waitFor(
      'hub-api on PostgreSQL',
      120_000,
      async () => {
        const answer = await json(`${HUB}/api/v1/health/ready`);
        return answer.status === 200 ? answer.body : undefined;
      },
      () => services.output,
    );
    expect(ready).toMatchObject({ mode: 'postgres', database: { status: 'up' }, redis: { status: 'up' } });
    await waitFor(
      'agent-runtime',
      60_000,
      async () => (/agent-runtime.*ready/.test(services.output) ? true : undefined),
      () => services.output,
    );

    // The certifier-worker judges what this hub-api stores.
    const auth = { authorization: `Bearer ${adminToken}` };
    const token = await json(`${HUB}/api/v1/tokens`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ namespace: 'acme-labs', scopes: ['publish'] }),
    });
    expect(token.status).toBe(201);
    const publish = await fetch(`${HUB}/api/v1/skills`, {
      method: 'POST',
      headers: { authorization: `Bearer ${String(token.body.token)}`, 'content-type': 'application/gzip' },
      body: readFileSync(join(work, 'weather.tar.gz')),
    });
    expect(publish.status).toBe(201);
    await waitFor(
      'the certifier-worker’s verdict',
      120_000,
      async () => {
        const cert = await json(`${HUB}/api/v1/skills/acme-labs/weather/versions/1.0.0/certification`);
        return cert.body.status === 'pending' ? undefined : cert.body;
      },
      () => services.output,
    ).then((verdict) => expect(verdict).toMatchObject({ status: 'certified' }));

    // No journey changed a tracked file.
    expect(digests(join(work, 'examples'))).toEqual(examples);
  }, 900_000);
});
