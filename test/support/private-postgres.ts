/**
 * A PostgreSQL cluster of a test's own (initdb in a temporary folder, a spare loopback port), for
 * fault tests that stop and start the server; the machine's shared one is never stopped. Run as
 * the `postgres` user when the tests run as root, as initdb refuses root. Created migrated.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { userInfo, tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateDatabase } from '@skillhub/testing';
import { sparePort } from './private-redis';

export interface PrivatePostgres {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  remove(): void;
}

const binDir = (): string => {
  const root = '/usr/lib/postgresql';
  const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  if (!version) throw new Error(`no PostgreSQL under ${root}`);
  return join(root, version, 'bin');
};

export async function createPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'skillhub-pg-'));
  const data = join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  const command = (program: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
  // Asynchronous, so what the test drives (a request flood) goes on while the server stops and starts.
  const run = async (program: string, args: string[]): Promise<void> => {
    await promisify(execFile)(...command(program, args)).catch((err: { stderr?: string; message: string }) => {
      throw new Error(`${program} failed: ${err.stderr || err.message}`);
    });
  };
  const port = await sparePort();
  await run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off`;
  const cluster: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => run('pg_ctl', ['-D', data, '-o', options, '-w', '-t', '60', '-l', join(dir, 'log'), 'start']),
    // Fast shutdown: open connections are ended (57P01), as an operator's restart does.
    stop: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']),
    remove: () => {
      spawnSync(...command('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  await migrateDatabase(cluster.url);
  return cluster;
}
