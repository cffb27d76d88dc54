/**
 * Publish: bundle in, validated, stored immutably with its certification row and
 * outbox job in one transaction. Validate runs the same steps and stores nothing.
 */
import { Inject, Injectable } from '@nestjs/common';
import * as semver from 'semver';
import { DataSource, type EntityManager } from 'typeorm';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { addToOutbox, CERTIFICATION_QUEUE, CERTIFY_JOB, OutboxRelay, VerdictEvents } from '@skillhub/queue';
import { CertificationRepository, NamespaceRepository, SkillRepository, type Namespace } from '@skillhub/database';
import type { NormalizedSkill } from '@skillhub/skill-formats';
import { assertCanActOn, canActOn } from '../auth/namespace-access';
import type { Principal } from '../auth/principal';
import { WriteRateLimiter } from '../common/write-rate-limiter';
import { ForbiddenError } from '../auth/auth.errors';
import type { PublishSkillQueryDto } from './dto/publish-skill.request.dto';
import { CertificationSummaryDto, type PublishResponseDto } from './dto/skill-version.response.dto';
import type { ValidateSkillResponseDto } from './dto/validate-skill.response.dto';
import { NamespaceUnclaimedError, SkillVersionExistsError, WorkspaceClaimError } from './skills.errors';
import type { BundleSummary, InspectedBundle } from './skill-inspection';
import { SkillInspector } from './skill-inspector.service';
import { kazmaSkillId } from './skill-ref';

export interface PublishOutcome {
  created: boolean;
  versionId: string;
  response: PublishResponseDto;
}

/** What a caller adds to a publish (a claimed submission): checks before, and writes in its transaction. */
export interface PublishStep {
  /** Checks the inspected skill before anything is written; throws a domain error to refuse it. */
  accept?(skill: NormalizedSkill): void;
  /** Wraps the store in its transaction: what the caller locks and writes there commits or rolls back with it. */
  around?(m: EntityManager, store: () => Promise<PublishOutcome>): Promise<PublishOutcome>;
}

@Injectable()
export class SkillPublisher {
  constructor(
    private readonly dataSource: DataSource,
    private readonly skills: SkillRepository,
    private readonly namespaces: NamespaceRepository,
    private readonly certifications: CertificationRepository,
    private readonly relay: OutboxRelay,
    private readonly limiter: WriteRateLimiter,
    private readonly inspector: SkillInspector,
    private readonly verdicts: VerdictEvents,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  /**
   * Reads and validates a bundle (off the event loop): its skill, or each skill of a SwarmKit
   * workspace; throws a 4xx domain error listing every problem.
   */
  async inspect(bytes: Buffer, principal: Principal | null, query: PublishSkillQueryDto): Promise<InspectedBundle[]> {
    const namespace = query.namespace ?? (await this.boundNamespace(principal));
    return this.inspector.inspectBundle(bytes, { namespace, version: query.version });
  }

  async validate(
    bytes: Buffer,
    principal: Principal | null,
    query: PublishSkillQueryDto,
    clientAddress: string,
  ): Promise<ValidateSkillResponseDto> {
    await this.limiter.consume(
      `validate:${clientAddress}`,
      this.config.VALIDATE_RATE_LIMIT_PER_MINUTE,
      'validations from this address',
    );
    const inspected = await this.inspect(bytes, principal, query);
    const [{ bundle, skill, warnings }] = inspected as [InspectedBundle, ...InspectedBundle[]];
    let publishable: boolean | null = null;
    if (principal) {
      const ns = await this.namespaces.bySlug(skill.namespace);
      publishable = ns ? canActOn(principal, ns) : principal.kind === 'token' && principal.scopes.includes('claim');
    }
    return {
      ...(inspected.length > 1 || inspected[0]?.bytes
        ? { workspace: inspected.map((one) => kazmaSkillId(one.skill.namespace, one.skill.name, one.skill.version)) }
        : {}),
      valid: true,
      id: kazmaSkillId(skill.namespace, skill.name, skill.version),
      author: skill.namespace,
      name: skill.name,
      version: skill.version,
      format: skill.format,
      bundle_sha256: bundle.sha256,
      files: bundle.files,
      problems: warnings,
      publishable,
    };
  }

  /** The one way a version is published: rate-limited per token, inspected, stored, and its judgment handed over. */
  async publish(
    bytes: Buffer,
    principal: Principal,
    query: PublishSkillQueryDto,
    step: PublishStep = {},
  ): Promise<PublishOutcome> {
    const who = principal.kind === 'token' ? principal.tokenId : 'admin';
    await this.limiter.consume(
      `publish:${who}`,
      this.config.PUBLISH_RATE_LIMIT_PER_MINUTE,
      'publishes from this token',
    );
    const inspected = await this.inspect(bytes, principal, query);
    const workspace = inspected.length > 1 || inspected[0]?.bytes !== undefined;
    if (workspace && (step.accept || step.around)) throw new WorkspaceClaimError();
    for (const { skill } of inspected) step.accept?.(skill);
    // A workspace's skills are published together or not at all.
    const outcomes = await this.dataSource.transaction(async (m) => {
      const stored: PublishOutcome[] = [];
      for (const one of inspected) {
        const own = one.bytes ? Buffer.from(one.bytes) : bytes;
        const store = () => this.store(m, principal, one.bundle, own, one.skill);
        stored.push(await (step.around ? step.around(m, store) : store()));
      }
      return stored;
    });
    const created = outcomes.filter((outcome) => outcome.created);
    if (created.length > 0) this.relay.nudge();
    for (const outcome of created) await this.verdicts.changed(`${outcome.response.author}/${outcome.response.name}`);
    const [first] = outcomes as [PublishOutcome, ...PublishOutcome[]];
    if (!workspace) return first;
    return {
      ...first,
      created: created.length > 0,
      response: { ...first.response, workspace: outcomes.map((outcome) => outcome.response) },
    };
  }

  /**
   * Writes one version inside the caller's transaction. The unique (skill, version)
   * index decides races: of concurrent publishes of one new version exactly one
   * inserts; the others find its row and either match its bytes (idempotent) or
   * throw, rolling back everything they wrote.
   */
  private async store(
    m: EntityManager,
    principal: Principal,
    bundle: BundleSummary,
    bytes: Buffer,
    skill: NormalizedSkill,
  ): Promise<PublishOutcome> {
    if (principal.kind !== 'token')
      throw new ForbiddenError('Publish with a publisher token; the operator token does not own namespaces.');
    const namespace = await this.namespaceFor(m, principal, skill.namespace);
    const skillId = await this.skills.upsertSkill(m, namespace.id, skill.name);
    await this.skills.storeBundle(m, bundle.sha256, bytes);

    // Inspection refused every version semver cannot parse or the int4 columns cannot hold.
    const parsed = semver.parse(skill.version)!;
    const versionId = await this.skills.addVersion(m, {
      skillId,
      version: skill.version,
      major: parsed.major,
      minor: parsed.minor,
      patch: parsed.patch,
      prerelease: parsed.prerelease.length ? parsed.prerelease.join('.') : null,
      format: skill.format,
      author: skill.author,
      description: skill.description,
      license: skill.license,
      category: skill.category,
      capabilities: skill.capabilities,
      permissions: skill.permissions,
      tags: skill.tags,
      tools: skill.tools,
      mcpServers: skill.mcpServers,
      entryPoint: skill.entryPoint,
      manifestPath: skill.manifestPath,
      manifest: skill.manifest,
      files: bundle.files,
      bundleSha256: bundle.sha256,
      bundleSize: bytes.length,
      publishedBy: principal.publisherId,
    });
    const ref = kazmaSkillId(namespace.slug, skill.name, skill.version);
    const response = (status: CertificationSummaryDto): PublishResponseDto => ({
      id: ref,
      author: namespace.slug,
      name: skill.name,
      version: skill.version,
      format: skill.format,
      bundle_sha256: bundle.sha256,
      certification: status,
    });

    if (!versionId) {
      const existing = await this.skills.versionOf(m, skillId, skill.version);
      if (existing.bundleSha256 !== bundle.sha256) throw new SkillVersionExistsError(ref, existing.bundleSha256);
      const cert = await this.certifications.current(existing.id, m);
      return { created: false, versionId: existing.id, response: response(CertificationSummaryDto.from(cert)) };
    }
    const judgment = await this.certifications.addPending(m, versionId);
    await addToOutbox(m, CERTIFICATION_QUEUE, CERTIFY_JOB, judgment);
    return { created: true, versionId, response: response(CertificationSummaryDto.from(null)) };
  }

  /** The namespace the skill goes under, claimed now if it is new and the token may claim. */
  private async namespaceFor(
    m: EntityManager,
    principal: Extract<Principal, { kind: 'token' }>,
    slug: string,
  ): Promise<Namespace> {
    let namespace = await this.namespaces.bySlug(slug, m);
    if (!namespace) {
      if (!principal.scopes.includes('claim') || principal.namespaceId) throw new NamespaceUnclaimedError(slug);
      namespace = await this.namespaces.claim(m, slug, principal.publisherId);
    }
    assertCanActOn(principal, namespace);
    return namespace;
  }

  private async boundNamespace(principal: Principal | null): Promise<string | undefined> {
    if (principal?.kind !== 'token' || !principal.namespaceId) return undefined;
    const ns = await this.namespaces.byId(principal.namespaceId);
    return ns?.slug;
  }
}
