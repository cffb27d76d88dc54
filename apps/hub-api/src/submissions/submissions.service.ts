/**
 * Kazma's `hub submit` sends a manifest and no credentials. Such a submission is
 * quarantined: stored, never listed or installable, rate-limited per client
 * address, and gone after SUBMISSION_TTL_DAYS unless an owner of its namespace
 * claims it (publishing the bundle, or the manifest alone when it names no code).
 */
import { Inject, Injectable } from '@nestjs/common';
import { stringify } from 'yaml';
import { DataSource } from 'typeorm';
import { writeBundle } from '@skillhub/bundle';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import type { Problem } from '@skillhub/errors';
import { addToOutbox, CERTIFICATION_QUEUE, CERTIFY_SUBMISSION_JOB, OutboxRelay } from '@skillhub/queue';
import { SubmissionRepository, type Submission } from '@skillhub/database';
import type { Principal } from '../auth/principal';
import type { PublishResponseDto } from '../skills/dto/skill-version.response.dto';
import { SkillInspector } from '../skills/skill-inspector.service';
import { SkillPublisher } from '../skills/skill-publisher.service';
import { InvalidManifestError } from '../skills/skills.errors';
import { kazmaSkillId } from '../skills/skill-ref';
import type { SubmitSkillRequestDto } from './dto/submit-skill.request.dto';
import type { SubmitSkillResponseDto } from './dto/submission.response.dto';
import {
  SubmissionClaimedError,
  SubmissionExpiredError,
  SubmissionNotFoundError,
  SubmitRateLimitedError,
} from './submissions.errors';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

@Injectable()
export class SubmissionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly submissions: SubmissionRepository,
    private readonly publisher: SkillPublisher,
    private readonly inspector: SkillInspector,
    private readonly relay: OutboxRelay,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  async submit(dto: SubmitSkillRequestDto, clientAddress: string): Promise<SubmitSkillResponseDto> {
    const { skill, warnings: problems } = await this.inspector.inspectManifest(dto.manifest);
    const submission = await this.dataSource.transaction(async (m) => {
      // One submitter address at a time, so the count cannot be raced past the limit.
      const recent = await this.submissions.lockWindow(m, clientAddress, new Date(Date.now() - HOUR_MS));
      if (recent.count >= this.config.SUBMIT_RATE_LIMIT_PER_HOUR && recent.oldest) {
        const retryAfter = Math.max(1, Math.ceil((recent.oldest.getTime() + HOUR_MS - Date.now()) / 1000));
        throw new SubmitRateLimitedError(retryAfter);
      }
      const saved = await this.submissions.add(m, {
        namespaceSlug: skill.namespace,
        name: skill.name,
        version: skill.version,
        manifest: skill.manifest,
        problems,
        sourceUrl: dto.source_url ?? null,
        submitterId: dto.submitter_id ?? null,
        clientAddress,
        expiresAt: new Date(Date.now() + this.config.SUBMISSION_TTL_DAYS * DAY_MS),
      });
      await addToOutbox(m, CERTIFICATION_QUEUE, CERTIFY_SUBMISSION_JOB, { submissionId: saved.id });
      return saved;
    });
    this.relay.nudge();
    return this.view(submission);
  }

  async get(id: string): Promise<SubmitSkillResponseDto> {
    return this.view(await this.find(id));
  }

  /**
   * Claims a submission by publishing it under the caller's token, through the publisher's one
   * path (its rate limit, its transaction, its hand-over of the judgment): with the bundle sent
   * in the body, or, when none is sent, a bundle made of the manifest alone. The bundle must
   * name what the submission named; the submission is marked claimed in the publish's transaction.
   */
  async claim(id: string, principal: Principal, body: Buffer | null): Promise<PublishResponseDto> {
    const submission = await this.find(id);
    if (submission.status === 'claimed') throw new SubmissionClaimedError(id);
    if (submission.expiresAt.getTime() <= Date.now()) throw new SubmissionExpiredError(id);
    const bytes =
      body ??
      writeBundle([{ path: 'skill_manifest.yaml', content: stringify(submission.manifest) }], {
        rootFolder: submission.name,
      });
    const expected = { namespace: submission.namespaceSlug, name: submission.name, version: submission.version };
    const outcome = await this.publisher.publish(
      bytes,
      principal,
      {},
      {
        accept: (skill) => {
          const mismatch = (Object.keys(expected) as Array<keyof typeof expected>)
            .filter((field) => skill[field] !== expected[field])
            .map((field): Problem => ({
              path: field,
              message: `the bundle says ${field} "${skill[field]}", the submission "${expected[field]}"`,
              severity: 'error',
            }));
          if (mismatch.length) throw new InvalidManifestError(mismatch);
        },
        around: async (m, store) => {
          const locked = await this.submissions.lock(m, id);
          if (locked?.status !== 'quarantined') throw new SubmissionClaimedError(id);
          const stored = await store();
          await this.submissions.markClaimed(m, id, stored.versionId);
          return stored;
        },
      },
    );
    return outcome.response;
  }

  private async find(id: string): Promise<Submission> {
    const submission = await this.submissions.byId(id);
    if (!submission) throw new SubmissionNotFoundError(id);
    return submission;
  }

  private view(s: Submission): SubmitSkillResponseDto {
    const expired = s.status === 'quarantined' && s.expiresAt.getTime() <= Date.now();
    const status = expired ? 'expired' : s.status;
    const ref = kazmaSkillId(s.namespaceSlug, s.name, s.version);
    const message =
      status === 'quarantined'
        ? `Received ${ref}. It is quarantined (not listed, not installable) until an owner of namespace "${s.namespaceSlug}" claims it with a token; unclaimed, it expires at ${s.expiresAt.toISOString()}.`
        : status === 'claimed'
          ? `Claimed and published as ${ref}.`
          : `Expired unclaimed at ${s.expiresAt.toISOString()}; submit again or publish with a token.`;
    return {
      submission_id: s.id,
      skill_id: ref,
      status,
      message,
      expires_at: s.expiresAt.toISOString(),
      claim_url: `/api/v1/submissions/${s.id}/claim`,
    };
  }
}
