// hub-api (or the certifier-worker) from a built tree as a child process of a benchmark, so the
// benchmark's client never shares the hub's event loop; and the removal of a run's Redis keys.
const { spawn } = require('node:child_process');
const { createServer } = require('node:net');
const { join } = require('node:path');
const { Redis } = require('ioredis');

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

/**
 * The Node flags `npm run start:<app>` gives the app (hub-api's heap limit), so a bench runs it as
 * users do; BENCH_NODE_FLAGS replaces them (`BENCH_NODE_FLAGS=` runs with none, to compare).
 */
function nodeFlags(app) {
  const script = process.env.BENCH_NODE_FLAGS ?? require('../../package.json').scripts[`start:${app}`] ?? '';
  return script.split(/\s+/).filter((a) => a.startsWith('--'));
}

/**
 * Starts `apps/<app>/src/main.js` of `dist` with `env`; ends with this script however it ends.
 * `options.flags`: Node flags after the app's own; `options.stdout: 'pipe'` keeps its output (else dropped).
 */
function startProcess(dist, app, env, options = {}) {
  const child = spawn(
    process.execPath,
    [...nodeFlags(app), ...(options.flags ?? []), join(dist, `apps/${app}/src/main.js`)],
    {
      env,
      stdio: ['ignore', options.stdout ?? 'ignore', 'inherit'],
    },
  );
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  return {
    pid: child.pid,
    child,
    /** SIGTERM lets it shut down; SIGKILL does not wait for a hub whose event loop is held. */
    async stop(signal = 'SIGTERM') {
      child.kill(signal);
      if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
      process.removeListener('exit', orphanGuard);
    },
  };
}

/** hub-api on a free loopback port, once `/api/v1/health` answers (`options` as startProcess's). */
async function startHub(dist, env, options = {}) {
  const port = await freePort();
  const hub = startProcess(dist, 'hub-api', { ...env, PORT: String(port), HOST: '127.0.0.1' }, options);
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (hub.child.exitCode !== null) throw new Error(`hub-api exited with ${hub.child.exitCode}`);
    const up = await fetch(`${base}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() - started > 60_000) throw new Error('hub-api did not start within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { ...hub, base };
}

/** Deletes every key under a benchmark's own prefix (never another's: it must start with skillhub-bench-). */
async function deleteRedisKeys(url, prefix) {
  if (!prefix.startsWith('skillhub-bench-')) throw new Error(`refusing to delete keys under ${prefix}`);
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

module.exports = { nodeFlags, startHub, startProcess, deleteRedisKeys };
