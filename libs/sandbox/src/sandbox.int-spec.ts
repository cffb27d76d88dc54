/**
 * Real processes under bubblewrap: what a hostile program inside can and cannot reach. Each program
 * is a Node script that reports what it found as JSON on stdout.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { syntheticMcpServerScript } from '@skillhub/package-probe/testing';
import { EgressProxy, type EgressEvent } from './egress-proxy';
import { cgroupSupport } from './sandbox-cgroup';
import { SANDBOX_UID_BASE } from './sandbox-identity';
import { nodeInSandbox, runSandboxed, sandboxAvailable, spawnSandboxed } from './sandbox-launcher';
import { DEFAULT_SANDBOX_LIMITS, type SandboxPolicy } from './sandbox-policy';
import { SandboxStdioTransport } from './sandbox-stdio.transport';

const node = nodeInSandbox();
const MIB = 1024 * 1024;

const basePolicy = (overrides: Partial<SandboxPolicy> = {}): SandboxPolicy => ({
  network: null,
  readOnly: node.mounts,
  tmpfs: [],
  env: {},
  cwd: '/',
  limits: DEFAULT_SANDBOX_LIMITS,
  ...overrides,
});

/** Runs a Node script in the sandbox and parses the JSON it prints. */
const probe = async <T>(policy: SandboxPolicy, script: string): Promise<T> => {
  const result = await runSandboxed(policy, [node.path, '-e', script], { timeoutMs: 20_000 });
  if (result.code !== 0) throw new Error(`the script failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
};

/** Every process whose command line mentions `marker`, on the host. */
const hostProcessesWith = async (marker: string): Promise<string[]> => {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(marker) && Number(pid) !== process.pid) found.push(`${pid}: ${cmdline}`);
  }
  return found;
};

/** The host uid of every process of the sandboxed program (Node, not the bwrap holding it) whose command line mentions `marker`. */
const hostOwnersOf = async (marker: string): Promise<number[]> => {
  const owners: number[] = [];
  for (const entry of await hostProcessesWith(marker)) {
    if (!entry.split(': ')[1]?.startsWith(`${node.path}\0`) && !entry.includes('/bin/sh\0-c\0sleep')) continue;
    const status = await readFile(`/proc/${entry.split(':')[0]}/status`, 'utf8').catch(() => '');
    const uid = /^Uid:\s+(\d+)/m.exec(status);
    if (uid) owners.push(Number(uid[1]));
  }
  return owners;
};

const firstLine = (stream: NodeJS.ReadableStream): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString();
      if (text.includes('\n')) {
        stream.off('data', onData);
        resolve(text.split('\n')[0]!);
      }
    };
    stream.on('data', onData);
    stream.once('end', () => reject(new Error(`the program ended after printing: ${text}`)));
  });

describe('the sandbox', () => {
  let work: string;

  beforeAll(async () => {
    const availability = await sandboxAvailable();
    if (!availability.ok) throw new Error(`these specs need bubblewrap: ${availability.reason}`);
    // Mode 0700: the sandbox's own user could not pass through it, yet what is mounted from inside it is there.
    work = await mkdtemp(join(tmpdir(), 'sandbox-spec-'));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('has no network: neither the host loopback nor the internet answers', async () => {
    let accepted = 0;
    const server: Server = createServer((socket) => {
      accepted++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const found = await probe<Record<string, string>>(
        basePolicy(),
        `const net = require('net');
         const attempt = (host, port) => new Promise((resolve) => {
           const socket = net.connect({ host, port, timeout: 3000 });
           socket.on('connect', () => { socket.destroy(); resolve('connected'); });
           socket.on('timeout', () => { socket.destroy(); resolve('timeout'); });
           socket.on('error', (error) => resolve(error.code));
         });
         Promise.all([attempt('127.0.0.1', ${port}), attempt('1.1.1.1', 53), require('dns').promises.lookup('registry.npmjs.org').then(() => 'resolved', (e) => e.code)])
           .then(([loopback, internet, dns]) => console.log(JSON.stringify({ loopback, internet, dns })));`,
      );

      expect(found.loopback).toBe('ECONNREFUSED');
      expect(found.internet).toMatch(/^(ENETUNREACH|EHOSTUNREACH|EACCES|timeout)$/);
      expect(found.dns).toMatch(/^(ENOTFOUND|EAI_AGAIN)$/);
      expect(accepted).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("never shows the caller's environment: not in env, not in any /proc/*/environ, and not its parent's", async () => {
    const secret = `planted-${randomBytes(12).toString('hex')}`;
    process.env.SANDBOX_SPEC_SECRET = secret;
    try {
      const script = `const fs = require('fs');
        const pids = fs.readdirSync('/proc').filter((name) => /^\\d+$/.test(name));
        const seen = [JSON.stringify(process.env)];
        for (const pid of [...pids, 'self', 'thread-self']) {
          for (const file of ['environ', 'cmdline']) {
            try { seen.push(fs.readFileSync('/proc/' + pid + '/' + file, 'latin1')); } catch {}
          }
        }
        let ppidEnviron = 'readable';
        try { fs.readFileSync('/proc/' + process.ppid + '/environ'); } catch (error) { ppidEnviron = error.code; }
        console.log(JSON.stringify({ pids, ppid: process.ppid, ppidEnviron, seen }));`;
      const { code, stdout } = await runSandboxed(basePolicy(), [node.path, '-e', script], { timeoutMs: 20_000 });

      expect(code).toBe(0);
      const found = JSON.parse(stdout) as { pids: string[]; ppid: number; ppidEnviron: string; seen: string[] };
      if (process.getuid?.() === 0) {
        // Beside it only bwrap's reaper (pid 1), another user's, whose environment it cannot read.
        expect(found.pids).toEqual(['1', '2']);
        expect(found.ppid).toBe(1);
        expect(found.ppidEnviron).toBe('EACCES');
      } else {
        // Alone in its pid namespace; its parent is outside it, so /proc/$PPID does not exist.
        expect(found.pids).toEqual(['1']);
        expect(found.ppid).toBe(0);
        expect(found.ppidEnviron).toBe('ENOENT');
      }
      // Everything it could read: its env, and the environ and cmdline of every process it can see.
      expect(found.seen.length).toBeGreaterThanOrEqual(3);
      expect(stdout).not.toContain(secret);
      expect(stdout).not.toContain('SANDBOX_SPEC_SECRET');
    } finally {
      delete process.env.SANDBOX_SPEC_SECRET;
    }
  });

  it("never puts a value of the program's environment in the host's process list", async () => {
    const token = `token-${randomBytes(12).toString('hex')}`;
    const sandboxed = spawnSandboxed(basePolicy({ env: { API_TOKEN: token } }), [
      node.path,
      '-e',
      'console.log(process.env.API_TOKEN ? "has it" : "missing"); setInterval(() => {}, 1000)',
    ]);
    const said = await new Promise<string>((resolve) =>
      sandboxed.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())),
    );
    const listed = await hostProcessesWith(token);
    sandboxed.kill();
    await sandboxed.exited;

    expect(said.trim()).toBe('has it');
    expect(listed).toEqual([]);
  });

  it('sets exactly the policy environment', async () => {
    const env = await probe<Record<string, string>>(
      basePolicy({ env: { TOKEN: 'given' } }),
      'console.log(JSON.stringify(process.env))',
    );

    // PWD is bwrap's, from --chdir.
    expect(env).toEqual({ HOME: '/home/sandbox', PATH: '/usr/local/bin:/usr/bin:/bin', PWD: '/', TOKEN: 'given' });
  });

  it('is read-only except its tmpfs folders, and a mounted package folder stays read-only', async () => {
    const pkg = join(work, 'pkg');
    await writeFile(join(work, 'marker'), 'x');
    await rm(pkg, { recursive: true, force: true });
    await mkdir(pkg);
    await writeFile(join(pkg, 'index.js'), 'original');
    const policy = basePolicy({
      readOnly: [...node.mounts, { source: pkg, target: '/opt/pkg' }],
      tmpfs: ['/data/allowed'],
    });

    const found = await probe<Record<string, string>>(
      policy,
      `const fs = require('fs');
       const tryWrite = (path) => { try { fs.writeFileSync(path, 'changed'); return 'written'; } catch (e) { return e.code; } };
       console.log(JSON.stringify({
         root: tryWrite('/new-file'), usr: tryWrite('/usr/bin/new-file'), pkg: tryWrite('/opt/pkg/index.js'),
         pkgNew: tryWrite('/opt/pkg/new.js'), tmp: tryWrite('/tmp/x'), home: tryWrite(process.env.HOME + '/x'),
         data: tryWrite('/data/allowed/x'), dataParent: tryWrite('/data/x'), dev: tryWrite('/dev/x'),
         shm: tryWrite('/dev/shm/x'), devNull: tryWrite('/dev/null'), etc: fs.existsSync('/etc/passwd') ? 'present' : 'absent',
         host: fs.existsSync(${JSON.stringify(join(work, 'marker'))}) ? 'present' : 'absent',
       }));`,
    );

    expect(found).toEqual({
      root: 'EROFS',
      dataParent: 'EROFS',
      dev: 'EROFS',
      shm: 'written',
      devNull: 'written',
      usr: 'EROFS',
      pkg: 'EROFS',
      pkgNew: 'EROFS',
      tmp: 'written',
      home: 'written',
      data: 'written',
      etc: 'absent',
      host: 'absent',
    });
    expect(await readFile(join(pkg, 'index.js'), 'utf8')).toBe('original');
    expect(await readdir(pkg)).toEqual(['index.js']);
  });

  it('kills a busy loop when its CPU time is spent', async () => {
    const started = Date.now();
    const result = await runSandboxed(
      basePolicy({ limits: { ...DEFAULT_SANDBOX_LIMITS, cpuSeconds: 1 } }),
      [node.path, '-e', 'for (;;) {}'],
      { timeoutMs: 30_000 },
    );

    expect(result).toMatchObject({ signal: 'SIGKILL', timedOut: false });
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('kills a program that outlives the wall-clock timeout', async () => {
    const started = Date.now();
    const result = await runSandboxed(basePolicy(), [node.path, '-e', 'setTimeout(() => {}, 60_000)'], {
      timeoutMs: 500,
    });

    expect(result).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('stops a memory hog, on the heap and in Buffers outside it', async () => {
    const limits = { ...DEFAULT_SANDBOX_LIMITS, memoryBytes: 256 * 1024 * 1024 };
    const buffers = await runSandboxed(
      basePolicy({ limits }),
      [node.path, '-e', 'const kept = []; for (;;) kept.push(Buffer.alloc(16 << 20, 1));'],
      { timeoutMs: 30_000 },
    );
    const heap = await runSandboxed(
      basePolicy({ limits, env: { NODE_OPTIONS: '--max-old-space-size=192' } }),
      [node.path, '-e', 'const kept = []; for (;;) kept.push(new Array(1e5).fill(Math.random()));'],
      { timeoutMs: 30_000 },
    );

    expect(buffers.timedOut).toBe(false);
    expect(buffers.code).not.toBe(0);
    expect(buffers.stderr).toMatch(/RangeError|out of memory|Cannot allocate/i);
    expect(heap.timedOut).toBe(false);
    expect(heap.code).not.toBe(0);
    expect(heap.stderr).toMatch(/heap out of memory/i);
  });

  it('runs WebAssembly, whose address-space reservations RLIMIT_AS would refuse', async () => {
    const result = await runSandboxed(
      basePolicy({ limits: { ...DEFAULT_SANDBOX_LIMITS, memoryBytes: 256 * 1024 * 1024 } }),
      [node.path, '-e', 'new WebAssembly.Memory({ initial: 1, maximum: 65536 }); console.log("ok")'],
      { timeoutMs: 20_000 },
    );

    expect([result.code, result.stdout.trim()]).toEqual([0, 'ok']);
  });

  it('takes every process inside down when bwrap is killed', async () => {
    const marker = `sandbox-spec-${randomBytes(6).toString('hex')}`;
    const sandboxed = spawnSandboxed(basePolicy(), [
      node.path,
      '-e',
      `require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '${marker}'], { stdio: 'ignore' });
       console.log('started'); setInterval(() => {}, 1000);`,
    ]);
    await new Promise<void>((resolve) => sandboxed.stdout.once('data', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await hostProcessesWith(marker)).length).toBeGreaterThan(0);

    // bwrap alone, not the sandbox's control group: its pid namespace must go with it.
    process.kill(sandboxed.pid!, 'SIGKILL');
    await sandboxed.exited;
    // The kernel tears the pid namespace down right after its init (pid 1) dies.
    for (let i = 0; i < 20 && (await hostProcessesWith(marker)).length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    expect(await hostProcessesWith(marker)).toEqual([]);
  });

  it('runs as a host user of its own, never root, and cannot signal what holds it', async () => {
    const marker = `sandbox-user-${randomBytes(6).toString('hex')}`;
    const sandboxed = spawnSandboxed(basePolicy(), [
      node.path,
      '-e',
      `const status = require('fs').readFileSync('/proc/self/status', 'utf8');
       let signal = 'sent';
       try { process.kill(process.ppid || 1, 0); } catch (error) { signal = error.code; }
       console.log(JSON.stringify({ uid: process.getuid(), caps: /^CapEff:\\s+(\\w+)/m.exec(status)[1], signal }));
       setInterval(() => {}, 1000)`,
      marker,
    ]);
    const inside = JSON.parse(await firstLine(sandboxed.stdout)) as { uid: number; caps: string; signal: string };
    const owners = await hostOwnersOf(marker);
    sandboxed.kill();
    await sandboxed.exited;

    expect(inside.caps).toBe('0000000000000000');
    expect(owners.length).toBeGreaterThan(0);
    expect(owners).not.toContain(0);
    if (process.getuid?.() === 0) {
      // Run by root: a uid no one else is, the same inside and out.
      for (const uid of owners) expect(uid).toBeGreaterThanOrEqual(SANDBOX_UID_BASE);
      expect(inside.uid).toBe(owners[0]);
      expect(inside.signal).toBe('EPERM');
    } else {
      // Run by anyone else: nobody inside, that user outside.
      expect(inside.uid).toBe(65534);
      expect(owners).toEqual(owners.map(() => process.getuid?.()));
    }
  });

  it('caps the processes of the whole sandbox: a fork bomb gets EAGAIN and the host never sees more', async () => {
    const marker = `sandbox-fork-${randomBytes(6).toString('hex')}`;
    const sandboxed = spawnSandboxed(basePolicy({ limits: { ...DEFAULT_SANDBOX_LIMITS, processes: 32 } }), [
      node.path,
      '-e',
      `const { spawn } = require('child_process');
       let started = 0, refused = null;
       const next = () => {
         if (started >= 500 || refused) return console.log(JSON.stringify({ started, refused }));
         const child = spawn('/bin/sh', ['-c', 'sleep 60; :', ${JSON.stringify(marker)}], { stdio: 'ignore' });
         child.once('spawn', () => { started++; next(); });
         child.once('error', (error) => { refused = error.code; next(); });
       };
       next(); setInterval(() => {}, 1000);`,
    ]);
    const found = JSON.parse(await firstLine(sandboxed.stdout)) as { started: number; refused: string | null };
    const onHost = (await hostOwnersOf(marker)).length;
    sandboxed.kill();
    await sandboxed.exited;

    expect(found.refused).toBe('EAGAIN');
    // Each child is a shell and its sleep; Node's own threads count too.
    expect(found.started).toBeLessThan(16);
    expect(onHost).toBeLessThanOrEqual(32);
  });

  (cgroupSupport().ok ? it : it.skip)(
    'caps the memory of the whole sandbox, not per process: children cannot add up past it',
    async () => {
      // Each child alone is within the per-process limit; four together are not within the sandbox's.
      const result = await runSandboxed(
        basePolicy({ limits: { ...DEFAULT_SANDBOX_LIMITS, memoryBytes: 384 * MIB } }),
        [
          node.path,
          '-e',
          `const { spawn } = require('child_process');
           const hold = "const b = Buffer.alloc(150 << 20, 1); console.log('held'); setInterval(() => b[0]++, 1000)";
           const children = [];
           let reported = false;
           const report = () => {
             if (reported) return;
             reported = true;
             console.log(JSON.stringify({
               holding: children.filter((c) => c.held && c.exitCode === null && c.signalCode === null).length,
               killed: children.filter((c) => c.signalCode === 'SIGKILL').length,
             }));
             process.exit(0);
           };
           // Once each has held its memory or died, what is still alive holds it at the same time.
           const settled = () => children.length === 4 && children.every((c) => c.held || c.exitCode !== null || c.signalCode !== null) && setTimeout(report, 1000);
           for (let i = 0; i < 4; i++) {
             const child = spawn(process.execPath, ['-e', hold], { stdio: ['ignore', 'pipe', 'ignore'] });
             children.push(child);
             child.stdout.once('data', () => { child.held = true; settled(); });
             child.once('exit', settled);
           }`,
        ],
        { timeoutMs: 60_000 },
      );

      expect(result.timedOut).toBe(false);
      const found = JSON.parse(result.stdout) as { holding: number; killed: number };
      expect(found.holding).toBeLessThanOrEqual(2);
      expect(found.killed).toBeGreaterThanOrEqual(2);
    },
  );

  describe('with network', () => {
    let proxy: EgressProxy;
    let site: ReturnType<typeof createHttpServer>;
    let port: number;
    const events: EgressEvent[] = [];

    beforeAll(async () => {
      site = createHttpServer((_req, res) => res.end('hello from the site'));
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      port = (site.address() as AddressInfo).port;
      proxy = await EgressProxy.start({
        name: 'spec',
        socketPath: join(work, 'egress.sock'),
        // The operator's one exception: this test site, on its exact address and port.
        allowAddresses: [`127.0.0.1:${port}`],
        onEvent: (event) => events.push(event),
        lookup: async (host) => {
          const answers: Record<string, string[]> = {
            'rebind.test': ['127.0.0.1'],
            'mixed.test': ['93.184.216.34', '10.0.0.5'],
            localhost: ['127.0.0.1', '::1'],
          };
          if (!answers[host]) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
          return answers[host].map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
        },
      });
    });
    afterAll(async () => {
      await proxy.close();
      await new Promise((resolve) => site.close(resolve));
    });

    it("reaches what the proxy lets through and nothing of the host's: not its loopback, databases, metadata or private ranges", async () => {
      const refusedTargets = [
        '127.0.0.1:5432',
        'localhost:6379',
        `[::1]:${port}`,
        '0.0.0.0:5432',
        `[::ffff:127.0.0.1]:5432`,
        '169.254.169.254:80',
        '10.0.0.1:80',
        '192.168.1.1:80',
        'rebind.test:5432',
        'mixed.test:443',
      ];
      const found = await probe<Record<string, unknown>>(
        basePolicy({ network: { proxySocket: proxy.socketPath, node } }),
        `const http = require('http'), net = require('net');
         const read = (socket) => new Promise((resolve) => { let text = ''; socket.on('data', (d) => text += d); socket.on('end', () => resolve(text.split('\\r\\n\\r\\n')[1])); });
         const tunnel = (authority) => new Promise((resolve) => {
           const req = http.request({ host: '127.0.0.1', port: 3128, method: 'CONNECT', path: authority });
           req.on('connect', (res, socket) => {
             if (res.statusCode !== 200) { socket.destroy(); return resolve(res.statusCode); }
             socket.write('GET / HTTP/1.1\\r\\nHost: site\\r\\nConnection: close\\r\\n\\r\\n');
             read(socket).then(resolve);
           });
           req.on('error', (error) => resolve(error.code));
           req.end();
         });
         const plain = (url) => new Promise((resolve) => {
           http.get({ host: '127.0.0.1', port: 3128, path: url }, (res) => { let text = ''; res.on('data', (d) => text += d); res.on('end', () => resolve(res.statusCode === 200 ? text : res.statusCode)); })
             .on('error', (error) => resolve(error.code));
         });
         const direct = (host, port) => new Promise((resolve) => {
           const socket = net.connect({ host, port, timeout: 3000 });
           socket.on('connect', () => { socket.destroy(); resolve('connected'); });
           socket.on('timeout', () => { socket.destroy(); resolve('timeout'); });
           socket.on('error', (error) => resolve(error.code));
         });
         (async () => {
           const refused = {};
           for (const target of ${JSON.stringify(refusedTargets)}) refused[target] = await tunnel(target);
           console.log(JSON.stringify({
             tunnel: await tunnel('127.0.0.1:${port}'),
             plain: await plain('http://127.0.0.1:${port}/page'),
             plainRefused: await plain('http://localhost:5432/'),
             refused,
             directSite: await direct('127.0.0.1', ${port}),
             directInternet: await direct('1.1.1.1', 53),
             env: process.env.HTTPS_PROXY,
           }));
         })();`,
      );

      expect(found).toEqual({
        tunnel: 'hello from the site',
        plain: 'hello from the site',
        plainRefused: 403,
        refused: Object.fromEntries(refusedTargets.map((target) => [target, 403])),
        // Its own network namespace: the host's loopback is not its loopback, and there is no route out.
        directSite: 'ECONNREFUSED',
        directInternet: expect.stringMatching(/^(ENETUNREACH|EHOSTUNREACH|timeout)$/),
        env: 'http://127.0.0.1:3128',
      });
      expect(events.filter((event) => event.verdict === 'allowed')).toHaveLength(2);
      const refusals = events.filter((event) => event.verdict === 'refused');
      expect(refusals).toHaveLength(refusedTargets.length + 1);
      expect(refusals.find((event) => event.host === 'rebind.test')).toMatchObject({
        address: '127.0.0.1',
        reason: expect.stringContaining('rebind.test resolves to it'),
      });
    });
  });

  describe('an MCP server inside', () => {
    const script = syntheticMcpServerScript({
      name: 'inside',
      tools: [{ name: 'ping_tool', inputSchema: { type: 'object' } }],
    });
    let policy: SandboxPolicy;

    beforeAll(async () => {
      await mkdir(join(work, 'server'), { recursive: true });
      await writeFile(join(work, 'server', 'server.js'), script);
      // Mounted where it is, under /tmp, which is a tmpfs inside: the folders above it must be made there.
      policy = basePolicy({
        readOnly: [...node.mounts, { source: join(work, 'server'), target: join(work, 'server') }],
      });
    });

    it('answers through SandboxStdioTransport, which says how the server ended and what it last wrote', async () => {
      const transport = new SandboxStdioTransport(policy, [node.path, join(work, 'server', 'server.js')]);
      const client = new Client({ name: 'spec', version: '1.0.0' });
      await client.connect(transport);
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      await client.close();
      const failing = new SandboxStdioTransport(basePolicy(), [
        node.path,
        '-e',
        'console.error("no config found"); process.exit(3)',
      ]);
      await failing.start();
      while (!failing.exit) await new Promise((resolve) => setTimeout(resolve, 20));

      expect(tools).toEqual(['ping_tool']);
      expect(transport.exit).toEqual({ code: null, signal: 'SIGKILL' });
      expect(failing.exit).toEqual({ code: 3, signal: null });
      expect(failing.stderrTail).toBe('no config found\n');
    });
  });

  it('says why when bubblewrap is not there', async () => {
    const missing = await sandboxAvailable({
      prlimit: '/usr/bin/prlimit',
      bwrap: '/nonexistent/bwrap',
      setpriv: '/usr/bin/setpriv',
      sh: '/bin/sh',
    });

    expect(missing).toEqual({ ok: false, reason: 'bwrap is not installed at /nonexistent/bwrap' });
  });
});
