/**
 * What a certified server starts, read from its certificate entry (never from the skill's manifest):
 * the exact argv C15 accepted, split into the package or file it runs and the server's own
 * arguments. Anything that is not exactly one of the shapes C15 certifies is refused with its
 * reason, as is a PyPI package whose certificate records no lock of wheels to install by hash.
 * Pure.
 */
import { posix } from 'node:path';
import type { CertifiedServer, ServerLock } from '@skillhub/signing';

export type CertifiedLaunch =
  | {
      kind: 'npm';
      package: { name: string; version: string; integrity: string };
      /** The server's own arguments: the certified argv after the package. */
      args: string[];
    }
  | {
      kind: 'bundle-file';
      interpreter: 'node' | 'python3' | 'bash';
      /** Relative to the skill's folder. */
      file: string;
      /** `python3 -m <module>` (whose file is `file`), run from the server's working folder; else null. */
      module: string | null;
      args: string[];
    }
  | {
      kind: 'pypi';
      /** The wheels to install, each by the sha256 recorded at certification. */
      lock: ServerLock;
      /** The server's own arguments: the certified argv after `<name>==<version>`. */
      args: string[];
    }
  | { kind: 'remote'; transport: 'sse' | 'streamable-http'; url: string };

export type CertifiedLaunchReading = { ok: true; launch: CertifiedLaunch } | { ok: false; reason: string };

const NPX_YES = new Set(['-y', '--yes']);
const INTERPRETERS: Record<string, 'node' | 'python3' | 'bash'> = {
  node: 'node',
  python: 'python3',
  python3: 'python3',
  bash: 'bash',
};

export function certifiedLaunch(server: CertifiedServer): CertifiedLaunchReading {
  const refuse = (why: string): CertifiedLaunchReading => ({ ok: false, reason: why });
  const [program, ...rest] = server.argv;
  switch (server.launch) {
    case 'pypi': {
      const lock = server.lock;
      if (server.transport !== 'stdio' || lock === undefined || program === undefined) {
        return refuse(
          'its certificate records no lock of wheels for this PyPI server, so nothing can be installed by hash',
        );
      }
      if (posix.basename(program) !== 'uvx') return refuse(`its certified command runs ${program}, not uvx`);
      const at = rest.indexOf(`${lock.name}==${lock.version}`);
      if (at < 0) return refuse(`its certified command does not run ${lock.name}==${lock.version}`);
      return { ok: true, launch: { kind: 'pypi', lock, args: rest.slice(at + 1) } };
    }
    case 'remote':
      if (server.transport === 'stdio' || server.url === null) return refuse('its certificate gives no remote URL');
      return { ok: true, launch: { kind: 'remote', transport: server.transport, url: server.url } };
    case 'npm': {
      const pinned = server.package;
      if (server.transport !== 'stdio' || pinned?.registry !== 'npm' || program === undefined) {
        return refuse('its certificate does not pin an npm package for a stdio server');
      }
      if (posix.basename(program) !== 'npx') return refuse(`its certified command runs ${program}, not npx`);
      const at = rest.findIndex((arg) => !NPX_YES.has(arg));
      if (at < 0 || rest[at] !== `${pinned.name}@${pinned.version}`) {
        return refuse(`its certified command does not run ${pinned.name}@${pinned.version}`);
      }
      const { name, version, integrity } = pinned;
      return { ok: true, launch: { kind: 'npm', package: { name, version, integrity }, args: rest.slice(at + 1) } };
    }
    case 'bundle-file': {
      const interpreter = program === undefined ? undefined : INTERPRETERS[posix.basename(program)];
      if (server.transport !== 'stdio' || server.file === null || interpreter === undefined) {
        return refuse('its certificate does not name an interpreter and a file of the skill');
      }
      const module = rest[0] === '-m' && interpreter === 'python3' ? (rest[1] ?? '') : null;
      const [first, ...args] = module === null ? rest : rest.slice(1);
      const file = posix.normalize(server.file);
      // The argv names the file (or module) from the server's working folder; the certificate, from the skill's root.
      const named = (path: string): string => posix.normalize(posix.join(server.cwd ?? '.', path));
      const names =
        module === null
          ? first !== undefined && named(first) === file
          : /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$/.test(module) &&
            [`${module.replace(/\./g, '/')}.py`, `${module.replace(/\./g, '/')}/__main__.py`].map(named).includes(file);
      if (!names || !isInsideFolder(file)) {
        return refuse(`its certified command does not run the skill's file ${server.file}`);
      }
      return { ok: true, launch: { kind: 'bundle-file', interpreter, file, module, args } };
    }
    default:
      return refuse(`its certificate names an unknown launch ${JSON.stringify(server.launch)}`);
  }
}

/** A normalized relative path that stays inside the folder it is relative to (and is not the folder itself). */
export const isInsideFolder = (path: string): boolean =>
  path !== '' &&
  path !== '.' &&
  path !== '..' &&
  !path.startsWith('../') &&
  !posix.isAbsolute(path) &&
  !path.includes('\0');
