/**
 * The embedded default: real PostgreSQL (PGlite, compiled to WASM) served on a
 * loopback port so TypeORM reaches it through `pg` like any other server.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { PLAN_CACHE_MODE } from './plan-cache-mode';

export interface EmbeddedDatabase {
  /** `postgres://` URL of the loopback socket server. */
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * PostgreSQL's memory inside the WASM heap, which never shrinks: smaller than its defaults
 * (128 MB of shared buffers) so hub-api stays within 300 MiB RSS at 100,000 skills
 * (bench/README.md, search); the operating system's page cache still holds the files.
 */
const MEMORY_SETTINGS = [
  'shared_buffers = 32MB',
  'work_mem = 2MB',
  'maintenance_work_mem = 16MB',
  'temp_buffers = 2MB',
];

export interface EmbeddedDatabaseOptions {
  /** The loopback port to serve on; 0 (the default) takes a free one. */
  port?: number;
  /**
   * Told when PGlite throws instead of answering (a write the full disk refused, as seen): its
   * state is then unknown, and pglite-socket answers no later query. The database's own process
   * ends so that it is started again from its files.
   */
  onBroken?: (err: Error) => void;
}

/** Opens (or creates) the database under `<dataDir>/pgdata`; pass `null` for an in-memory one. */
export async function startEmbeddedDatabase(
  dataDir: string | null,
  options: EmbeddedDatabaseOptions = {},
): Promise<EmbeddedDatabase> {
  let pgDir: string | undefined;
  if (dataDir !== null) {
    pgDir = join(resolve(dataDir), 'pgdata');
    mkdirSync(pgDir, { recursive: true });
  }
  const db = await PGlite.create({
    dataDir: pgDir,
    extensions: { fuzzystrmatch, pg_trgm, pgcrypto },
    postgresqlconf: [...MEMORY_SETTINGS, `plan_cache_mode = ${PLAN_CACHE_MODE}`],
  });
  await db.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm; CREATE EXTENSION IF NOT EXISTS pgcrypto;');
  const { onBroken } = options;
  if (onBroken) {
    const exec = db.execProtocolRawStream.bind(db);
    db.execProtocolRawStream = (message, streamOptions) =>
      exec(message, streamOptions).catch((err: Error) => {
        onBroken(err);
        throw err;
      });
  }
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: options.port ?? 0 });
  await server.start();
  const { port } = (server as unknown as { server: { address(): AddressInfo } }).server.address();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir: pgDir ?? 'memory://',
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

/** What the embedded database's own process says once, when it is up or could not start. */
export type EmbeddedProcessMessage = { url: string; dataDir: string } | { error: string };

/** How long the database's own process has to stop when told, before it is killed. */
const STOP_WITHIN_MS = 15_000;
/** Waits between attempts to start it again after it ended on its own: doubling, up to the last. */
const RESTART_DELAYS_MS = [250, 500, 1_000, 2_000];

interface DatabaseChild {
  child: ChildProcess;
  exited: Promise<number | null>;
  ready: EmbeddedProcessMessage;
}

async function forkDatabase(dataDir: string, port: number): Promise<DatabaseChild> {
  // None of hub-api's own Node flags (an --inspect port would clash).
  const child = fork(join(__dirname, 'embedded-database-process.js'), [dataDir, String(port)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const ready = await Promise.race([
    new Promise<EmbeddedProcessMessage>((done) => child.once('message', (m) => done(m as EmbeddedProcessMessage))),
    exited.then((code): EmbeddedProcessMessage => ({ error: `exited with ${code} before it was ready` })),
  ]);
  if ('error' in ready) child.kill('SIGKILL');
  return { child, exited, ready };
}

/**
 * The embedded database in a process of its own (`embedded-database-process.ts`), as `npm start`
 * runs it: PGlite's WASM heap, which never shrinks, is not hub-api's memory, and PostgreSQL's work
 * runs beside the API rather than on its event loop (bench/README.md, "search"). That process
 * ignores the terminal's signals, so the hub drains before its database stops; it stops when
 * told to (and is killed if it has not within 15 s) or when this process ends (its IPC channel
 * closes). When it ends on its own (it broke on a full disk, or was killed), it is started again
 * on the same port from its files, waiting longer between attempts while they fail, so the hub
 * answers 503 meanwhile and serves again once it is back, with no restart of its own. `say` hears
 * of each.
 */
export async function startEmbeddedDatabaseProcess(
  dataDir: string,
  say: (message: string) => void,
): Promise<EmbeddedDatabase & { pid(): number }> {
  let current = await forkDatabase(dataDir, 0);
  const first = current.ready;
  if ('error' in first) throw new Error(`the embedded database did not start: ${first.error}`);
  const port = Number(new URL(first.url).port);
  let stopping = false;
  const supervise = (running: DatabaseChild): void => {
    void running.exited.then(async (code) => {
      if (stopping) return;
      say(`The embedded database ended on its own (exit code ${code}); starting it again`);
      for (let attempt = 0; !stopping; attempt++) {
        await new Promise((r) => setTimeout(r, RESTART_DELAYS_MS[Math.min(attempt, RESTART_DELAYS_MS.length - 1)]));
        if (stopping) return;
        const next = await forkDatabase(dataDir, port);
        // Stopped while this one was starting: it is not kept (it also stops when this process ends).
        if (stopping) {
          if (next.child.connected) next.child.send('stop');
          return;
        }
        if (!('error' in next.ready)) {
          current = next;
          say(`The embedded database is back (attempt ${attempt + 1})`);
          supervise(next);
          return;
        }
        if (attempt === 0) say(`The embedded database did not start again (${next.ready.error}); trying on`);
      }
    });
  };
  supervise(current);
  return {
    ...first,
    pid: () => current.child.pid!,
    async stop() {
      stopping = true;
      const { child, exited } = current;
      if (child.connected) child.send('stop');
      const killer = setTimeout(() => child.kill('SIGKILL'), STOP_WITHIN_MS);
      await exited;
      clearTimeout(killer);
    },
  };
}
