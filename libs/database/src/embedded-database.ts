/**
 * The embedded default: real PostgreSQL (PGlite, compiled to WASM) served on a
 * loopback port so TypeORM reaches it through `pg` like any other server.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

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
    extensions: { pg_trgm, pgcrypto },
    postgresqlconf: MEMORY_SETTINGS,
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
