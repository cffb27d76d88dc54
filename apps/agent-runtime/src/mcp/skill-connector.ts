/**
 * Starts a skill's server exactly as its certificate says, the way the certifier started it when
 * its tools were recorded (libs/live-probe's launch): an npm release from the package cache with
 * its certified integrity (re-verified at every start, so a tampered entry is refused), its bin
 * run by Node without npx; a PyPI release installed from its certified lock of wheels, by hash, its
 * console script run by Python 3; a file of the installed skill run by its interpreter; a remote server
 * at its URL, through an egress proxy of its own that connects to public addresses only (or the
 * operator's `sandbox_egress.allow_addresses`), DNS rebinding included, on the network audit trail. Before every start, the skill's installed files are checked against its certificate
 * (a file changed since install is refused, named). Stdio servers run in the sandbox: their own pid,
 * ipc, uts and network namespaces, network only through their egress proxy when the skill declares or
 * is granted it, the system, package and skill folder read-only, a tmpfs home and /tmp, process,
 * CPU and memory limits, its certified env only; `/proc` shows nothing of the runtime. With
 * `sandbox: off` they run as plain processes.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  bundleFileServerLaunch,
  inSkillFolder,
  npmServerLaunch,
  openRemoteConnection,
  pypiServerLaunch,
  serverSandboxPolicy,
  type ServerLaunch,
} from '@skillhub/live-probe';
import { changedInstalledFiles } from '@skillhub/installer';
import type { PythonPackageCache } from '@skillhub/package-cache';
import { SandboxStdioTransport } from '@skillhub/sandbox';
import type { CertifiedLaunch } from '../install/certified-launch';
import type { RecentPackageChecks } from './recent-package-checks';
import { type SandboxSetting, noSandbox } from './sandbox-setting';
import { describeFailure } from './server-failure';
import { serverEnvironment } from './server-environment';
import type { PlannedSkillServer } from './server-plan';
import { type UpstreamConnector, type UpstreamOptions, UpstreamServer } from './upstream-server';
import { StderrTail } from './stderr-tail';

export interface SkillConnectorOptions {
  sandbox: SandboxSetting;
  packageCache: RecentPackageChecks;
  /** PyPI servers, installed from their certified locks. */
  pythonCache: PythonPackageCache;
  /** Only with `sandbox: off`: the allowlisted part (PATH, HOME, locale) a plain process needs. */
  runtimeEnv: NodeJS.ProcessEnv;
}

/** A skill's server as an upstream of the gateway: its tools vouched for by the certificates that name it. */
export function skillUpstream(
  planned: PlannedSkillServer,
  options: SkillConnectorOptions,
  upstream: UpstreamOptions,
): UpstreamServer {
  return new UpstreamServer(
    {
      name: planned.name,
      origin: { kind: 'skill', certifications: planned.certifications, governance: planned.governance },
      connector: skillConnector(planned, options),
      secrets: planned.server.secrets,
    },
    upstream,
  );
}

export function skillConnector(planned: PlannedSkillServer, options: SkillConnectorOptions): UpstreamConnector {
  const { server } = planned;
  const { launch } = server;
  const grantTo = [...new Set(planned.certifications.map(({ certifiedAs }) => certifiedAs.replace(/@[^@]*$/, '')))];
  let stderr: StderrTail | null = null;
  return {
    async open(): Promise<Transport> {
      if (launch.kind === 'remote') {
        const target = { kind: 'remote' as const, server: planned.name, transport: launch.transport, url: launch.url };
        return (await openRemoteConnection(target, options.sandbox.egress.remoteAccess())).transport;
      }
      if (server.skillDir !== null) {
        const changed = changedInstalledFiles(server.skillDir, { files: server.certifiedFiles });
        if (changed) throw new Error(`its skill's installed files are refused: ${changed}`);
      }
      if (options.sandbox.mode === 'off') {
        stderr = new StderrTail();
        return plainTransport(planned, launch, options, stderr);
      }
      const missing = noSandbox(options.sandbox);
      if (missing)
        throw new Error(
          `${missing}; skill servers start only in the sandbox, unless the runtime config says sandbox: off`,
        );
      const started = await sandboxedLaunch(planned, launch, options);
      const policy = serverSandboxPolicy(
        started,
        { args: launch.args, env: server.env },
        {
          limits: options.sandbox.limits,
          network: server.network && (await options.sandbox.egress.network(planned.name, server.network)),
        },
      );
      return new SandboxStdioTransport(policy, started.argv, { tools: options.sandbox.tools });
    },
    relistsBeforeCalls: launch.kind === 'remote',
    explain(error, transport): string {
      const sandboxed = transport instanceof SandboxStdioTransport ? transport : null;
      return describeFailure({
        error: error.message,
        exit: sandboxed?.exit ?? null,
        stderr: sandboxed?.stderrTail ?? stderr?.text ?? '',
        network: server.network !== null || launch.kind === 'remote',
        grantTo,
      });
    },
  };
}

/** The launch, with the skill's folder mounted read-only when the server runs a file of it or works in it. */
async function sandboxedLaunch(
  planned: PlannedSkillServer,
  launch: Exclude<CertifiedLaunch, { kind: 'remote' }>,
  options: SkillConnectorOptions,
): Promise<ServerLaunch> {
  const { server } = planned;
  const skillDir = server.skillDir;
  const started =
    launch.kind === 'npm'
      ? await npmServerLaunch({ ...launch.package, args: launch.args }, options.packageCache)
      : launch.kind === 'pypi'
        ? await pypiServerLaunch({ lock: launch.lock, args: launch.args }, options.pythonCache)
        : await bundleFileServerLaunch({
            interpreter: launch.interpreter,
            file: join(skillDir!, launch.file),
            module: launch.module,
            bundleDir: skillDir!,
            args: launch.args,
          });
  return skillDir === null ? started : inSkillFolder(started, skillDir, server.cwd);
}

async function plainTransport(
  planned: PlannedSkillServer,
  launch: Exclude<CertifiedLaunch, { kind: 'remote' }>,
  options: SkillConnectorOptions,
  stderr: StderrTail,
): Promise<Transport> {
  const { server } = planned;
  const skillDir = server.skillDir;
  if (server.cwd !== null) assertFolder(skillDir!, server.cwd);
  const [command, ...args] =
    launch.kind === 'npm'
      ? [process.execPath, (await options.packageCache.install(launch.package)).bin, ...launch.args]
      : launch.kind === 'pypi'
        ? await plainPython(launch, options.pythonCache)
        : [
            launch.interpreter === 'node' ? process.execPath : launch.interpreter,
            ...(launch.module === null ? [join(skillDir!, launch.file)] : ['-m', launch.module]),
            ...launch.args,
          ];
  const transport = new StdioClientTransport({
    command: command!,
    args,
    env: serverEnvironment(options.runtimeEnv, server.env),
    // `python3 -m <module>` finds the module from its working folder: always the skill's own.
    cwd:
      server.cwd !== null
        ? join(skillDir!, server.cwd)
        : launch.kind === 'bundle-file' && launch.module !== null
          ? skillDir!
          : undefined,
    stderr: 'pipe',
  });
  stderr.follow(transport.stderr);
  return transport;
}

/** `python3 -I -S -B <launcher> args…` from the cache, as the sandbox runs it. */
async function plainPython(
  launch: Extract<CertifiedLaunch, { kind: 'pypi' }>,
  cache: PythonPackageCache,
): Promise<string[]> {
  const python = await cache.interpreter();
  if (!python) throw new Error('python3 is not installed on this machine');
  return [python, '-I', '-S', '-B', (await cache.install(launch.lock)).launcher, ...launch.args];
}

/** A declared working folder must exist in the installed skill (the certificate has its files). */
function assertFolder(skillDir: string, cwd: string): void {
  const found = statSync(join(skillDir, cwd), { throwIfNoEntry: false });
  if (!found?.isDirectory()) throw new Error(`its working folder ${cwd} is not a folder of the installed skill`);
}
