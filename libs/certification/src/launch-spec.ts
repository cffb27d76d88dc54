/**
 * C15: what an MCP server's declaration would start, read as a launch spec the hub can verify, or
 * refused with the reason. Only these forms are accepted (docs/security.md, C15):
 * - `npx [-y|--yes] <package>@<exact version> [args…]`,
 * - `uvx <package>==<exact version> [args…]`,
 * - `node|python|python3|bash <file of the bundle> [args…]` (the file is analysed like the rest),
 *   `python -m <module of the bundle>`, and `uv run [python] <file of the bundle>`, which the hub
 *   and the runtime run as `python3 <file>` (uv's environment is not provided),
 * - an `sse` or `streamable-http` server at an `https` URL on a public host.
 * A program the hub cannot verify but that shows no harm (a CLI on the host's PATH, a binary by
 * its path, a module installed on the host) is operator-provided: not refused, never standard,
 * never in the certificate; the runtime serves it only from its operator's own configuration.
 * Everything else is refused, naming what was found: shells, inline code, URL/git/file/tarball
 * specs, registry flags or registry settings in the server's environment, a variable in the
 * command's position, package runners other than npx and uvx, container images. A package given
 * by a range, a tag or no version is unpinned: allowed, but it can never be verified, so it is
 * never standard.
 */
import { posix } from 'node:path';
import { valid as exactSemver } from 'semver';
import type { McpServerRef } from '@skillhub/skill-formats';
import { normalizePypiName } from '@skillhub/skill-formats';
import type { ProbeResult } from './certification-input';

export type LaunchSpec =
  | {
      kind: 'npm' | 'pypi';
      /** The runner and its accepted option, as declared: `npx -y`, `uvx`. */
      argv: string[];
      package: { registry: 'npm' | 'pypi'; name: string; version: string };
      /** Arguments after the package: the server's own. */
      args: string[];
    }
  | {
      kind: 'bundle-file';
      argv: string[];
      interpreter: Interpreter;
      file: string;
      /** `python -m <module>`: the module, whose file is `file`; else null. */
      module: string | null;
      args: string[];
      /** What the hub and the runtime run, from the server's working folder (for `uv run`, the interpreter uv would run). */
      run: string[];
    }
  | { kind: 'remote'; url: string };

/** A server of the skill with the spec the hub accepted for it (null: refused). */
export interface ServerLaunch {
  server: McpServerRef;
  spec: LaunchSpec | null;
  /** The spec names exactly one release (or a bundle file, or a URL): nothing about it can change later. */
  pinned: boolean;
}

export type Interpreter = 'node' | 'python' | 'python3' | 'bash';

export type LaunchProblemCode =
  | 'shell-launcher'
  | 'inline-code'
  | 'remote-spec'
  | 'registry-override'
  | 'dangerous-env'
  | 'variable-command'
  | 'unsupported-launcher'
  | 'unsafe-url'
  | 'missing-file'
  | 'outside-bundle'
  | 'operator-provided'
  | 'unpinned';

export interface LaunchProblem {
  code: LaunchProblemCode;
  /** What was found, for the finding's message: "runs a shell (`sh -c …`)". */
  message: string;
  fixHint: string;
}

export interface LaunchVerdict {
  /** The spec when the declaration is one the hub accepts (possibly unpinned); null when it is refused. */
  spec: LaunchSpec | null;
  pinned: boolean;
  /** Why it is refused, or (`unpinned`, `operator-provided`) why it cannot be verified. */
  problems: LaunchProblem[];
  /** What the hub runs in place of what was declared (`uv run x.py` as `python3 x.py`, `npx -y pkg` at its pin). */
  note?: LaunchNote;
}

/** An info finding about a launch the hub runs differently from how it is written. */
export interface LaunchNote {
  code: 'run-as' | 'pinned-by-hub';
  /** Follows "MCP server <name> ". */
  message: string;
  fixHint: string;
}

export interface LaunchVerdictOf extends LaunchVerdict {
  server: McpServerRef;
}

/**
 * Every server of the skill with its verdict, in declaration order. `internalAddresses`: the exact
 * `address:port` destinations the hub's operator lets remote servers be reached at although they
 * are not public (LIVE_PROBE_ALLOW_ADDRESSES); a URL at one of them is not refused.
 */
export function readLaunchSpecs(
  servers: readonly McpServerRef[],
  bundleFiles: ReadonlySet<string>,
  internalAddresses: readonly string[] = [],
): LaunchVerdictOf[] {
  return servers.map((server) => ({ server, ...readLaunchSpec(server, bundleFiles, internalAddresses) }));
}

const PIN_HINT =
  'Run a package from npm or PyPI pinned to an exact version: `npx -y <package>@1.2.3` or `uvx <package>==1.2.3`.';
const SHELLS = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'fish',
  'csh',
  'tcsh',
  'ash',
  'busybox',
  'cmd',
  'powershell',
  'pwsh',
]);
const INTERPRETERS: ReadonlySet<string> = new Set<Interpreter>(['node', 'python', 'python3', 'bash']);
/** Options that run code given on the command line rather than a file. */
const INLINE_CODE_OPTIONS = new Set(['-c', '-e', '-p', '--eval', '--print', '--command', '-r', '-i', '--interactive']);
const NPM_RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'npm', 'pnpm', 'yarn', 'bun']);
const CONTAINER_RUNNERS = new Set(['docker', 'podman', 'nerdctl', 'ctr', 'finch']);
const PYPI_RUNNERS = new Set(['uvx', 'uv', 'pipx', 'pip', 'pip3']);
const REGISTRY_FLAGS = new Set([
  '--registry',
  '--index-url',
  '--extra-index-url',
  '--index',
  '--default-index',
  '--find-links',
  '-f',
  '-i',
  '--from',
  '--userconfig',
  '--globalconfig',
]);
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
const NPM_NAME_MAX = 214;
const PYPI_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
/** Specs that fetch from somewhere other than the registry: URLs, git, files, tarballs, GitHub shorthands, aliases. */
const REMOTE_SPEC = /^(?:[a-z][a-z0-9+.-]*:|\.{0,2}\/|~|[^@/\s]+\/[^@\s]+$)|\.(?:tgz|tar|tar\.gz|whl|zip)$/i;
/** Environment variables that redirect a package manager to another index or registry. */
const REGISTRY_ENV = /^(?:npm_config_|NPM_CONFIG_|PIP_|UV_|YARN_|PNPM_|BUN_|PIPX_|POETRY_|CONDA_)/;
const DANGEROUS_ENV = new Set([
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_EXTRA_CA_CERTS',
  'NODE_TLS_REJECT_UNAUTHORIZED',
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PYTHONHOME',
  'PYTHONINSPECT',
  'PYTHONUSERBASE',
  'BASH_ENV',
  'ENV',
  'PATH',
  'PERL5OPT',
  'PERL5LIB',
  'RUBYOPT',
  'GIT_SSH_COMMAND',
  'SSL_CERT_FILE',
  'REQUESTS_CA_BUNDLE',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'all_proxy',
]);
const VARIABLE = /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_][A-Za-z0-9_]*%)/;
/** Names that reach a cloud's instance metadata service, and local-only names. */
const LOCAL_HOSTNAMES =
  /^(?:localhost|.*\.localhost|metadata|metadata\.google\.internal|instance-data|instance-data\.ec2\.internal|.*\.internal|.*\.local|.*\.lan|.*\.home\.arpa)$/i;

const problem = (code: LaunchProblemCode, message: string, fixHint = PIN_HINT): LaunchProblem => ({
  code,
  message,
  fixHint,
});

/** `bundleFiles`: every path of the bundle, so an interpreter's file can be found. */
export function readLaunchSpec(
  server: McpServerRef,
  bundleFiles: ReadonlySet<string>,
  internalAddresses: readonly string[] = [],
): LaunchVerdict {
  const envProblems = environmentProblems(server.env);
  const cwd = server.cwd === null ? null : cwdProblem(server.cwd);
  // A file is named from the server's working folder; a cwd outside the bundle is refused above.
  const folder = server.cwd === null || cwd !== null ? '' : server.cwd;
  const verdict: StdioVerdict =
    server.transport === 'stdio'
      ? stdioSpec(server.command ?? [], bundleFiles, folder)
      : remoteSpec(server.url, internalAddresses);
  const problems = [...envProblems, ...(cwd ? [cwd] : []), ...verdict.problems];
  const refused = problems.some((p) => p.code !== 'unpinned');
  return {
    spec: refused ? null : verdict.spec,
    pinned: problems.length === 0,
    problems,
    ...(verdict.note && !refused ? { note: verdict.note } : {}),
  };
}

type StdioVerdict = { spec: LaunchSpec | null; problems: LaunchProblem[]; note?: LaunchNote };

/**
 * The certificate is the lock: an npm server named with no version (`npx -y pkg`) runs the release
 * the hub pinned at certification (C8's probe: npm's latest, by its integrity). Its spec names that
 * release from then on, for the live probe, the certificate and the runtime, and a note says so.
 */
export function pinnedByHub(verdicts: readonly LaunchVerdictOf[], probes: readonly ProbeResult[]): LaunchVerdictOf[] {
  return verdicts.map((verdict) => {
    const { spec } = verdict;
    if (spec?.kind !== 'npm' || spec.package.version !== '' || verdict.problems.some((p) => p.code !== 'unpinned'))
      return verdict;
    const pin = probes.find(
      (probe) => probe.pinnedByHub && probe.registry === 'npm' && probe.name === spec.package.name && probe.version,
    );
    if (!pin?.version) return verdict;
    const release = `${spec.package.name}@${pin.version}`;
    return {
      ...verdict,
      spec: { ...spec, package: { ...spec.package, version: pin.version } },
      pinned: true,
      problems: [],
      note: {
        code: 'pinned-by-hub',
        message: `names npm package ${spec.package.name} with no version; the hub pinned ${release}, its latest release, at certification by its integrity, and the runtime starts only that release`,
        fixHint: `Nothing to change; to choose the release yourself, pin it (\`npx -y ${release}\`).`,
      },
    };
  });
}

/** A working folder is a folder of the bundle: `.`, `server`, `./tools/x`; never `/`, `~`, `..` or a variable. */
function cwdProblem(cwd: string): LaunchProblem | null {
  const segments = cwd.replace(/\\/g, '/').split('/');
  const inside =
    !/^(?:\/|~|[A-Za-z]:)/.test(cwd) && !/[$%`]/.test(cwd) && segments.every((segment) => segment !== '..');
  return inside
    ? null
    : problem(
        'outside-bundle',
        `runs in \`${short(cwd)}\`, outside the skill's own folder`,
        "Give `cwd` as a folder of the bundle (relative, without `..`), or leave it out to run in the skill's folder.",
      );
}

function environmentProblems(env: Readonly<Record<string, string>>): LaunchProblem[] {
  return Object.keys(env).flatMap((name) => {
    if (REGISTRY_ENV.test(name)) {
      return [
        problem(
          'registry-override',
          `sets ${name} in the server's environment, which points its package manager at another registry or index`,
          `Remove ${name}: the hub probes and pins packages on the public registry, and the server must be fetched from there.`,
        ),
      ];
    }
    if (DANGEROUS_ENV.has(name) || name.startsWith('DYLD_')) {
      return [
        problem(
          'dangerous-env',
          `sets ${name} in the server's environment, which changes what code the program loads or where its traffic goes`,
          `Remove ${name} from the server's env; pass configuration the server reads itself instead.`,
        ),
      ];
    }
    return [];
  });
}

function stdioSpec(argv: readonly string[], bundleFiles: ReadonlySet<string>, folder: string): StdioVerdict {
  const [command, ...rest] = argv;
  if (command === undefined || command === '') {
    return refused(problem('unsupported-launcher', 'declares a stdio server with no command'));
  }
  if (VARIABLE.test(command)) {
    return refused(
      problem(
        'variable-command',
        `takes its command from a variable (\`${short(command)}\`), so what runs is decided at start`,
      ),
    );
  }
  const program = basename(command);
  if (INTERPRETERS.has(program)) return interpreterSpec(program as Interpreter, command, rest, bundleFiles, folder);
  if (SHELLS.has(program)) {
    return refused(
      problem('shell-launcher', `runs a shell (\`${short(argv.join(' '))}\`), whose command line can do anything`),
    );
  }
  if (command.includes('/') && !NPM_RUNNERS.has(program) && !PYPI_RUNNERS.has(program)) {
    if (/^(?:\/|[A-Za-z]:)/.test(command))
      return operatorProvided(`a program by its path (\`${short(command)}\`)`, rest);
    return refused(
      problem(
        'unsupported-launcher',
        `runs \`${short(command)}\` itself, so what interprets it is decided by its first line or its bytes`,
        'Name its interpreter and the file (`node bin/server.js`, `python3 bin/server.py`), or run a pinned package.',
      ),
    );
  }
  if (program === 'npx') return npxSpec(command, rest);
  if (program === 'uvx') return uvxSpec(command, rest);
  if (program === 'uv' && rest[0] === 'run') return uvRunSpec(rest.slice(1), bundleFiles, folder);
  if (CONTAINER_RUNNERS.has(program)) {
    return refused(
      problem(
        'unsupported-launcher',
        `runs a container image with \`${program}\`, whose contents the hub cannot see or pin`,
        'Ship the server as a file of the bundle, or run a package pinned on npm or PyPI.',
      ),
    );
  }
  if (NPM_RUNNERS.has(program) || PYPI_RUNNERS.has(program)) {
    return refused(
      problem(
        'unsupported-launcher',
        `runs \`${program}\`; the hub verifies only \`npx -y <package>@<version>\` and \`uvx <package>==<version>\``,
      ),
    );
  }
  return operatorProvided(`\`${short(program)}\`, a program on the host's PATH`, rest);
}

const URL_ARGUMENT = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * A program the host must provide: nothing harmful is shown, and nothing about it can be verified.
 * Handed code by URL (`deno run https://…`), it runs what nobody here has seen: refused.
 */
function operatorProvided(what: string, args: readonly string[]): StdioVerdict {
  const url = args.find((arg) => URL_ARGUMENT.test(arg));
  if (url !== undefined) {
    return refused(
      problem('remote-spec', `runs ${what} on \`${short(url)}\`, code fetched from a URL that nothing here has seen`),
    );
  }
  return refused(
    problem(
      'operator-provided',
      `runs ${what}, which the hub cannot verify: the runtime's operator must provide it, and the runtime starts the server only when its own configuration (mcp_servers) names it`,
      'To be verified (and reach standard), run a package pinned on npm or PyPI or a file of the bundle instead.',
    ),
  );
}

/** `uv run [python|python3] <file or -m module> [args…]`: run as `python3 …`, which is what uv would run. */
function uvRunSpec(args: readonly string[], bundleFiles: ReadonlySet<string>, folder: string): StdioVerdict {
  const rest = args[0] === 'python' || args[0] === 'python3' ? args.slice(1) : args;
  const first = rest[0];
  if (first === undefined || (first.startsWith('-') && first !== '-m')) {
    return refused(
      problem(
        'unsupported-launcher',
        first === undefined
          ? 'runs `uv run` with nothing to run'
          : `passes ${short(first.split('=')[0] as string)} to uv run; the hub verifies only \`uv run [python] <file of the bundle>\``,
        'Run a file of the bundle (`uv run server.py`), or a package pinned on PyPI (`uvx <package>==1.2.3`).',
      ),
    );
  }
  if (first !== '-m' && !first.endsWith('.py')) {
    return refused(
      problem(
        'unsupported-launcher',
        `runs \`${short(first)}\` through uv run, a program of a Python environment the hub does not build`,
        'Run a file of the bundle (`uv run server.py`), or a package pinned on PyPI (`uvx <package>==1.2.3`).',
      ),
    );
  }
  const verdict = interpreterSpec('python3', 'python3', rest, bundleFiles, folder);
  if (verdict.spec === null) return verdict;
  return {
    ...verdict,
    note: {
      code: 'run-as',
      message: `is declared as \`uv run …\`; the hub and the runtime run it as \`${short(verdict.spec.kind === 'bundle-file' ? verdict.spec.run.join(' ') : '')}\`, without the packages a uv environment would add, so a script that needs them does not start`,
      fixHint:
        'Ship what the script imports in the bundle (or use only the standard library), so it starts as the hub runs it.',
    },
  };
}

function npxSpec(command: string, args: readonly string[]): { spec: LaunchSpec | null; problems: LaunchProblem[] } {
  const runner = [command];
  let index = 0;
  for (; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '-y' || arg === '--yes') {
      runner.push(arg);
      continue;
    }
    if (!arg.startsWith('-')) break;
    const flag = arg.split('=')[0] as string;
    if (REGISTRY_FLAGS.has(flag)) {
      return refused(
        problem(
          'registry-override',
          `passes ${flag} to npx, so the package would come from another registry than the one the hub probed`,
        ),
      );
    }
    if (flag === '-c' || flag === '--call')
      return refused(problem('inline-code', `runs an inline command with npx ${flag}`));
    return refused(
      problem(
        'unsupported-launcher',
        `passes ${short(flag)} to npx; only -y (or --yes) is accepted before the package`,
      ),
    );
  }
  const spec = args[index];
  if (spec === undefined) return refused(problem('unsupported-launcher', 'runs npx without a package'));
  const remote = remoteSpecProblem(spec);
  if (remote) return refused(remote);
  const at = spec.lastIndexOf('@');
  const [name, version] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, null];
  if (name.length > NPM_NAME_MAX || !NPM_NAME.test(name)) {
    return refused(problem('unsupported-launcher', `names \`${short(spec)}\`, which is not an npm package name`));
  }
  const launch: LaunchSpec = {
    kind: 'npm',
    argv: runner,
    package: { registry: 'npm', name, version: version ?? '' },
    args: args.slice(index + 1),
  };
  if (version === null || exactSemver(version) !== version)
    return unpinned(launch, `npm package ${name}${version === null ? '' : `@${version}`}`);
  return { spec: launch, problems: [] };
}

function uvxSpec(command: string, args: readonly string[]): { spec: LaunchSpec | null; problems: LaunchProblem[] } {
  const [spec, ...serverArgs] = args;
  if (spec === undefined) return refused(problem('unsupported-launcher', 'runs uvx without a package'));
  if (spec.startsWith('-')) {
    const flag = spec.split('=')[0] as string;
    return refused(
      REGISTRY_FLAGS.has(flag)
        ? problem(
            'registry-override',
            `passes ${flag} to uvx, so the package would come from somewhere the hub did not probe`,
          )
        : problem(
            'unsupported-launcher',
            `passes ${short(flag)} to uvx; the hub verifies only \`uvx <package>==<version>\``,
          ),
    );
  }
  const remote = remoteSpecProblem(spec);
  if (remote) return refused(remote);
  const match = /^([^=<>!~\s[]+)(?:\[[\w,\s-]*\])?(?:(==|===|@)([0-9][0-9A-Za-z.+!-]*))?(.*)$/.exec(spec);
  if (!match || !PYPI_NAME.test(match[1] as string)) {
    return refused(problem('unsupported-launcher', `names \`${short(spec)}\`, which is not a PyPI package name`));
  }
  const name = normalizePypiName(match[1] as string);
  const launch: LaunchSpec = {
    kind: 'pypi',
    argv: [command],
    package: { registry: 'pypi', name, version: match[3] ?? '' },
    args: serverArgs,
  };
  if (match[3] === undefined || (match[4] ?? '') !== '') return unpinned(launch, `PyPI package ${short(spec)}`);
  return { spec: launch, problems: [] };
}

function interpreterSpec(
  interpreter: Interpreter,
  command: string,
  args: readonly string[],
  bundleFiles: ReadonlySet<string>,
  folder: string,
): { spec: LaunchSpec | null; problems: LaunchProblem[] } {
  const [first, ...serverArgs] = args;
  if (first === undefined) {
    return refused(problem('inline-code', `runs ${interpreter} with no file, which reads its code from its input`));
  }
  if (first === '-m' && interpreter.startsWith('python'))
    return moduleSpec(interpreter, command, args, bundleFiles, folder);
  if (first.startsWith('-')) {
    const flag = first.split('=')[0] as string;
    if (INLINE_CODE_OPTIONS.has(flag) || (interpreter === 'bash' && /^-[a-z]*c/.test(flag))) {
      return refused(
        problem(
          'inline-code',
          `runs inline code (\`${short([command, ...args].join(' '))}\`)`,
          'Ship the server as a file of the bundle and run that file, or run a pinned package.',
        ),
      );
    }
    return refused(
      problem(
        'unsupported-launcher',
        `passes ${short(flag)} to ${interpreter}; the hub verifies only \`${interpreter} <file of the bundle>\``,
      ),
    );
  }
  const written = first.replace(/^\.\//, '');
  const file = posix.normalize(folder === '' ? written : `${folder}/${written}`);
  if (written.startsWith('/') || written.split('/').includes('..') || !bundleFiles.has(file)) {
    return refused(
      problem(
        'missing-file',
        `runs ${interpreter} on \`${short(first)}\`${folder === '' ? '' : ` in \`${short(folder)}\``}, which is not a file of the bundle`,
        'Ship the file in the bundle and name it by its path inside the bundle, or run a pinned package.',
      ),
    );
  }
  return bundleFile(interpreter, command, file, null, args, serverArgs);
}

/** A file of the bundle run by its interpreter (as a module with `python -m`), as declared. */
function bundleFile(
  interpreter: Interpreter,
  command: string,
  file: string,
  module: string | null,
  args: readonly string[],
  serverArgs: string[],
): StdioVerdict {
  return {
    spec: {
      kind: 'bundle-file',
      argv: [command],
      interpreter,
      file,
      module,
      args: serverArgs,
      run: [command, ...args],
    },
    problems: [],
  };
}

const MODULE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * `python -m <module>`: a module of the bundle (`<module>.py` or `<module>/__main__.py` from the
 * working folder) is a file of the bundle; a module the host has installed is the operator's. A
 * module name is never a PyPI package.
 */
function moduleSpec(
  interpreter: Interpreter,
  command: string,
  args: readonly string[],
  bundleFiles: ReadonlySet<string>,
  folder: string,
): StdioVerdict {
  const [, module, ...serverArgs] = args;
  if (module === undefined || !MODULE_NAME.test(module)) {
    return refused(
      problem('unsupported-launcher', `runs \`${short(args.join(' '))}\`, which does not name a Python module`),
    );
  }
  const path = module.replace(/\./g, '/');
  const file = [`${path}.py`, `${path}/__main__.py`]
    .map((candidate) => posix.normalize(folder === '' ? candidate : `${folder}/${candidate}`))
    .find((candidate) => bundleFiles.has(candidate));
  if (file === undefined)
    return operatorProvided(`the Python module \`${short(module)}\`, which is not in the bundle`, serverArgs);
  return bundleFile(interpreter, command, file, module, args, serverArgs);
}

function remoteSpec(
  url: string | null,
  internalAddresses: readonly string[],
): { spec: LaunchSpec | null; problems: LaunchProblem[] } {
  if (url === null)
    return refused(problem('unsafe-url', 'declares a remote server without a URL', 'Give the server an https:// URL.'));
  const unsafe = unsafeUrl(url, internalAddresses);
  if (unsafe)
    return refused(problem('unsafe-url', unsafe, 'Serve the remote server over https:// at a public host name.'));
  return { spec: { kind: 'remote', url }, problems: [] };
}

/** Why a remote server's URL is refused, or null. An `internalAddresses` destination is let through. */
export function unsafeUrl(text: string, internalAddresses: readonly string[] = []): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `has a URL that does not parse (\`${short(text)}\`)`;
  }
  if (url.protocol !== 'https:')
    return `is served over ${url.protocol.replace(':', '')}, not https (\`${short(text)}\`)`;
  if (url.username !== '' || url.password !== '') return 'puts credentials in its URL';
  // The URL parser writes hosts in lowercase (and IPv6 compressed); so should the operator's list.
  const authority = `${url.hostname}:${url.port || '443'}`;
  if (internalAddresses.some((address) => address.toLowerCase() === authority)) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (LOCAL_HOSTNAMES.test(host)) return `points at ${host}, a local or cloud-metadata host`;
  const embedded = embeddedAddress(host);
  if (embedded !== null && !isPublicAddress(embedded))
    return `points at ${host}, a name that resolves to ${embedded}, a loopback, private, link-local or metadata address`;
  if (isIpLiteral(host) && !isPublicAddress(host))
    return `points at ${host}, a loopback, private, link-local or metadata address`;
  return null;
}

const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;

/**
 * The address a name spells out, which wildcard DNS services (nip.io, sslip.io and their many
 * clones) answer with: `127.0.0.1.nip.io`, `10-0-0-1.sslip.io`, `app.192.168.1.9.example`. Public
 * names made to answer loopback (`localtest.me`, `lvh.me`) count as 127.0.0.1. The runtime checks
 * every address a remote server's name resolves to when it connects.
 */
function embeddedAddress(host: string): string | null {
  if (/(?:^|\.)(?:localtest\.me|lvh\.me|vcap\.me|localhost\.direct|traefik\.me|lacolhost\.com)$/i.test(host))
    return '127.0.0.1';
  if (isIpLiteral(host)) return null;
  const match = /(?:^|[.-])((?:\d{1,3}[.-]){3}\d{1,3})(?:[.-]|$)/.exec(host);
  return match ? (match[1] as string).replace(/-/g, '.') : null;
}

/** `URL` has already normalised the host: IPv4 to dotted decimal, IPv6 without brackets. */
const isIpLiteral = (host: string): boolean => IPV4.test(host) || host.includes(':');

/** An IP literal that is routed on the public internet. */
function isPublicAddress(address: string): boolean {
  if (IPV4.test(address)) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    const privateV4 =
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224;
    return !privateV4;
  }
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return isPublicAddress(mapped[1] as string);
  return !(
    lower === '::' ||
    lower === '::1' ||
    /^f[cd]/.test(lower) ||
    /^fe[89ab]/.test(lower) ||
    lower.startsWith('ff') ||
    lower.startsWith('::ffff:') ||
    lower.startsWith('64:ff9b:') ||
    lower.startsWith('fd00:ec2')
  );
}

function remoteSpecProblem(spec: string): LaunchProblem | null {
  if (!REMOTE_SPEC.test(spec)) return null;
  return problem(
    'remote-spec',
    `fetches \`${short(spec)}\` from a URL, git, a file or a tarball instead of the registry, so nothing the hub probed would run`,
  );
}

const refused = (p: LaunchProblem): StdioVerdict => ({ spec: null, problems: [p] });

function unpinned(spec: LaunchSpec, what: string): { spec: LaunchSpec; problems: LaunchProblem[] } {
  return {
    spec,
    problems: [
      problem(
        'unpinned',
        `runs ${what} without an exact version, so what starts can change after certification`,
        'Pin an exact version (`<package>@1.2.3` for npm, `<package>==1.2.3` for PyPI).',
      ),
    ],
  };
}

const basename = (path: string): string => path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);

function short(text: string): string {
  const oneLine = text.replace(/\p{Cc}/gu, '?');
  return oneLine.length > 80 ? `${oneLine.slice(0, 79)}…` : oneLine;
}
