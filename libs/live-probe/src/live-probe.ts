/**
 * The live tool probe (C13): starts one pinned MCP server in the sandbox, lists what it offers and
 * stops it. The server gets no network, a tmpfs home, its package (or the skill's bundle) read-only at
 * a fixed path, and only the environment the skill declares; never the worker's. Every path ends with
 * the sandbox killed. A remote server is listed over `https` through an egress proxy of its own,
 * which reaches public addresses only (remote-connection.ts). It never throws: anything that goes
 * wrong is the probe's outcome, with a detail the publisher can act on. Tools are what the
 * certificate pins: a server whose prompts or resources cannot be listed (one that needs its
 * database for them, say) keeps its tools, and the detail says what was not listed.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { PackageCache, PythonPackageCache } from '@skillhub/package-cache';
import {
  DEFAULT_SANDBOX_LIMITS,
  SANDBOX_TOOLS,
  SandboxStdioTransport,
  sandboxAvailable,
  type SandboxLimits,
  type SandboxTools,
} from '@skillhub/sandbox';
import type { LivePrompt, LiveResource, LiveServerProbe, LiveTool } from '@skillhub/certification';
import { DomainError } from '@skillhub/errors';
import { probeFailureDetail } from './probe-failure';
import {
  ServerLaunchError,
  bundleFileServerLaunch,
  inSkillFolder,
  npmServerLaunch,
  pypiServerLaunch,
  serverSandboxPolicy,
  type LiveProbeTarget,
  type ServerLaunch,
} from './server-launch';

import { type RemoteAccess, type RemoteServerTarget, openRemoteConnection } from './remote-connection';

export type { BundleFileServerTarget, LiveProbeTarget, NpmServerTarget, PypiServerTarget } from './server-launch';

export interface LiveProbeOptions {
  packageCache: PackageCache;
  /** Installs PyPI servers from their locks; without it they are not probed. */
  pythonCache?: PythonPackageCache;
  /** From starting the sandbox to the last list. Default 15 s. Installing a package is bounded by the cache. */
  timeoutMs?: number;
  /** Most tools, prompts or resources kept (each); a server that offers more is not fully recorded: failed. Default 500. */
  maxDefinitions?: number;
  /** Largest single definition, as JSON; a larger one fails the probe rather than being cut. Default 64 KiB. */
  maxDefinitionBytes?: number;
  limits?: Partial<SandboxLimits>;
  sandboxTools?: SandboxTools;
  /** What remote servers may be reached (default: public addresses, the system's CAs). */
  remote?: RemoteAccess;
}

export const LIVE_PROBE_DEFAULTS = Object.freeze({
  timeoutMs: 15_000,
  maxDefinitions: 500,
  maxDefinitionBytes: 64 * 1024,
});

/** Something that ends the probe early with an outcome other than 'listed'. */
class ProbeStop extends Error {
  constructor(
    readonly outcome: 'failed' | 'not-probed',
    readonly detail: string,
  ) {
    super(detail);
  }
}

export const probeLiveServer = async (
  target: LiveProbeTarget | RemoteServerTarget,
  options: LiveProbeOptions,
): Promise<LiveServerProbe> => {
  const result = (outcome: LiveServerProbe['outcome'], detail: string): LiveServerProbe => ({
    server: target.server,
    outcome,
    detail,
    tools: [],
    prompts: [],
    resources: [],
  });
  try {
    if (target.kind === 'remote') return { server: target.server, ...(await listRemote(target, options)) };
    const availability = await sandboxAvailable(options.sandboxTools ?? SANDBOX_TOOLS);
    if (!availability.ok) return result('not-probed', `no sandbox on the certifier: ${availability.reason}`);
    if (target.kind === 'pypi' && !options.pythonCache)
      return result('not-probed', 'the certifier has no Python package cache');
    const started =
      target.kind === 'npm'
        ? await npmServerLaunch(target, options.packageCache)
        : target.kind === 'pypi'
          ? await pypiServerLaunch(target, options.pythonCache!)
          : await bundleFileServerLaunch(target);
    const folder = target.workingFolder;
    const launch = folder ? await inSkillFolder(started, folder.skillDir, folder.cwd) : started;
    return { server: target.server, ...(await listSandboxed(target, launch, options)) };
  } catch (error) {
    if (error instanceof ProbeStop) return result(error.outcome, error.detail);
    if (error instanceof ServerLaunchError) return result(error.missingHere ? 'not-probed' : 'failed', error.message);
    if (error instanceof DomainError) return result('failed', error.message);
    return result('failed', `the probe failed: ${(error as Error).message}`);
  }
};

type Listed = Omit<LiveServerProbe, 'server'>;

const listSandboxed = async (
  target: LiveProbeTarget,
  launch: ServerLaunch,
  options: LiveProbeOptions,
): Promise<Listed> => {
  const timeoutMs = options.timeoutMs ?? LIVE_PROBE_DEFAULTS.timeoutMs;
  const maxBytes = options.maxDefinitionBytes ?? LIVE_PROBE_DEFAULTS.maxDefinitionBytes;
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
  const policy = serverSandboxPolicy(launch, target, { limits });
  const transport = new SandboxStdioTransport(policy, launch.argv, {
    tools: options.sandboxTools,
    maxMessageBytes: Math.max(4 * 1024 * 1024, maxBytes * 4),
  });
  return listDefinitions(transport, options, (error, timedOut) => {
    // How it ended, if it did on its own (a kill after a timeout would report SIGKILL).
    const exit = timedOut ? null : transport.exit;
    return probeFailureDetail({ timedOut, timeoutMs, exit, stderr: transport.stderrTail, error: error.message });
  });
};

const listRemote = async (target: RemoteServerTarget, options: LiveProbeOptions): Promise<Listed> => {
  const timeoutMs = options.timeoutMs ?? LIVE_PROBE_DEFAULTS.timeoutMs;
  const connection = await openRemoteConnection(target, options.remote ?? {});
  try {
    return await listDefinitions(connection.transport, options, (error, timedOut) =>
      timedOut
        ? `the remote server at ${target.url} did not list its tools within ${timeoutMs} ms`
        : `the remote server at ${target.url} could not be listed: ${connection.refusal() ?? error.message}`,
    );
  } finally {
    await connection.close();
  }
};

/** Connects, lists every page of what the server offers, and closes the transport whatever happens. */
const listDefinitions = async (
  transport: Transport,
  options: LiveProbeOptions,
  failure: (error: Error, timedOut: boolean) => string,
): Promise<Listed> => {
  const timeoutMs = options.timeoutMs ?? LIVE_PROBE_DEFAULTS.timeoutMs;
  const maxDefinitions = options.maxDefinitions ?? LIVE_PROBE_DEFAULTS.maxDefinitions;
  const maxBytes = options.maxDefinitionBytes ?? LIVE_PROBE_DEFAULTS.maxDefinitionBytes;
  const client = new Client({ name: 'skillhub-certifier', version: '1.0.0' });
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
    void transport.close();
  }, timeoutMs);
  // The SDK's own per-request timeout stays behind the probe's deadline, so a slow server is reported as such.
  const request = { signal: abort.signal, timeout: timeoutMs + 1_000 };
  const unlisted: Array<{ what: 'prompts' | 'resources'; why: string }> = [];
  /** Prompts and resources are not pinned: a server that cannot list them still has its tools recorded. */
  const optional = async <T>(what: 'prompts' | 'resources', list: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await list();
    } catch (error) {
      if (error instanceof ProbeStop || timedOut) throw error;
      unlisted.push({ what, why: `its ${what}/list failed (${(error as Error).message.slice(0, 200)})` });
      return [];
    }
  };
  try {
    await client.connect(transport, request);
    const capabilities = client.getServerCapabilities();
    const tools = await allPages('tools', maxDefinitions, async (cursor) => {
      const page = await client.listTools(cursor ? { cursor } : undefined, request);
      return { items: page.tools.map(liveTool), nextCursor: page.nextCursor };
    });
    const prompts = capabilities?.prompts
      ? await optional('prompts', () =>
          allPages('prompts', maxDefinitions, async (cursor) => {
            const page = await client.listPrompts(cursor ? { cursor } : undefined, request);
            return { items: page.prompts.map(livePrompt), nextCursor: page.nextCursor };
          }),
        )
      : [];
    const resources = capabilities?.resources
      ? await optional('resources', () =>
          allPages('resources', maxDefinitions, async (cursor) => {
            const page = await client.listResources(cursor ? { cursor } : undefined, request);
            return { items: page.resources.map(liveResource), nextCursor: page.nextCursor };
          }),
        )
      : [];
    const oversized = [
      ...tools.map((tool) => ({ what: `the tool ${tool.name}`, value: tool })),
      ...prompts.map((prompt) => ({ what: `the prompt ${prompt.name}`, value: prompt })),
      ...resources.map((resource) => ({ what: `the resource ${resource.uri}`, value: resource })),
    ].find(({ value }) => Buffer.byteLength(JSON.stringify(value)) > maxBytes);
    if (oversized) {
      throw new ProbeStop(
        'failed',
        `${oversized.what} has a definition over ${maxBytes} bytes, more than the hub records`,
      );
    }
    if (unlisted.length === 0) return { outcome: 'listed', detail: '', tools, prompts, resources };
    const detail = `${unlisted.map(({ why }) => why).join('; ')}; its tools are recorded`;
    return { outcome: 'listed', detail, tools, prompts, resources, unlisted: unlisted.map(({ what }) => what) };
  } catch (error) {
    if (error instanceof ProbeStop) throw error;
    const detail = failure(error as Error, timedOut);
    await transport.close();
    throw new ProbeStop('failed', detail);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
    await transport.close();
  }
};

/** Follows `nextCursor` until the last page; a server that offers more than `max`, or loops, is refused. */
const allPages = async <T>(
  what: string,
  max: number,
  page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<T[]> => {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const next = await page(cursor);
    items.push(...next.items);
    if (items.length > max)
      throw new ProbeStop('failed', `the server lists more than ${max} ${what}, more than the hub records`);
    cursor = next.nextCursor;
    if (cursor !== undefined && seen.has(cursor))
      throw new ProbeStop('failed', `the server's ${what}/list pages repeat a cursor`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return items;
};

/** Only the fields the certificate pins: a server cannot grow the record with fields nobody checks. */
const liveTool = (tool: {
  name: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: unknown;
}): LiveTool =>
  definedOnly({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
  });

const livePrompt = (prompt: { name: string; description?: string; arguments?: unknown }): LivePrompt =>
  definedOnly({ name: prompt.name, description: prompt.description, arguments: prompt.arguments });

const liveResource = (resource: {
  uri: string;
  name?: string;
  description?: string;
  mimeType?: string;
}): LiveResource =>
  definedOnly({
    uri: resource.uri,
    name: resource.name,
    description: resource.description,
    mimeType: resource.mimeType,
  });

const definedOnly = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
