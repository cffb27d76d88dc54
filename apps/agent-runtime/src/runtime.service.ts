/**
 * The runtime's life: read the YAML configuration, serve the gateway (Streamable HTTP with its
 * bearer token, and/or stdio) at once, then install the certified skills it names (verified
 * offline) and start the servers their certificates let run (in the sandbox) and the servers the
 * operator configures, each offered as soon as it is up, with Agent Skills offered as prompts.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { createPreApprovalPolicy, describeTiers } from '@skillhub/gate';
import { HubApiError, HubClient, HubUnreachableError } from '@skillhub/hub-client';
import { type InstallResult, SkillInstaller, TrustState } from '@skillhub/installer';
import { PackageCache, PythonPackageCache } from '@skillhub/package-cache';
import { type EgressEvent, sandboxAvailable, sandboxEnforcement } from '@skillhub/sandbox';
import { parseSkillSpec, RuntimeConfigError, type RuntimeConfig } from './config/runtime-config';
import { readSecrets } from './config/runtime-secrets';
import { type CallAuditRecord, FileAuditTrail } from './gateway/call-audit-trail';
import { Gateway } from './gateway/gateway';
import { serveGatewayHttp, type GatewayHttpServer } from './gateway/gateway-http';
import type { ServeOverStdio } from './gateway/gateway-stdio';
import { gatewayToken } from './gateway/gateway-token';
import { FileSkillReviews } from './gateway/skill-reviews';
import { FileToolPins } from './gateway/tool-pins';
import { type SkillExposure, skillExposure } from './install/skill-exposure';
import { type ComposedParts, composedPrompt, type OfferedSkill, type SkillPrompt } from './install/skill-prompts';
import type { VerifiedSkill } from './install/verified-skill';
import { operatorUpstream } from './mcp/operator-connector';
import { RecentPackageChecks } from './mcp/recent-package-checks';
import { type SandboxSetting, sandboxLimits, sandboxNotice } from './mcp/sandbox-setting';
import { ServerEgress } from './mcp/server-egress';
import { type PlannedAddition, ServerPlanner } from './mcp/server-plan';
import { skillUpstream } from './mcp/skill-connector';
import type { UpstreamOptions, UpstreamServer } from './mcp/upstream-server';

/** Refusals that may not hold later: the skill is asked for again (`install_retry_seconds`). */
const LATER = new Set<string>(['not-found', 'no-matching-version', 'uncertified', 'unreachable']);

const UPSTREAM_TIMING = {
  connectTimeoutMs: 30_000,
  callTimeoutMs: 60_000,
  retryDelayMs: 1_000,
  maxRetryDelayMs: 300_000,
};

/** What main.ts read and opened before Nest loaded. */
export interface RuntimeStart {
  /** RUNTIME_CONFIG, read; null when it is unset. */
  runtime: RuntimeConfig | null;
  /** The stdio gateway, already answering, when the configuration asks for it. */
  stdio: ServeOverStdio | null;
}
export const RUNTIME_START = Symbol('RUNTIME_START');

@Injectable()
export class RuntimeService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('agent-runtime');
  private upstreams: UpstreamServer[] = [];
  private http: GatewayHttpServer | null = null;
  private egress: ServerEgress | null = null;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
    @Inject(RUNTIME_START) private readonly early: RuntimeStart,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { runtime } = this.early;
    if (!runtime) {
      this.logger.warn('RUNTIME_CONFIG is unset: no MCP server to serve (set it to a runtime YAML file).');
      return;
    }
    const stateDir = resolve(runtime.state_dir);
    const warn = (message: string): void => this.logger.warn(message);
    const pins = new FileToolPins(join(stateDir, 'trust', 'tool-pins.json'));
    if (pins.droppedOlderPins) {
      warn('tool pins taken before annotations were hashed were dropped: they are taken again on first use');
    }
    const gateway = new Gateway([], {
      environment: {
        production: this.config.NODE_ENV === 'production',
        trustedInProdAllowed: this.config.KAZMA_MCP_TRUSTED_IN_PROD,
      },
      preApproval: createPreApprovalPolicy(runtime.approvals),
      pins,
      warn,
      audit: new FileAuditTrail<CallAuditRecord>(join(stateDir, 'audit', 'calls.jsonl'), warn),
      reviews: new FileSkillReviews(join(stateDir, 'trust', 'reviewed-skills.json')),
    });
    // The gateway answers at once and serves what is ready; clients are told as servers come up.
    await this.serveGateway(gateway, runtime, stateDir);

    const networkTrail = new FileAuditTrail<EgressEvent>(join(stateDir, 'audit', 'network.jsonl'), warn);
    this.egress = new ServerEgress({
      allowAddresses: runtime.sandbox_egress.allow_addresses,
      extraCa: runtime.sandbox_egress.ca_file === null ? null : readCaFile(runtime.sandbox_egress.ca_file),
      record: (event) => {
        networkTrail.record(event);
        if (event.verdict === 'refused') this.logger.warn(`${event.server}: network: ${event.reason}`);
      },
    });
    const sandbox: SandboxSetting = {
      mode: runtime.sandbox,
      availability: await sandboxAvailable(),
      limits: sandboxLimits(runtime.sandbox_limits),
      enforcement: sandboxEnforcement(),
      egress: this.egress,
    };
    const notice = sandboxNotice(sandbox);
    this.logger[notice.level](notice.message);

    const upstreamOptions: UpstreamOptions = { ...UPSTREAM_TIMING, warn, changed: () => gateway.announceChanges() };
    const operatorOptions = { inheritEnv: this.config.KAZMA_MCP_INHERIT_ENV, runtimeEnv: process.env, sandbox };
    const skillOptions = {
      sandbox,
      packageCache: new RecentPackageChecks(
        new PackageCache({ root: join(stateDir, 'packages'), registry: runtime.npm_registry }),
      ),
      pythonCache: new PythonPackageCache({ root: join(stateDir, 'packages'), index: runtime.pypi_registry }),
      runtimeEnv: process.env,
    };
    // Each server starts as soon as it is known (its start is mostly CPU, an install mostly waiting for the hub).
    const starting: Array<Promise<void>> = [];
    const start = (upstream: UpstreamServer): void => {
      this.upstreams.push(upstream);
      starting.push(
        upstream.ensureConnected().then((state) => {
          if (state.status === 'failed') this.logger.error(`${upstream.name}: not started: ${state.reason}`);
          else this.logger.log(`${upstream.name}: ${state.status === 'connected' ? state.tools.length : 0} tools`);
        }),
      );
    };
    const operatorUpstreams = runtime.mcp_servers.map((server) =>
      operatorUpstream(server, operatorOptions, upstreamOptions),
    );
    gateway.add(operatorUpstreams);
    operatorUpstreams.forEach(start);

    const planner = new ServerPlanner(runtime.mcp_servers);
    const secrets = readSecrets(runtime.secrets, process.env);
    const offered: OfferedSkill[] = [];
    const composed: Array<{ skill: VerifiedSkill; exposure: SkillExposure; parts: ComposedParts }> = [];
    const offer = (skill: VerifiedSkill): void => {
      const exposure = skillExposure(skill, {
        grants: runtime.grants,
        secrets,
        callTimeoutMs: UPSTREAM_TIMING.callTimeoutMs,
      });
      const { certifiedAs } = exposure;
      if (exposure.withheld) {
        warn(`${certifiedAs}: ${exposure.withheld}`);
        return;
      }
      for (const { server, reason } of exposure.refused) {
        warn(`${certifiedAs}: server ${server} is not started: ${reason}`);
      }
      const addition = planner.add(exposure);
      for (const note of addition.notes) this.logger.log(note);
      for (const { tool, reason } of [...exposure.refusedTools, ...addition.refusedTools]) {
        warn(`${certifiedAs}: the tool ${tool} is not offered: ${reason}`);
      }
      const upstreams = addition.added.map((planned) => skillUpstream(planned, skillOptions, upstreamOptions));
      for (const tool of addition.tools) {
        const tiers = describeTiers(tool.governance.tiers);
        this.logger.log(
          `${certifiedAs}: offers mcp__${tool.namespace}__${tool.tool} on ${tool.upstream}, tier ${tiers}`,
        );
        if (tool.audit.problems.length > 0) warn(`${certifiedAs}: ${tool.audit.problems.join(', ')}`);
      }
      gateway.add(upstreams, { tools: addition.tools, prompts: exposure.prompts });
      upstreams.forEach(start);
      if (exposure.composes) composed.push({ skill, exposure, parts: exposure.composes });
      else offered.push(offeredSkill(exposure, addition));
    };
    // A composed skill's parts are known once the skills before it are installed, whatever the config's order.
    const offerComposed = (): void => {
      const composedPrompts: SkillPrompt[] = [];
      for (const { skill, exposure, parts } of composed.splice(0)) {
        const reading = composedPrompt(skill, parts, offered);
        if (!reading.ok) {
          warn(`${exposure.certifiedAs}: not offered: ${reading.reason}`);
          continue;
        }
        composedPrompts.push(reading.prompt);
        offered.push({ ...offeredSkill(exposure, null), prompts: [reading.prompt.name] });
      }
      gateway.add([], { prompts: composedPrompts });
    };
    const waiting: string[] = [];
    for await (const skill of this.installSkills(runtime, stateDir, runtime.skills, waiting)) offer(skill);
    offerComposed();
    this.installLater(runtime, stateDir, waiting, (skill) => {
      offer(skill);
      offerComposed();
    });
    await Promise.all(starting);
    const tools = (await gateway.tools()).length;
    this.logger.log(`gateway: every skill is loaded (${this.upstreams.length} servers, ${tools} tools)`);
  }

  /** Starts the gateway's transports: HTTP with its bearer token, and stdio. */
  private async serveGateway(gateway: Gateway, runtime: RuntimeConfig, stateDir: string): Promise<void> {
    if (runtime.gateway.http) {
      const { host, port, token_env, allowed_hosts } = runtime.gateway.http;
      let token: string;
      let where: string;
      if (token_env !== undefined) {
        const given = process.env[token_env];
        if (given === undefined || given.length < 16) {
          // Fail closed: a configured token that is missing would otherwise leave the gateway open.
          throw new RuntimeConfigError(
            `gateway.http.token_env: ${token_env} must hold a token of 16 characters or more`,
          );
        }
        token = given;
        where = `the environment variable ${token_env}`;
      } else {
        const made = gatewayToken(stateDir);
        token = made.token;
        where = made.path;
      }
      const http = await serveGatewayHttp(gateway, host, port, { token, allowedHosts: allowed_hosts });
      this.http = http;
      this.logger.log(`gateway: ${http.url} (send Authorization: Bearer <the token in ${where}>)`);
    }
    this.early.stdio?.(gateway);
  }

  /**
   * Installs each skill of `specs`, verified offline, yielding each; a refused one is logged with its
   * reason and skipped, and one that may install later (not published yet, no certified version in its
   * range yet, the hub down) is put in `waiting`, said once (`again`: a later pass, which says nothing new).
   */
  private async *installSkills(
    runtime: RuntimeConfig,
    stateDir: string,
    specs: readonly string[],
    waiting: string[],
    again = false,
  ): AsyncGenerator<VerifiedSkill> {
    if (!specs.length) return;
    const hub = new HubClient({ baseUrl: runtime.hub ?? this.config.KAZMA_HUB_URL });
    const installer = new SkillInstaller(hub, {
      installDir: join(stateDir, 'skills'),
      state: new TrustState(join(stateDir, 'trust')),
      logOrigin: this.config.HUB_LOG_ORIGIN,
      pinnedKeys: runtime.keys,
      kazmaSecret: this.config.KAZMA_SECRET,
    });
    // One after another: each install checks the revocation list against the newest one the
    // install before it kept (TrustState), so concurrent installs would refuse each other's lists.
    // Once the hub has not answered, it is not asked again during this start.
    let hubDown: string | null = null;
    for (const spec of specs) {
      const { author, name, range } = parseSkillSpec(spec);
      const asked: InstallResult | null =
        hubDown === null
          ? await installer.install(author, name, range).catch((err: Error): InstallResult => {
              if (err instanceof HubUnreachableError || (err instanceof HubApiError && err.status >= 500)) {
                hubDown = err.message;
                if (!again) {
                  this.logger.warn(
                    `the hub cannot be reached (${hubDown}): skills are served from their installed copies`,
                  );
                }
              }
              const notFound = err instanceof HubApiError && err.status === 404;
              return { ok: false, author, name, reason: notFound ? 'not-found' : 'unreachable', message: err.message };
            })
          : null;
      // A hub that does not answer (or answers 5xx) does not take down what was installed and
      // verified here before; a hub that answers (a 404, a refusal) is believed.
      const result = hubDown === null && asked ? asked : installer.installedCopy(author, name, range);
      if (!result.ok) {
        if (LATER.has(result.reason) || hubDown !== null) {
          waiting.push(spec);
          const why = `${spec} is not installable yet (${result.reason}: ${result.message})`;
          if (again) this.logger.debug(why);
          else this.logger.warn(`${why}; asked for again every ${runtime.install_retry_seconds} s`);
        } else this.logger.error(`refused ${spec}: ${result.reason}: ${result.message}`);
        continue;
      }
      const ref = `${author}/${name}`;
      this.logger.log(`installed ${ref}@${result.version}`);
      for (const warning of result.warnings) this.logger.warn(`${ref}@${result.version}: ${warning}`);
      yield { ref, version: result.version, path: result.path, skill: result.skill, statement: result.statement };
    }
  }

  /**
   * Asks the hub again for the skills in `waiting`, every `install_retry_seconds`, one pass at a time,
   * and hands each that installs to `offer`: a skill published (or certified) after the runtime
   * started is served then, its clients told, with no restart.
   */
  private installLater(
    runtime: RuntimeConfig,
    stateDir: string,
    waiting: string[],
    offer: (skill: VerifiedSkill) => void,
  ): void {
    if (waiting.length === 0) return;
    let passing = false;
    this.retry = setInterval(() => {
      if (passing) return;
      passing = true;
      void (async () => {
        const specs = waiting.splice(0);
        for await (const skill of this.installSkills(runtime, stateDir, specs, waiting, true)) offer(skill);
        if (waiting.length === 0) clearInterval(this.retry!);
      })()
        .catch((err: Error) => this.logger.error(`installing skills again failed: ${err.message}`))
        .finally(() => (passing = false));
    }, runtime.install_retry_seconds * 1000);
    this.retry.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.retry) clearInterval(this.retry);
    await this.http?.close();
    await Promise.all(this.upstreams.map((u) => u.close()));
    await this.egress?.close();
  }
}

/** What a skill offers, by gateway name, for the composed skills that name it. */
function offeredSkill(exposure: SkillExposure, addition: PlannedAddition | null): OfferedSkill {
  const servers = exposure.offersServers ? (addition?.servers ?? []).map((server) => `mcp__${server.name}__*`) : [];
  return {
    ref: exposure.ref,
    name: exposure.name,
    description: exposure.description,
    tools: [...(addition?.tools ?? []).map((tool) => `mcp__${tool.namespace}__${tool.tool}`), ...servers],
    prompts: exposure.prompts.map((prompt) => prompt.name),
  };
}

/** The operator's extra CAs for remote servers; a file that cannot be read stops the start, named. */
function readCaFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`sandbox_egress.ca_file: ${path} cannot be read (${(error as Error).message})`, { cause: error });
  }
}
