/**
 * C13's evidence: each MCP server whose launch C15 accepted and pinned is started in the sandbox
 * and its tools, prompts and resources are listed (libs/live-probe). A pinned npm release
 * installs from the content-addressed package cache with its registry integrity checked; a file
 * of the bundle runs from the bundle, extracted read-only. A remote server is listed over https
 * through an egress proxy that reaches public addresses only (and the operator's
 * LIVE_PROBE_ALLOW_ADDRESSES), so its tools are pinned as a local server's are. A pinned PyPI
 * release is resolved by pip to a lock of wheels by sha256, installed from exactly that lock and
 * probed; the lock goes into the certificate, and the runtime installs nothing else.
 */
import { readFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import type { Logger } from '@nestjs/common';
import type { Bundle } from '@skillhub/bundle';
import type { LaunchVerdictOf, LiveServerProbe, ProbeResult } from '@skillhub/certification';
import type { HubConfig } from '@skillhub/config';
import {
  extractBundle,
  probeLiveServer,
  type ExtractedBundle,
  type LiveProbeTarget,
  type RemoteAccess,
  type RemoteServerTarget,
} from '@skillhub/live-probe';
import { PackageCache, PythonPackageCache } from '@skillhub/package-cache';
import { sandboxAvailable } from '@skillhub/sandbox';

/** A listed server gives the same answer for the same release, arguments and environment. */
const MAX_REMEMBERED = 256;

export interface LiveToolsRecorderOptions {
  packageCache: PackageCache;
  pythonCache?: PythonPackageCache;
  timeoutMs: number;
  /** Which remote servers can be reached, beyond public addresses with the system's CAs. */
  remote?: RemoteAccess;
}

export class LiveToolsRecorder {
  private readonly listed = new Map<string, LiveServerProbe>();

  constructor(private readonly options: LiveToolsRecorderOptions) {}

  /** One probe per server it could start, in declaration order; never throws. */
  async record(
    launches: readonly LaunchVerdictOf[],
    bundle: Bundle,
    probes: readonly ProbeResult[],
  ): Promise<LiveServerProbe[]> {
    let extracted: ExtractedBundle | null = null;
    const results: LiveServerProbe[] = [];
    try {
      for (const { server, spec, pinned } of launches) {
        if (!spec || !pinned) continue;
        if (spec.kind === 'npm') {
          const found = probes.find(
            (p) =>
              p.registry === 'npm' &&
              p.name === spec.package.name &&
              p.version === spec.package.version &&
              p.outcome === 'found' &&
              p.integrity !== null,
          );
          if (!found?.integrity) {
            results.push(notProbed(server.name, 'its npm release was not found with an integrity digest (see C8)'));
            continue;
          }
          if (server.cwd !== null) extracted ??= await extractBundle(bundle);
          const target: LiveProbeTarget = {
            kind: 'npm',
            server: server.name,
            name: spec.package.name,
            version: spec.package.version,
            integrity: found.integrity,
            args: spec.args,
            env: server.env,
            ...workingFolder(extracted, server.cwd),
          };
          // Only a server that works in no folder of its skill gives the same answer for every skill.
          results.push(await this.probe(target, server.cwd === null));
        } else if (spec.kind === 'bundle-file') {
          extracted ??= await extractBundle(bundle);
          const target: LiveProbeTarget = {
            kind: 'bundle-file',
            server: server.name,
            interpreter: spec.interpreter === 'python' ? 'python3' : spec.interpreter,
            file: join(extracted.dir, spec.file),
            module: spec.module,
            bundleDir: extracted.dir,
            args: spec.args,
            env: server.env,
            ...workingFolder(extracted, server.cwd),
          };
          results.push(await this.probe(target, false));
        } else if (spec.kind === 'pypi') {
          results.push(
            await this.probePypi(server, spec, probes, async () => (extracted ??= await extractBundle(bundle))),
          );
        } else if (spec.kind === 'remote' && server.transport !== 'stdio') {
          const target: RemoteServerTarget = {
            kind: 'remote',
            server: server.name,
            transport: server.transport,
            url: spec.url,
          };
          // Never remembered: what a remote server lists can change at any time.
          results.push(await this.probe(target, false));
        }
      }
    } finally {
      await extracted?.remove();
    }
    return results;
  }

  /** A pinned PyPI release C8 found: its lock resolved by pip, then installed from that lock and listed. */
  private async probePypi(
    server: LaunchVerdictOf['server'],
    spec: Extract<NonNullable<LaunchVerdictOf['spec']>, { kind: 'npm' | 'pypi' }>,
    probes: readonly ProbeResult[],
    extract: () => Promise<ExtractedBundle>,
  ): Promise<LiveServerProbe> {
    const { name, version } = spec.package;
    const found = probes.some(
      (p) => p.registry === 'pypi' && p.name === name && p.version === version && p.outcome === 'found',
    );
    if (!found) return notProbed(server.name, 'its PyPI release was not found (see C8)');
    const cache = this.options.pythonCache;
    if (!cache) return notProbed(server.name, 'the certifier has no Python package cache');
    let lock;
    try {
      lock = await cache.resolve(name, version);
    } catch (error) {
      return { ...notProbed(server.name, ''), outcome: 'failed', detail: (error as Error).message };
    }
    const extracted = server.cwd === null ? null : await extract();
    const target: LiveProbeTarget = {
      kind: 'pypi',
      server: server.name,
      lock,
      args: spec.args,
      env: server.env,
      ...workingFolder(extracted, server.cwd),
    };
    const probe = await this.probe(target, server.cwd === null);
    return probe.outcome === 'listed' ? { ...probe, lock } : probe;
  }

  /** Listed npm releases are remembered; a failure may be the machine's (a timeout), so it is tried again next time. */
  private async probe(target: LiveProbeTarget | RemoteServerTarget, remember: boolean): Promise<LiveServerProbe> {
    const key = remember ? JSON.stringify(target) : null;
    const known = key === null ? undefined : this.listed.get(key);
    if (known) return known;
    const probe = await probeLiveServer(target, {
      packageCache: this.options.packageCache,
      pythonCache: this.options.pythonCache,
      timeoutMs: this.options.timeoutMs,
      remote: this.options.remote,
    });
    if (key !== null && probe.outcome === 'listed') {
      if (this.listed.size >= MAX_REMEMBERED) this.listed.delete(this.listed.keys().next().value as string);
      this.listed.set(key, probe);
    }
    return probe;
  }
}

/** Probed in the folder it will work in at run time (the runtime honours a declared `cwd` the same way). */
function workingFolder(extracted: ExtractedBundle | null, cwd: string | null): Pick<LiveProbeTarget, 'workingFolder'> {
  return extracted && cwd !== null ? { workingFolder: { skillDir: extracted.dir, cwd } } : {};
}

function notProbed(server: string, detail: string): LiveServerProbe {
  return { server, outcome: 'not-probed', detail, tools: [], prompts: [], resources: [] };
}

/** The worker's recorder, or null when LIVE_PROBE is off; a missing sandbox is said loudly at start. */
export async function liveToolsRecorder(
  config: HubConfig,
  logger: Pick<Logger, 'warn' | 'log'>,
): Promise<LiveToolsRecorder | null> {
  if (!config.LIVE_PROBE) {
    logger.warn('LIVE_PROBE is off: no MCP server is started at certification, so no skill with one reaches standard');
    return null;
  }
  const sandbox = await sandboxAvailable();
  if (!sandbox.ok) {
    logger.warn(
      `no sandbox (${sandbox.reason}): MCP servers are not started at certification, so no skill with one reaches standard; install bubblewrap`,
    );
  }
  const root = resolve(config.PACKAGE_CACHE_DIR ?? join(config.HUB_DATA_DIR, 'package-cache'));
  return new LiveToolsRecorder({
    packageCache: new PackageCache({ root, registry: config.NPM_REGISTRY_URL }),
    pythonCache: new PythonPackageCache({ root, index: config.PYPI_REGISTRY_URL }),
    timeoutMs: config.LIVE_PROBE_TIMEOUT_MS,
    remote: {
      allowAddresses: config.LIVE_PROBE_ALLOW_ADDRESSES,
      extraCa: config.LIVE_PROBE_CA_FILE ? readFileSync(config.LIVE_PROBE_CA_FILE, 'utf8') : null,
    },
  });
}
