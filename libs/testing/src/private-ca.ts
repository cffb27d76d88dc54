/**
 * A private CA and a certificate it signed for 127.0.0.1 (openssl), as a company's TLS-inspecting
 * proxy has, or a remote MCP server a test runs on loopback.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PrivateCa {
  /** The CA's certificate, PEM, in `dir`. */
  caFile: string;
  /** The leaf's key, PEM. */
  leafKey: string;
  /** The leaf's certificate and the CA's, PEM: what a server presents. */
  chain: string;
}

/** Writes the CA and the leaf into `dir` (an empty folder the test owns). */
export const privateCa = (dir: string): PrivateCa => {
  const run = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Spec Private CA');
  run('req', ...ec, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'leaf.ext'), 'subjectAltName=IP:127.0.0.1\n');
  run(
    'x509',
    '-req',
    '-in',
    'leaf.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'leaf.pem',
    '-days',
    '2',
    '-extfile',
    'leaf.ext',
  );
  const read = (name: string): string => readFileSync(join(dir, name), 'utf8');
  return { caFile: join(dir, 'ca.pem'), leafKey: read('leaf.key'), chain: read('leaf.pem') + read('ca.pem') };
};
