/**
 * Judges one bundle: reads it within limits, parses it (nothing stored is trusted), probes the
 * packages its MCP servers run (C8), starts each verified server in the sandbox to record its live
 * tools (C13), detonates what it would run (C16), and runs every check (pure, in libs/certification). No database: the certifier
 * service loads what it needs and records the verdict; tests and benchmarks call this directly.
 */
import { readBundle, type Bundle, type BundleLimits } from '@skillhub/bundle';
import {
  certify,
  pinnedByHub,
  readLaunchSpecs,
  type CertificationVerdict,
  type DetonationResult,
  type LiveServerProbe,
  type PopularName,
  type ProbeResult,
  type RegisteredKey,
} from '@skillhub/certification';
import type { CodeAnalyzer } from '@skillhub/code-analysis';
import { DomainError } from '@skillhub/errors';
import type { PackageProber } from '@skillhub/package-probe';
import { parseSkill, type NormalizedSkill, type PackageRef, type ParseResult } from '@skillhub/skill-formats';
import { LiveToolsRecorder } from './live-tools.recorder';
import type { SkillDetonator } from './skill-detonator';

export interface JudgeRequest {
  /** The stored bundle's bytes, or an already read bundle (a quarantined manifest). */
  /** The stored bytes, a bundle already read, or why the stored bytes cannot be judged (a changed blob). */
  bundle: Buffer | Bundle | { unreadable: string };
  /** Given when the bundle is a manifest alone (`kazma hub submit`): parsed as is, never certified. */
  parsed?: ParseResult;
  namespace: { slug: string; ownerMatches: boolean };
  /** The publish request's version (formats without one). */
  version: string;
  kazmaSecrets: string[];
  publisherKeys: RegisteredKey[];
  publishedAt: Date;
  popularNames: PopularName[];
  policyVersion: number;
  manifestOnly?: true;
}

export interface SkillJudgeOptions {
  analyzer: CodeAnalyzer;
  prober: Pick<PackageProber, 'probe'>;
  /** Null: live tools are never recorded (servers stay unverified, the skill at basic at most). */
  liveTools: LiveToolsRecorder | null;
  /** Null or absent: skills are not detonated (C16 records them as such, neither failing nor raising them). */
  detonator?: SkillDetonator | null;
  limits: BundleLimits;
  /** Timed probe (metrics); defaults to the prober's own. */
  probe?: (ref: PackageRef) => Promise<ProbeResult>;
  /** Non-public `address:port` destinations remote servers may use (LIVE_PROBE_ALLOW_ADDRESSES). */
  internalAddresses?: readonly string[];
}

export class SkillJudge {
  constructor(private readonly options: SkillJudgeOptions) {}

  async judge(request: JudgeRequest): Promise<CertificationVerdict> {
    const { bundle, parsed } = this.read(request);
    const probes = await this.probePackages(parsed.skill);
    const liveServers = await this.recordLiveTools(parsed.skill, bundle, probes);
    const detonation = await this.detonate(parsed.skill, bundle, request);
    return certify({
      internalAddresses: this.options.internalAddresses,
      bundle,
      skill: parsed.skill,
      parseProblems: parsed.problems,
      namespace: request.namespace,
      kazmaSecrets: request.kazmaSecrets,
      publisherKeys: request.publisherKeys,
      publishedAt: request.publishedAt,
      probes,
      liveServers,
      analyzer: this.options.analyzer,
      popularNames: request.popularNames,
      policyVersion: request.policyVersion,
      now: new Date(),
      ...(request.manifestOnly ? { manifestOnly: true as const } : {}),
      ...(detonation ? { detonation } : {}),
    });
  }

  /** A skill that parsed, with its files (a manifest alone has nothing to run). */
  private async detonate(
    skill: NormalizedSkill | null,
    bundle: Bundle,
    request: JudgeRequest,
  ): Promise<DetonationResult | null> {
    const detonator = this.options.detonator;
    if (!detonator || !skill || request.manifestOnly || bundle.files.length === 0) return null;
    return detonator.detonate(bundle, skill);
  }

  private read(request: JudgeRequest): { bundle: Bundle; parsed: ParseResult } {
    const stored = request.bundle;
    if ('unreadable' in stored) return unreadable(stored.unreadable, 0);
    if (!Buffer.isBuffer(stored)) return { bundle: stored, parsed: request.parsed ?? this.parse(stored, request) };
    try {
      const bundle = readBundle(stored, this.options.limits);
      return { bundle, parsed: this.parse(bundle, request) };
    } catch (err) {
      // The stored bytes no longer read (or the limits were lowered since publish): fail closed, with the reason.
      return unreadable(
        err instanceof DomainError ? err.message : 'the stored bundle could not be read',
        stored.length,
      );
    }
  }

  private parse(bundle: Bundle, request: JudgeRequest): ParseResult {
    return parseSkill(bundle.files, {
      namespace: request.namespace.slug,
      version: request.version,
      folderName: bundle.rootFolder,
    });
  }

  private probePackages(skill: NormalizedSkill | null): Promise<ProbeResult[]> {
    const probe = this.options.probe ?? ((ref: PackageRef) => this.options.prober.probe(ref));
    return Promise.all((skill?.mcpServers.flatMap((server) => server.packages) ?? []).map(probe));
  }

  /** Only servers whose launch C15 accepts and whose package C8 pinned by integrity are started. */
  private async recordLiveTools(
    skill: NormalizedSkill | null,
    bundle: Bundle,
    probes: readonly ProbeResult[],
  ): Promise<LiveServerProbe[]> {
    const recorder = this.options.liveTools;
    if (!skill || !recorder) return [];
    const launches = pinnedByHub(
      readLaunchSpecs(skill.mcpServers, new Set(bundle.files.map((file) => file.path)), this.options.internalAddresses),
      probes,
    );
    return recorder.record(launches, bundle, probes);
  }
}

/** A bundle nothing can be judged from: the verdict fails closed, saying why. */
function unreadable(message: string, size: number): { bundle: Bundle; parsed: ParseResult } {
  return {
    bundle: { sha256: '', size, uncompressedSize: 0, rootFolder: null, files: [] },
    parsed: { skill: null, problems: [{ path: '', message, severity: 'error' }] },
  };
}
