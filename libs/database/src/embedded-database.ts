/**
 * The embedded default: real PostgreSQL (PGlite, compiled to WASM) served on a
 * loopback port so TypeORM reaches it through `pg` like any other server.
 */
import { fork } from 'node:child_process';
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

/** Opens (or creates) the database under `<dataDir>/pgdata`; pass `null` for an in-memory one. */
export async function startEmbeddedDatabase(dataDir: string | null): Promise<EmbeddedDatabase> {
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
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0 });
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

/**
 * The embedded database in a process of its own (`embedded-database-process.ts`), as `npm start`
 * runs it: PGlite's WASM heap, which never shrinks, is not hub-api's memory, and PostgreSQL's work
 * runs beside the API rather than on its event loop (bench/README.md, "search"). That process
 * ignores the terminal's signals, so the hub drains before its database stops; it stops when
 * told to or when this process ends (its IPC channel closes). `onExit` hears of it ending on
 * its own.
 */
export async function startEmbeddedDatabaseProcess(
  dataDir: string,
  onExit: (code: number | null) => void,
): Promise<EmbeddedDatabase & { pid: number }> {
  // None of hub-api's own Node flags (an --inspect port would clash).
  const child = fork(join(__dirname, 'embedded-database-process.js'), [dataDir], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const ready = await Promise.race([
    new Promise<EmbeddedProcessMessage>((done) => child.once('message', (m) => done(m as EmbeddedProcessMessage))),
    exited.then((code): EmbeddedProcessMessage => ({ error: `exited with ${code} before it was ready` })),
  ]);
  if ('error' in ready) {
    child.kill('SIGKILL');
    throw new Error(`the embedded database did not start: ${ready.error}`);
  }
  let stopping = false;
  void exited.then((code) => {
    if (!stopping) onExit(code);
  });
  return {
    ...ready,
    pid: child.pid!,
    async stop() {
      stopping = true;
      if (child.connected) child.send('stop');
      await exited;
    },
  };
}
